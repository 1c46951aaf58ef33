"""Resume: kill the executing process mid-plan, restart, and the session completes once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from core.models import ActionKind, CollectingSink, ConversationKey, Reply, utcnow
from core.research import ResearchSettings, ResearchStatus, build_research_service
from core.models.research import Lease
from core.research.queries import parse_query
from core.store.research import FileResearchStore, update
from core.research.service import action_value
from tests.research.conftest import click, deep_plan, session_id_of
from tests.research.fakes import FakeRepoSource

ROOT = Path(__file__).resolve().parents[2]
S = ResearchStatus


def _wait_for_checkpoints(path: Path, count: int, timeout: float = 30.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            results = json.loads(path.read_bytes()).get("results", [])
        except (FileNotFoundError, ValueError):
            results = []
        if len(results) >= count:
            return [r["stepId"] for r in results]
        time.sleep(0.02)
    raise AssertionError("the executor never reached the checkpoint")


async def test_a_killed_executor_is_resumed_by_the_next_process(tmp_path: Path) -> None:
    call_log = tmp_path / "calls.log"
    process = subprocess.Popen([sys.executable, "-m", "tests.research.run_session", str(tmp_path), str(call_log)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    session_id = process.stdout.readline().strip()
    session_file = tmp_path / "research" / f"{session_id}.json"
    finished_before = _wait_for_checkpoints(session_file, 2)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    calls_before_kill = call_log.read_text().splitlines()

    delivered: list[tuple[ConversationKey, Reply]] = []

    async def notifier(key: ConversationKey, reply: Reply) -> None:
        delivered.append((key, reply))

    settings = ResearchSettings(data_dir=tmp_path)
    restarted = build_research_service(settings, FakeRepoSource(log_path=call_log), notifier=notifier)
    assert await restarted.resume_incomplete(wait=True) == [session_id]

    session = await restarted.store.get(session_id)
    assert session.status is S.COMPLETED and session.lease is None
    steps = [s.step_id for s in session.plan.steps]  # type: ignore[union-attr]
    assert [r.step_id for r in session.results] == steps  # none lost, none twice
    assert [r.step_id for r in session.results][: len(finished_before)] == finished_before
    # The searches of the steps finished before the kill were not run again.
    counts = Counter(call_log.read_text().splitlines())
    for step in session.plan.steps:  # type: ignore[union-attr]
        if step.step_id in finished_before:
            for query in step.search_queries:
                assert counts[f"search {FakeRepoSource.describe(parse_query(query))}"] == 1, query
    assert len(call_log.read_text().splitlines()) > len(calls_before_kill)
    [(key, reply)] = delivered
    assert key == session.key and "Research report" in reply.markdown and reply.error is None
    assert await restarted.resume_incomplete(wait=True) == []  # nothing left to resume


async def test_a_live_lease_elsewhere_is_respected_until_it_expires(tmp_path: Path) -> None:
    settings = ResearchSettings(data_dir=tmp_path)
    service = build_research_service(settings, FakeRepoSource())
    plan = await deep_plan(service)
    sid = session_id_of(plan)
    await service.orchestrator.approve(sid, 1, "U1")  # EXECUTING, leased by this service's executor

    def other_instance(until_seconds: float):  # type: ignore[no-untyped-def]
        def change(s):  # type: ignore[no-untyped-def]
            s.lease = Lease(owner="other-host:4242:abcd", until=utcnow() + timedelta(seconds=until_seconds))
        return change

    await update(service.store, sid, other_instance(3600))
    second = build_research_service(settings, FakeRepoSource())
    assert await second.resume_incomplete(wait=True) == []
    assert (await second.orchestrator.execute(sid)).status is S.EXECUTING  # left alone
    await update(service.store, sid, other_instance(-1))  # the other instance stopped renewing
    assert await second.resume_incomplete(wait=True) == [sid]
    assert (await second.store.get(sid)).status is S.COMPLETED


async def test_cancel_of_an_orphaned_run_stops_it_at_once(tmp_path: Path) -> None:
    settings = ResearchSettings(data_dir=tmp_path)
    service = build_research_service(settings, FakeRepoSource())
    plan = await deep_plan(service)
    sid = session_id_of(plan)
    await service.orchestrator.approve(sid, 1, "U1")
    await update(service.store, sid, lambda s: setattr(s, "lease", None))  # its process died
    reply = await service.decide(click(plan, ActionKind.CANCEL, "U1"), progress=CollectingSink())
    assert "Nothing was run" in reply.markdown
    session = await service.store.get(sid)
    assert session.status is S.CANCELLED and session.report and action_value(session).endswith(":1")


async def test_file_store_is_used_by_default(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource())
    assert isinstance(service.store, FileResearchStore)


async def test_a_run_two_resumers_see_finish_is_reported_once(tmp_path: Path) -> None:
    """A start-up resume and a takeover (here: two services on one store) may both see a run
    finish; its report reaches the conversation once."""
    delivered: list[Reply] = []

    async def notifier(key: ConversationKey, reply: Reply) -> None:
        delivered.append(reply)

    settings = ResearchSettings(data_dir=tmp_path)
    first = build_research_service(settings, FakeRepoSource(), notifier=notifier)
    second = build_research_service(settings, FakeRepoSource(), notifier=notifier, owner="other")
    plan = await deep_plan(first)
    sid = session_id_of(plan)
    await first.orchestrator.approve(sid, 1, "U1")
    await update(first.store, sid, lambda s: setattr(s, "lease", None))  # its process died
    assert await first.resume_incomplete(wait=True) == [sid]
    done = await second.orchestrator.execute(sid)  # the second resumer finds it finished
    await second.notify_once(done, second.final_reply(done, done.key.conversation_id))
    assert done.status is S.COMPLETED and len(delivered) == 1


async def test_an_approval_whose_run_another_instance_took_over_answers_with_a_note(tmp_path: Path) -> None:
    """The instance that was clicked lost its lease before its first checkpoint (a slow step):
    the instance that took the run over posts the report, so the click's answer is a note, not
    a second, empty report."""
    settings = ResearchSettings(data_dir=tmp_path)
    service = build_research_service(settings, FakeRepoSource())
    plan = await deep_plan(service)
    sid = session_id_of(plan)
    taken = Lease(owner="other-host:4242:abcd", until=utcnow() + timedelta(seconds=3600))
    await service.orchestrator.approve(sid, 1, "U1")
    await update(service.store, sid, lambda s: setattr(s, "lease", taken))
    session = await service.orchestrator.execute(sid)
    assert session.status is S.EXECUTING
    reply = service.run_reply(session, "conv")
    assert "Research report" not in reply.markdown and "another instance" in reply.markdown
    assert service.run_reply(await service.store.get(sid), "conv").markdown == reply.markdown
