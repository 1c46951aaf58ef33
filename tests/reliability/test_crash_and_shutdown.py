"""Faults while a Deep Probe runs: ``kill -9`` of the executing instance, and a SIGTERM.

The bots use "live" GitHub -- the fake GitHub on loopback, answering every call after 0.15 s
(configuration, not patching) -- so a plan takes several seconds and a fault lands mid-plan.
Either way another instance finishes the run from the last finished step: every step result
exactly once, the ones finished before the fault untouched, one report in the thread.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.fakes.github import FakeGitHub
from tests.reliability.conftest import Cluster, eventually, open_cluster
from tests.reliability.procs import BotProcess
from tests.reliability.slack_client import buttons, next_ts
from tests.reliability.test_two_instances import reports, research_plan

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def slow_cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    async with FakeGitHub(latency=0.15, search_budget=100_000, core_budget=1_000_000) as github:
        env = github.env(OMG_GITHUB="live", OMG_SHUTDOWN_GRACE="4")
        async with open_cluster(tmp_path_factory.mktemp("slow"), **env) as cluster:
            cluster.extras["github"] = github
            yield cluster


def stored(cluster: Cluster, session_id: str) -> dict:
    raw = cluster.redis.hget(f"{cluster.prefix}research:s:{session_id}", "d")
    return json.loads(raw) if raw else {}


async def approve_and_wait_for_a_checkpoint(
    cluster: Cluster, executor: BotProcess, user: str, goal: str
) -> tuple[str, str, list]:
    planner = next(b for b in cluster.bots if b.alive() and b is not executor)  # plan on one, run on another
    thread_ts, plan, approve = await research_plan(cluster, user, via=planner, goal=goal)
    session_id = approve["value"].split(":")[0]
    assert (await cluster.slack.click(executor.url, plan, approve, user=user))[0] == 200
    steps = len((await eventually(lambda: stored(cluster, session_id).get("plans")))[-1]["steps"])
    done = await eventually(lambda: 1 <= len(stored(cluster, session_id).get("results", [])) < steps
                            and stored(cluster, session_id)["results"], timeout=60, every=0.01)
    return thread_ts, session_id, done


def assert_finished_once(cluster: Cluster, session_id: str, before: list) -> dict:
    session = stored(cluster, session_id)
    assert session["status"] == "COMPLETED", session["status"]
    steps = [s["stepId"] for s in session["plans"][-1]["steps"]]
    assert [r["stepId"] for r in session["results"]] == steps  # none lost, none twice
    assert session["results"][: len(before)] == before  # finished before the fault: kept as they were
    assert [d["kind"] for d in session["decisions"]] == ["approve"]
    return session


async def test_kill_9_of_the_executing_instance_mid_plan(slow_cluster: Cluster) -> None:
    cluster = slow_cluster
    victim = cluster.a
    thread_ts, session_id, before = await approve_and_wait_for_a_checkpoint(
        cluster, victim, "UDAVE", "Should our team migrate from Redux to Zustand for a large React app?")
    victim.kill()  # SIGKILL: no clean-up, the lease stays behind
    assert stored(cluster, session_id)["status"] == "EXECUTING"
    await cluster.start_bot("restarted")  # "start another"; the live instance B may also take it
    await eventually(lambda: stored(cluster, session_id).get("status") == "COMPLETED", timeout=90)
    session = assert_finished_once(cluster, session_id, before)
    assert session.get("lease") is None
    await eventually(lambda: reports(cluster, thread_ts), timeout=20)  # delivered by the taker
    await asyncio.sleep(1.0)
    assert len(reports(cluster, thread_ts)) == 1
    takers = [b.name for b in cluster.bots if b is not victim and (
        "taking over an orphaned research run" in b.log_text() or "resuming research" in b.log_text())]
    assert len(takers) >= 1, "nobody took the run over"


async def test_sigterm_finishes_answers_and_checkpoints_research(slow_cluster: Cluster) -> None:
    cluster = slow_cluster
    live = [b for b in cluster.bots if b.alive()]
    leaving, staying = live[0], live[1]
    github: FakeGitHub = cluster.extras["github"]
    slow = github.slow("django|fastapi|flask", 2.5, times=None)  # this plan outlasts the 4 s grace
    thread_ts, session_id, before = await approve_and_wait_for_a_checkpoint(
        cluster, leaving, "UERIN", "Should we adopt FastAPI or stay with Django for our Python web services?")
    chat_ts = next_ts()
    await cluster.slack.mention(leaving.url, "find rust http client libraries", ts=chat_ts)
    await asyncio.sleep(0.2)  # the answer is in flight
    started = time.monotonic()
    code = await leaving.stop(timeout=30)  # SIGTERM
    took = time.monotonic() - started
    assert code == 0 and took < 15, (code, took, leaving.tail())
    assert cluster.answers(chat_ts), "the answer in flight was not finished before exiting"
    assert "shutting down: finishing work in flight" in leaving.log_text()
    after_stop = stored(cluster, session_id)
    assert after_stop["status"] == "EXECUTING"  # too long for the grace: stopped at a checkpoint...
    assert after_stop["results"][: len(before)] == before
    lease = after_stop.get("lease")  # ...with its lease released: another instance took it at once
    assert lease is None or f":{leaving.pid}:" not in lease["owner"]
    released = f'"session_id": "{session_id}", "previous_owner": "none"'
    await eventually(lambda: any(released in b.log_text() for b in cluster.bots if b.alive()), timeout=10)
    github.faults.remove(slow)
    await eventually(lambda: stored(cluster, session_id).get("status") == "COMPLETED", timeout=90)
    assert_finished_once(cluster, session_id, before)
    await eventually(lambda: reports(cluster, thread_ts), timeout=20)
    assert staying.alive()
    assert not any(buttons(m) and "omg:approve" in json.dumps(buttons(m)) for m in reports(cluster, thread_ts))
