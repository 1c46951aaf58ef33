"""RedisResearchStore on the real Redis: the ResearchStore contract (compare-and-swap, update
retries, hostile ids, listing, feedback waits: the suite in ``tests/research/test_store.py``), what
only Redis does (expiry, unreadable hashes, racing instances), and a plan made on one instance
approved and run on another."""

from __future__ import annotations

import asyncio

import pytest

from core.errors import InvalidId, SessionNotFound, StaleAction
from core.models import ActionClick, ActionKind, CollectingSink, ConversationKey
from core.research import ResearchSettings, ResearchStatus, build_research_service
from core.models.research import Decision, ResearchSession
from core.store.research_redis import RedisResearchStore
from core.research.states import transition
from core.store.research import new_session_id, update
from tests.research.conftest import DEEP_GOAL
from tests.research.fakes import FakeRepoSource
from tests.research.test_store import (  # noqa: F401 - the ResearchStore contract, run on Redis
    test_feedback_wait_markers,
    test_hostile_ids_are_refused,
    test_list_filters_by_status,
    test_save_checks_the_expected_version,
    test_update_retries_on_conflict_and_never_loses_a_change,
)

KEY = ConversationKey(platform="test", channel="C1", thread="T1")
S = ResearchStatus


@pytest.fixture
def store(redis_client, prefix) -> RedisResearchStore:  # type: ignore[no-untyped-def]
    return RedisResearchStore(redis_client, prefix=prefix)


def _session() -> ResearchSession:
    return ResearchSession(id=new_session_id(), query="goal", requester="U1", key=KEY)


async def test_unknown_and_hostile_ids(redis_client, prefix) -> None:
    store = RedisResearchStore(redis_client, prefix=prefix)
    with pytest.raises(SessionNotFound):
        await store.get(new_session_id())
    for bad in ("../../etc/passwd", "x" * 300, "", "11111111-2222-4333-8444-55555555555Z"):
        with pytest.raises(InvalidId):
            await store.get(bad)
    await redis_client.hset(f"{prefix}research:s:{(sid := new_session_id())}", mapping={"v": 1, "d": "{not json"})
    with pytest.raises(SessionNotFound):  # unreadable: reported as missing, never a crash
        await store.get(sid)


async def test_listing_follows_status_and_expiry(redis_client, prefix) -> None:
    store = RedisResearchStore(redis_client, prefix=prefix, retention_seconds=60)
    running, done = _session(), _session()
    for session in (running, done):
        transition(session, S.ANALYZING)
        await store.save(session, expected_version=0)
    transition(done, S.CANCELLED)
    await store.save(done, expected_version=1)
    assert [s.id for s in await store.list_sessions({S.ANALYZING})] == [running.id]
    assert [s.id for s in await store.list_sessions({S.CANCELLED})] == [done.id]
    assert {s.id for s in await store.list_sessions()} == {running.id, done.id}
    assert await redis_client.ttl(f"{prefix}research:s:{done.id}") > 0  # finished: expires
    assert await redis_client.ttl(f"{prefix}research:s:{running.id}") == -1  # active: kept
    await redis_client.delete(f"{prefix}research:s:{done.id}")  # as if it expired
    assert [s.id for s in await store.list_sessions()] == [running.id]
    assert await redis_client.zcard(f"{prefix}research:all") == 1  # the index forgot it too


async def test_twenty_racing_approvals_apply_exactly_once(redis_client, prefix) -> None:
    """Four "instances" (stores on their own connections) approve one session 20 times at once."""
    stores = [RedisResearchStore(redis_client, prefix=prefix) for _ in range(4)]
    session = _session()
    await stores[0].save(session, expected_version=0)

    def approve(user: str):  # type: ignore[no-untyped-def]
        def change(s: ResearchSession) -> None:
            if any(d.kind == "approve" for d in s.decisions):
                raise StaleAction()
            s.decisions.append(Decision(kind="approve", user=user, plan_version=1))
        return change

    outcomes = await asyncio.gather(
        *(update(stores[n % 4], session.id, approve(f"U{n}"), attempts=30) for n in range(20)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, ResearchSession) for o in outcomes) == 1
    assert all(isinstance(o, (ResearchSession, StaleAction)) for o in outcomes), outcomes
    stored = await stores[1].get(session.id)
    assert len(stored.decisions) == 1 and stored.version == 2


async def test_planned_on_a_approved_and_run_on_b(redis_client, prefix, tmp_path) -> None:
    settings = ResearchSettings(data_dir=tmp_path, step_timeout_seconds=5.0)
    a = build_research_service(settings, FakeRepoSource(), store=RedisResearchStore(redis_client, prefix=prefix))
    b = build_research_service(settings, FakeRepoSource(), store=RedisResearchStore(redis_client, prefix=prefix))
    plan = await a.start(DEEP_GOAL, key=KEY, requester="U1", mode=None, progress=CollectingSink())
    assert plan.error is None and len(plan.actions) == 3, plan.markdown
    approve = next(x for x in plan.actions if x.kind is ActionKind.APPROVE)
    click = ActionClick(key=KEY, kind=ActionKind.APPROVE, value=approve.value, user="U1")
    report = await b.decide(click, CollectingSink())
    assert report.error is None and "Research report" in report.markdown
    again = await a.decide(click, CollectingSink())  # the same plan, approved again on A
    assert again.error == "stale"
    session = await a.store.get(approve.value.split(":")[0])
    assert session.status is S.COMPLETED
    assert [r.step_id for r in session.results] == [s.step_id for s in session.plan.steps]
    assert session.lease is None
