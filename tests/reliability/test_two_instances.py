"""Two bot processes behind one "load balancer": Slack requests land on either instance.

A thread started on A continues on B (suggestion click, typed follow-up, research approval);
the same event delivered to both is answered once; 20 racing approval clicks approve once.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.reliability.conftest import Cluster, eventually
from tests.reliability.procs import BotProcess
from tests.reliability.slack_client import SlackSender, buttons, next_ts

pytestmark = pytest.mark.asyncio(loop_scope="module")
GOAL = "Should our team migrate from Redux to Zustand for a large React app?"


def session(cluster: Cluster, session_id: str) -> dict:
    raw = cluster.redis.hget(f"{cluster.prefix}research:s:{session_id}", "d")
    return json.loads(raw) if raw else {}


async def research_plan(cluster: Cluster, user: str, via: BotProcess | None = None,
                        goal: str = GOAL) -> tuple[str, object, dict]:
    """``/research <goal> --deep`` on ``via`` (default A); returns (thread ts, plan, approve button)."""
    url = (via or cluster.a).url
    status, _ = await cluster.slack.command(url, "/research", f"{goal} --deep", user=user)
    assert status == 200
    opened = await eventually(lambda: [m for m in cluster.fake.messages.values()
                                       if m.thread_ts is None and f"<@{user}> started research" in m.text])
    thread_ts = opened[0].ts

    def plan_message():  # type: ignore[no-untyped-def]
        return next((m for m in cluster.bot_messages(thread_ts)
                     if any(b["action_id"].startswith("omg:approve") for b in buttons(m))), None)

    plan = await eventually(plan_message, timeout=30)
    approve = next(b for b in buttons(plan) if b["action_id"].startswith("omg:approve"))
    return thread_ts, plan, approve


def reports(cluster: Cluster, thread_ts: str) -> list:
    return [m for m in cluster.bot_messages(thread_ts)  # a long report continues in more messages
            if "Research report" in m.text and not m.text.startswith("(continued")]


async def test_a_thread_started_on_a_continues_on_b(cluster: Cluster) -> None:
    ts = next_ts()
    status, _ = await cluster.slack.mention(cluster.a.url, "find react state management libraries", ts=ts)
    assert status == 200
    [answer] = await eventually(lambda: cluster.answers(ts), timeout=30)
    suggestion = next(b for b in buttons(answer)
                      if b["action_id"].startswith("omg:suggestion") and b["value"].startswith("Analyze "))
    repo = suggestion["value"].removeprefix("Analyze ").strip()

    assert (await cluster.slack.click(cluster.b.url, answer, suggestion))[0] == 200  # lands on B
    answers = await eventually(lambda: len(cluster.answers(ts)) == 2 and cluster.answers(ts), timeout=30)
    assert repo in answers[1].text
    assert any("chose" in m.text and repo in m.text for m in cluster.bot_messages(ts))

    # a typed follow-up without a mention, on B: B knows the bot is in this thread (Redis)
    await cluster.slack.say(cluster.b.url, "compare the first two", thread_ts=ts)
    answers = await eventually(lambda: len(cluster.answers(ts)) == 3 and cluster.answers(ts), timeout=30)
    stored = cluster.conversation(ts)
    assert stored is not None
    users = [m.content for m in stored.messages if m.role == "user"]
    assert users == ["find react state management libraries", suggestion["value"], "compare the first two"]
    assert "B handled" not in answers[2].text  # (sanity: a real answer, not an echo)


async def test_research_planned_on_a_is_approved_and_run_on_b(cluster: Cluster) -> None:
    thread_ts, plan, approve = await research_plan(cluster, "UBOB")
    session_id = approve["value"].split(":")[0]
    assert session(cluster, session_id)["status"] == "REVIEW_PENDING"
    assert (await cluster.slack.click(cluster.b.url, plan, approve, user="UBOB"))[0] == 200
    [report] = await eventually(lambda: reports(cluster, thread_ts), timeout=45)
    stored = session(cluster, session_id)
    assert stored["status"] == "COMPLETED"
    assert [d["kind"] for d in stored["decisions"]] == ["approve"]
    steps = [s["stepId"] for s in stored["plans"][-1]["steps"]]
    assert [r["stepId"] for r in stored["results"]] == steps  # every step once, in order
    assert GOAL.split()[3] in report.text or "Redux" in report.text


async def test_the_same_event_on_both_instances_is_answered_once(cluster: Cluster) -> None:
    ts = next_ts()
    event = SlackSender.mention_event("find python web frameworks", ts=ts)
    twin = {**event, "type": "message", "channel_type": "channel"}  # Slack sends both
    sent = await asyncio.gather(
        cluster.slack.event(cluster.a.url, event, event_id=f"EvSame{ts}"),
        cluster.slack.event(cluster.b.url, event, event_id=f"EvSame{ts}"),
        cluster.slack.event(cluster.b.url, twin, event_id=f"EvTwin{ts}"),
    )
    assert [status for status, _ in sent] == [200, 200, 200]
    await eventually(lambda: cluster.answers(ts), timeout=30)
    retried = await cluster.slack.event(cluster.a.url, event, event_id=f"EvSame{ts}", retry_num=1)
    assert retried[0] == 200
    await asyncio.sleep(1.5)  # time for any duplicate to show up
    assert len(cluster.answers(ts)) == 1
    assert len(cluster.bot_messages(ts)) == 1  # no stray status message either
    stored = cluster.conversation(ts)
    assert stored is not None and [m.role for m in stored.messages] == ["user", "assistant"]


async def test_twenty_concurrent_approval_clicks_approve_once(cluster: Cluster) -> None:
    thread_ts, plan, approve = await research_plan(cluster, "UCAROL")
    session_id = approve["value"].split(":")[0]
    ephemerals_before = len(cluster.fake.calls_to("chat.postEphemeral"))
    clicks = [cluster.slack.click((cluster.a if n % 2 else cluster.b).url, plan, approve, user="UCAROL")
              for n in range(20)]
    assert [status for status, _ in await asyncio.gather(*clicks)] == [200] * 20
    await eventually(lambda: reports(cluster, thread_ts), timeout=45)

    def refused() -> int:
        calls = cluster.fake.calls_to("chat.postEphemeral")[ephemerals_before:]
        return len([c for c in calls if c.args.get("user") == "UCAROL"])

    await eventually(lambda: refused() == 19, timeout=20)
    await asyncio.sleep(1.0)
    stored = session(cluster, session_id)
    assert [d["kind"] for d in stored["decisions"]] == ["approve"]  # exactly one approval
    assert stored["status"] == "COMPLETED"
    assert len(reports(cluster, thread_ts)) == 1  # and one run, one report
    assert refused() == 19
    # the plan message was posted (edited in) by A and marked decided by B: the shared edit
    # bucket kept every message's edits apart across instances (OMG_SLACK_EDIT_INTERVAL=0.2)
    plan_edits = cluster.fake.update_times().get((plan.channel, plan.ts), [])
    assert len(plan_edits) >= 2
    gap = cluster.fake.min_update_gap()
    assert gap is not None and gap >= 0.15, gap


async def test_two_hundred_simultaneous_conversations(cluster: Cluster) -> None:
    """200 mentions at once, spread over both instances: each answered once, in its own thread."""
    from tests.reliability.load import run_load

    result = await run_load(cluster, 200, timeout=90)
    assert result.missing == [], f"{len(result.missing)} conversations got no answer"
    assert result.cross_talk == []
    assert result.answered == 200 and len(result.latencies) == 200
    assert all(bot.alive() for bot in cluster.bots)
