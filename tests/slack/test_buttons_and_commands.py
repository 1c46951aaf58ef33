"""Buttons (suggestions, plan decisions, feedback) and slash commands, through signed requests."""

from __future__ import annotations

import asyncio

import copy
import json
import logging

import pytest

from core.models import ConversationKey
from tests.fakes.slack_api import BOT_USER, StoredMessage
from tests.slack.conftest import SlackHarness


def with_buttons(slack: SlackHarness, channel: str, thread: str) -> StoredMessage:
    return next(m for m in reversed(slack.bot_messages(channel, thread))
                if any(b["type"] == "actions" for b in m.blocks))


async def test_a_suggestion_click_continues_the_thread_as_the_clicker(slack: SlackHarness):
    ts = await slack.mention("find react state")
    await slack.settle()
    sent = await slack.click(with_buttons(slack, "C1", ts), "compare the first two", user="UBOB")
    assert sent.status == 200
    await slack.settle()
    texts = slack.texts("C1", ts)
    assert "<@UBOB> chose: *compare the first two*" in texts[1]
    assert "You said: compare the first two (turn 2)" in texts[2]
    key = ConversationKey(platform="slack", team="T1", channel="C1", thread=ts)
    conversation = await slack.app.store.get(key.conversation_id)
    assert conversation is not None and conversation.messages[-2].author == "UBOB"


async def test_a_double_clicked_suggestion_is_answered_once(slack: SlackHarness):
    ts = await slack.mention("find react state")
    await slack.settle()
    answer = with_buttons(slack, "C1", ts)
    first, second = await asyncio.gather(slack.click(answer, "compare the first two", user="UBOB"),
                                          slack.click(answer, "compare the first two", user="UBOB"))
    assert first.status == second.status == 200  # two deliveries, two action_ts
    await slack.settle()
    texts = slack.texts("C1", ts)
    assert sum("chose: *compare the first two*" in t for t in texts) == 1
    assert sum("You said: compare the first two" in t for t in texts) == 1
    await slack.click(answer, "compare the first two", user="UCAROL")  # someone else: answered
    await slack.settle()
    assert sum("You said: compare the first two" in t for t in slack.texts("C1", ts)) == 2


async def start_research(
    slack: SlackHarness, goal: str = "state libraries --deep"
) -> tuple[str, StoredMessage]:
    sent = await slack.command("/research", goal)
    assert sent.status == 200 and sent.text == ""
    await slack.settle()
    [top] = [c for c in slack.fake.calls_to("chat.postMessage") if not c.args.get("thread_ts")]
    assert "<@UALICE> started research: *state libraries --deep*" in json.dumps(top.args["blocks"])
    thread = next(m.ts for m in slack.fake.messages.values() if m.text == top.args["text"])
    plan = copy.deepcopy(with_buttons(slack, "C1", thread))  # as the clicker's client shows it
    assert "mode: deep_probe" in json.dumps(plan.blocks)
    return thread, plan


async def test_the_requester_approves_a_plan(slack: SlackHarness):
    thread, plan = await start_research(slack)
    await slack.click(plan, "Approve", user="UALICE")
    await slack.settle()
    decided = slack.fake.messages[("C1", plan.ts)]
    assert not any(b["type"] == "actions" for b in decided.blocks)
    assert "Approved by <@UALICE>" in json.dumps(decided.blocks)
    assert "## Report" in slack.texts("C1", thread)[-1]
    assert slack.fake.calls_to("chat.postEphemeral") == []


async def test_someone_else_is_refused_privately_and_the_plan_stays(slack: SlackHarness):
    thread, plan = await start_research(slack)
    await slack.click(plan, "Approve", user="UBOB")
    await slack.settle()
    [note] = slack.fake.calls_to("chat.postEphemeral")
    assert note.args["user"] == "UBOB" and note.args["channel"] == "C1"
    assert "Only the person who asked" in json.dumps(note.args["blocks"])
    assert any(b["type"] == "actions" for b in slack.fake.messages[("C1", plan.ts)].blocks)
    assert len(slack.bot_messages("C1", thread)) == 2  # the label and the plan, nothing new


async def test_a_stale_click_is_refused_privately(slack: SlackHarness):
    thread, plan = await start_research(slack)
    await slack.click(plan, "Cancel", user="UALICE")
    await slack.settle()
    await slack.click(plan, "Approve", user="UALICE")  # the old plan message, clicked again
    await slack.settle()
    [note] = slack.fake.calls_to("chat.postEphemeral")
    assert "out of date" in json.dumps(note.args["blocks"])
    assert slack.app.service.research.decisions == [("UALICE", "cancel")]


async def test_feedback_is_logged_with_the_classification(
    slack: SlackHarness, caplog: pytest.LogCaptureFixture
):
    ts = await slack.mention("find react state")
    await slack.settle()
    with caplog.at_level(logging.INFO, logger="omg.slack"):
        await slack.feedback(with_buttons(slack, "C1", ts), good=False, user="UBOB")
        await slack.settle()
    [record] = [r for r in caplog.records if r.getMessage() == "answer feedback"]
    assert record.verdict == "wrong" and record.user == "UBOB"
    assert record.classification["intent"] == "search" and record.classification["confidence"] == 0.95
    [note] = slack.fake.calls_to("chat.postEphemeral")
    assert note.args["user"] == "UBOB"


async def test_omg_help_is_ephemeral_in_the_acknowledgement(slack: SlackHarness):
    sent = await slack.command("/omg", "help")
    body = json.loads(sent.text)
    assert body["response_type"] == "ephemeral" and "/research" in body["text"]
    await slack.settle()
    assert slack.fake.calls_to("chat.postMessage") == []


async def test_omg_asks_in_a_new_thread(slack: SlackHarness):
    sent = await slack.command("/omg", "what can you do?")
    assert sent.status == 200 and sent.text == ""
    await slack.settle()
    [top] = slack.fake.calls_to("chat.postMessage")
    assert "<@UALICE> asked: *what can you do?*" in json.dumps(top.args["blocks"])
    [answer] = slack.fake.calls_to("chat.startStream")
    thread = answer.args["thread_ts"]
    assert "You said: what can you do?" in slack.texts("C1", thread)[-1]


async def test_research_without_a_goal_shows_the_usage(slack: SlackHarness):
    body = json.loads((await slack.command("/research", "--deep")).text)
    assert body["response_type"] == "ephemeral" and "Usage" in body["text"]


async def test_a_command_in_a_channel_without_the_bot_explains_how_to_invite_it(slack: SlackHarness):
    slack.fake.fail("chat.postMessage", "not_in_channel")
    await slack.command("/omg", "hello")
    await slack.settle()
    [response] = slack.fake.responses
    assert response["response_type"] == "ephemeral" and "/invite" in response["text"]


async def test_buttons_on_answers_are_valid_and_bot_messages_are_attributed(slack: SlackHarness):
    ts = await slack.mention("find things")
    await slack.settle()
    message = with_buttons(slack, "C1", ts)
    assert message.user == BOT_USER
    ids = [e["action_id"] for b in message.blocks if b["type"] == "actions" for e in b["elements"]]
    assert ids == ["omg:suggestion:0"]
    [feedback] = [e for b in message.blocks if b["type"] == "context_actions" for e in b["elements"]]
    assert feedback["type"] == "feedback_buttons" and feedback["action_id"] == "omg:feedback:0"
