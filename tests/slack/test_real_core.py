"""The whole bot behind the fake Slack Web API: ``build_app`` with the offline catalog and the
real classifier, agents, synthesizer and research service (no network, no LLM)."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.app import build_app
from bot.slack import SlackBackend
from core.errors import NotAllowed
from tests.fakes.slack_api import BOT_USER, FakeSlackApi, StoredMessage
from tests.slack.conftest import SlackHarness, slack_settings, stop_harness


def actions_of(message: StoredMessage) -> list[str]:
    return [e["text"]["text"] for b in message.blocks if b["type"] == "actions" for e in b["elements"]]


def last_with_buttons(slack: SlackHarness, channel: str, thread: str) -> StoredMessage:
    return copy.deepcopy(next(m for m in reversed(slack.bot_messages(channel, thread)) if actions_of(m)))


def notes(slack: SlackHarness) -> list[str]:
    return [json.dumps(c.args.get("blocks")) + c.args.get("text", "")
            for c in slack.fake.calls_to("chat.postEphemeral")]


@pytest.fixture
async def real_slack(tmp_path: Path) -> AsyncIterator[SlackHarness]:
    app = await build_app(env={"OMG_GITHUB": "offline", "LLM_PROVIDER": "none",
                               "OMG_DATA_DIR": str(tmp_path)}, memory=True)
    fake = FakeSlackApi()
    await fake.start()
    backend = SlackBackend(app.ports, settings=slack_settings(fake))
    await backend.start()
    harness = SlackHarness(fake, app, backend, aiohttp.ClientSession())
    try:
        yield harness
    finally:
        await stop_harness(harness)
        await app.aclose()


async def test_mention_follow_up_and_suggestion_click(real_slack: SlackHarness) -> None:
    slack = real_slack
    ts = await slack.mention("find react state management libraries")
    await slack.settle()
    replies = slack.bot_messages("C1", ts)
    assert len(replies) == 1, [m.text for m in replies]  # the status made way for the answer
    assert slack.fake.calls_to("chat.stopStream") and slack.fake.violations == []
    answer = replies[0]
    assert answer.streamed and "github.com" in answer.text and actions_of(answer)

    await slack.say("which one is the most popular?", thread_ts=ts)  # no mention needed
    await slack.settle()
    assert len(slack.bot_messages("C1", ts)) == 2

    answer = last_with_buttons(slack, "C1", ts)
    suggestion = next(label for label in actions_of(answer)
                      if not any(w in label.lower() for w in ("helpful", "wrong")))
    await slack.click(answer, suggestion, user="UBOB")
    await slack.settle()
    texts = slack.texts("C1", ts)
    assert any("<@UBOB> chose" in t for t in texts)
    assert len(slack.bot_messages("C1", ts)) >= 4  # the choice line and its answer


async def test_deep_research_approval_refusal_and_stale_click(real_slack: SlackHarness) -> None:
    slack = real_slack
    sent = await slack.command("/research", "compare python web frameworks for a small team --deep")
    assert sent.status == 200
    await slack.settle()
    [top] = [c for c in slack.fake.calls_to("chat.postMessage") if not c.args.get("thread_ts")]
    thread = next(m.ts for m in slack.fake.messages.values() if m.text == top.args["text"])
    plan = last_with_buttons(slack, "C1", thread)
    assert [label for label in actions_of(plan) if label in ("Approve", "Revise", "Cancel")] == [
        "Approve", "Revise", "Cancel"], actions_of(plan)

    await slack.click(plan, "Approve", user="UBOB")
    await slack.settle()
    assert len(notes(slack)) == 1 and NotAllowed().user_message in notes(slack)[0]
    [note] = slack.fake.calls_to("chat.postEphemeral")
    assert note.args["user"] == "UBOB"
    assert actions_of(slack.fake.messages[("C1", plan.ts)])  # still waiting for its requester

    await slack.click(plan, "Approve", user="UALICE")
    await slack.settle()
    decided = slack.fake.messages[("C1", plan.ts)]
    assert not any(b["type"] == "actions" for b in decided.blocks)
    report = slack.bot_messages("C1", thread)[-1]
    assert report.ts != plan.ts and "report" in json.dumps(report.blocks).lower()

    await slack.click(plan, "Approve", user="UALICE")  # a client still showing the old plan
    await slack.settle()
    assert len(notes(slack)) == 2 and "already completed" in notes(slack)[1]
    assert all(m.user == BOT_USER for m in slack.bot_messages("C1", thread))


async def test_revise_in_the_thread_makes_the_old_plan_stale(real_slack: SlackHarness) -> None:
    slack = real_slack
    await slack.command("/research", "compare python web frameworks for a small team --deep")
    await slack.settle()
    [top] = [c for c in slack.fake.calls_to("chat.postMessage") if not c.args.get("thread_ts")]
    thread = next(m.ts for m in slack.fake.messages.values() if m.text == top.args["text"])
    plan = last_with_buttons(slack, "C1", thread)
    await slack.click(plan, "Revise", user="UALICE")
    await slack.settle()
    assert "What should change" in slack.texts("C1", thread)[-1]
    await slack.say("only frameworks with async support", thread_ts=thread)
    await slack.settle()
    new_plan = last_with_buttons(slack, "C1", thread)
    assert new_plan.ts != plan.ts and "Approve" in actions_of(new_plan)
    await slack.click(plan, "Approve", user="UALICE")  # the first plan's button
    await slack.settle()
    [note] = notes(slack)
    assert "revision 1" in note and "revision 2" in note


async def test_a_streamed_comparison_ends_with_its_table_block(real_slack: SlackHarness) -> None:
    slack = real_slack
    ts = await slack.mention("compare pmndrs/zustand and pmndrs/jotai")
    await slack.settle()
    [stop] = slack.fake.calls_to("chat.stopStream")
    kinds = [b["type"] for b in stop.args["blocks"]]
    assert "table" in kinds and kinds.index("table") < kinds.index("context_actions")
    [answer] = slack.bot_messages("C1", ts)
    assert answer.streamed and "|---" not in answer.text  # the table is a block, not Markdown
    assert slack.fake.violations == []
