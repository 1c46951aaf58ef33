"""Slack as an AI app: assistant threads through the real bolt app and signed requests, against
the fake Web API (which validates the assistant methods and streamed messages)."""

from __future__ import annotations

import logging

import pytest

from bot.slack.assistant import LOADING_MESSAGES, PROMPTS_TITLE, SUGGESTED_PROMPTS
from tests.slack.conftest import SlackHarness

DM = "D9"
THREAD = "1700000000.000900"
CONTEXT = {"channel_id": "C1", "team_id": "T1", "enterprise_id": None}


async def start_thread(slack: SlackHarness) -> None:
    await slack.event({
        "type": "assistant_thread_started",
        "assistant_thread": {"user_id": "UALICE", "context": CONTEXT, "channel_id": DM, "thread_ts": THREAD},
        "event_ts": slack.next_ts(),
    })
    await slack.settle()


async def test_a_new_assistant_thread_gets_suggested_prompts(slack: SlackHarness):
    await start_thread(slack)
    [call] = slack.fake.calls_to("assistant.threads.setSuggestedPrompts")
    assert call.args["channel_id"] == DM and call.args["thread_ts"] == THREAD
    assert call.args["prompts"] == SUGGESTED_PROMPTS and call.args["title"] == PROMPTS_TITLE


async def test_a_question_gets_a_title_a_status_and_a_streamed_answer(slack: SlackHarness):
    await start_thread(slack)
    await slack.say("find react state management", channel=DM, channel_type="im", thread_ts=THREAD)
    await slack.settle()

    [title] = slack.fake.calls_to("assistant.threads.setTitle")
    assert title.args["title"] == "find react state management"
    statuses = slack.fake.calls_to("assistant.threads.setStatus")
    assert statuses[0].args["status"] == "is thinking…"
    assert statuses[0].args["loading_messages"] == LOADING_MESSAGES
    assert slack.fake.calls_to("chat.postMessage") == []  # no status message: Slack shows the status

    [start] = slack.fake.calls_to("chat.startStream")
    assert start.args["thread_ts"] == THREAD
    [stop] = slack.fake.calls_to("chat.stopStream")
    assert slack.fake.violations == []
    [answer] = slack.bot_messages(DM, THREAD)
    assert answer.text.startswith("Found 2 repositories.")
    assert "[pmndrs/zustand](https://github.com/pmndrs/zustand)" in answer.text  # streamed Markdown
    kinds = [b["type"] for b in stop.args["blocks"]]
    assert kinds == ["actions", "context_actions"]  # the suggestion, then thumbs up / down

    await slack.say("and another thing", channel=DM, channel_type="im", thread_ts=THREAD)
    await slack.settle()
    assert len(slack.fake.calls_to("assistant.threads.setTitle")) == 1  # named once, by the first


async def test_the_thread_context_is_kept_when_the_user_switches_channels(slack: SlackHarness):
    await start_thread(slack)
    await slack.event({
        "type": "assistant_thread_context_changed",
        "assistant_thread": {"user_id": "UALICE", "channel_id": DM, "thread_ts": THREAD,
                             "context": {"channel_id": "C2", "team_id": "T1"}},
        "event_ts": slack.next_ts(),
    })
    await slack.settle()
    assistant = slack.backend.assistant
    found = await assistant.contexts.find(channel_id=DM, thread_ts=THREAD)
    assert found is not None and found.channel_id == "C2"


async def test_feedback_buttons_on_a_streamed_answer_are_logged_with_the_classification(
    slack: SlackHarness, caplog: pytest.LogCaptureFixture
):
    await start_thread(slack)
    await slack.say("find react state", channel=DM, channel_type="im", thread_ts=THREAD)
    await slack.settle()
    [answer] = slack.bot_messages(DM, THREAD)
    with caplog.at_level(logging.INFO, logger="omg.slack"):
        await slack.feedback(answer, good=True, user="UALICE")
        await slack.settle()
    [record] = [r for r in caplog.records if r.getMessage() == "answer feedback"]
    assert record.verdict == "helpful" and record.classification["intent"] == "search"


async def test_where_slack_refuses_to_stream_the_answer_is_posted(slack: SlackHarness):
    await start_thread(slack)
    slack.fake.fail("chat.startStream", "not_allowed_token_type")
    await slack.say("hello", channel=DM, channel_type="im", thread_ts=THREAD)
    await slack.settle()
    [answer] = slack.bot_messages(DM, THREAD)
    assert answer.text == "You said: hello (turn 1)"
    assert any(b["type"] == "context_actions" for b in answer.blocks)
