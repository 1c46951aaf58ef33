"""Takeover: a run whose executor died is finished by another instance, from its last
finished step; a live executor's run is left alone (heartbeat and lease on the real Redis)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from core.models import CollectingSink, ConversationKey, Reply, utcnow
from core.research import ResearchService, ResearchSettings, ResearchStatus, build_research_service
from core.models.research import Lease
from core.store.research_redis import RedisResearchStore
from core.store.research import update
from core.research.takeover import Takeover
from core.store.redis import RedisLocks, RedisPresence
from tests.research.conftest import DEEP_GOAL
from tests.research.fakes import FakeRepoSource

KEY = ConversationKey(platform="test", channel="C1", thread="T1")
S = ResearchStatus
DEAD = "far-away-host:4242:deadbeef"  # another machine: only its heartbeat can tell


def _service(redis_client, prefix, tmp_path, notifier=None, latency: float = 0.0) -> ResearchService:
    settings = ResearchSettings(data_dir=tmp_path, step_timeout_seconds=5.0)
    return build_research_service(settings, FakeRepoSource(latency=latency),
                                  store=RedisResearchStore(redis_client, prefix=prefix), notifier=notifier)


async def _executing_with_one_step_done(service: ResearchService, owner: str) -> str:
    plan = await service.start(DEEP_GOAL, key=KEY, requester="U1", mode=None, progress=CollectingSink())
    sid = plan.actions[0].value.split(":")[0]
    await service.orchestrator.approve(sid, 1, "U1")
    session = await service.store.get(sid)
    first = session.plan.steps[0]
    result = await service.orchestrator.executor._run_step(first, session)  # the dead one's work
    def died(s) -> None:  # type: ignore[no-untyped-def]
        s.results.append(result)
        s.lease = Lease(owner=owner, until=utcnow() + timedelta(seconds=3600))
    await update(service.store, sid, died)
    return sid


async def test_a_dead_instances_run_is_taken_over_and_finished_once(redis_client, prefix, tmp_path) -> None:
    delivered: list[tuple[ConversationKey, Reply]] = []

    async def notifier(key: ConversationKey, reply: Reply) -> None:
        delivered.append((key, reply))

    planner = _service(redis_client, prefix, tmp_path)
    sid = await _executing_with_one_step_done(planner, DEAD)
    before = (await planner.store.get(sid)).results[0]

    survivors = [_service(redis_client, prefix, tmp_path, notifier) for _ in range(2)]
    presence = RedisPresence(redis_client, prefix=prefix)
    takeovers = [Takeover(s, presence=presence, locks=None, interval=0.1, heartbeat_seconds=2) for s in survivors]
    for t in takeovers:
        await t.start()
    taken = await asyncio.gather(*(t.sweep() for t in takeovers))
    assert sorted(sum(taken, [])) == [sid]  # two sweepers raced: exactly one took it
    for t in takeovers:
        await t.drain(10)
        await t.aclose()

    session = await planner.store.get(sid)
    assert session.status is S.COMPLETED and session.lease is None
    assert [r.step_id for r in session.results] == [s.step_id for s in session.plan.steps]
    assert session.results[0] == before  # the dead instance's finished step was kept, not redone
    [(key, reply)] = delivered
    assert key == KEY and "Research report" in reply.markdown


async def test_a_live_instances_run_is_left_alone(redis_client, prefix, tmp_path) -> None:
    planner = _service(redis_client, prefix, tmp_path)
    presence = RedisPresence(redis_client, prefix=prefix)
    sid = await _executing_with_one_step_done(planner, "far-away-host:77:alive")
    await presence.beat("far-away-host:77:alive", 5)
    other = Takeover(_service(redis_client, prefix, tmp_path), presence=presence, interval=0.1)
    assert await other.sweep() == []
    await presence.leave("far-away-host:77:alive")  # it died: no heartbeat any more
    assert await other.sweep() == [sid]
    await other.drain(10)
    assert (await planner.store.get(sid)).status is S.COMPLETED
    await other.aclose()


async def test_background_sweep_one_instance_per_interval(redis_client, prefix, tmp_path) -> None:
    planner = _service(redis_client, prefix, tmp_path)
    sid = await _executing_with_one_step_done(planner, DEAD)
    presence, locks = RedisPresence(redis_client, prefix=prefix), RedisLocks(redis_client, prefix=prefix)
    takeovers = [Takeover(_service(redis_client, prefix, tmp_path), presence=presence, locks=locks,
                          interval=0.1, heartbeat_seconds=2) for _ in range(3)]
    for t in takeovers:
        await t.start(sweep=True)
        assert await presence.alive(t.owner)  # the heartbeat starts with the instance
    for _ in range(100):
        if (await planner.store.get(sid)).status is S.COMPLETED:
            break
        await asyncio.sleep(0.05)
    assert (await planner.store.get(sid)).status is S.COMPLETED
    assert sum(len(t.taken) for t in takeovers) == 1
    for t in takeovers:
        await t.aclose()
        assert not await presence.alive(t.owner)  # a clean shutdown leaves at once


async def test_shutdown_stops_a_taken_over_run_at_a_checkpoint(redis_client, prefix, tmp_path) -> None:
    planner = _service(redis_client, prefix, tmp_path)
    sid = await _executing_with_one_step_done(planner, DEAD)
    presence = RedisPresence(redis_client, prefix=prefix)
    slow = Takeover(_service(redis_client, prefix, tmp_path, latency=0.3), presence=presence, interval=0.1)
    assert await slow.sweep() == [sid]
    await asyncio.sleep(0.2)
    assert await slow.drain(0.0) == 1  # no grace: stopped mid-step
    session = await planner.store.get(sid)
    assert session.status is S.EXECUTING and session.lease is None  # released for the next one
    assert session.results[0].step_id == session.plan.steps[0].step_id
    finisher = Takeover(_service(redis_client, prefix, tmp_path), presence=presence, interval=0.1)
    assert await finisher.sweep() == [sid]
    await finisher.drain(10)
    done = await planner.store.get(sid)
    assert done.status is S.COMPLETED
    assert [r.step_id for r in done.results] == [s.step_id for s in done.plan.steps]
    await slow.aclose()
    await finisher.aclose()


async def test_a_start_up_resume_racing_a_sweep_in_one_process_runs_it_once(redis_client, prefix, tmp_path) -> None:
    """The lease cannot tell two runs of one owner apart; the executor's own registry can."""
    planner = _service(redis_client, prefix, tmp_path)
    racing_sid = await _executing_with_one_step_done(planner, DEAD)
    control_sid = await _executing_with_one_step_done(planner, DEAD)
    for sid in (racing_sid, control_sid):
        await update(planner.store, sid, lambda s: setattr(s, "lease", None))  # released at a shutdown

    settings = ResearchSettings(data_dir=tmp_path, step_timeout_seconds=5.0)
    control_source = FakeRepoSource(latency=0.02)
    control = build_research_service(settings, control_source, store=RedisResearchStore(redis_client, prefix=prefix))
    await update(planner.store, racing_sid, lambda s: setattr(s, "status", S.CANCELLED))  # hide it
    await control.resume_incomplete(wait=True)  # the control session, resumed once, alone
    await update(planner.store, racing_sid, lambda s: setattr(s, "status", S.EXECUTING))

    source = FakeRepoSource(latency=0.02)
    service = build_research_service(settings, source, store=RedisResearchStore(redis_client, prefix=prefix))
    takeover = Takeover(service, presence=RedisPresence(redis_client, prefix=prefix), interval=0.1)
    await asyncio.gather(service.resume_incomplete(wait=True), takeover.sweep(), takeover.sweep())
    await takeover.drain(10)
    await takeover.aclose()

    done = await planner.store.get(racing_sid)
    assert done.status is S.COMPLETED
    assert [r.step_id for r in done.results] == [s.step_id for s in done.plan.steps]
    assert sorted(source.calls) == sorted(control_source.calls)  # no step's work was repeated
