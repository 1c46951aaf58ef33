"""Threads as conversations: mentions, follow-ups without mention, DMs, retries, signatures."""

from __future__ import annotations

import json
import time

from tests.fakes.slack_api import BOT_ID, BOT_USER, TEAM
from tests.slack.conftest import SlackHarness


async def test_a_mention_gets_a_status_then_the_answer_streamed_to_the_asker(slow_slack: SlackHarness):
    ts = await slow_slack.mention("find react state management")
    await slow_slack.settle()
    [status] = slow_slack.fake.calls_to("chat.postMessage")
    assert status.args["text"] == "Searching GitHub for react state management"
    assert slow_slack.fake.calls_to("chat.update")  # the status followed the steps
    [start] = slow_slack.fake.calls_to("chat.startStream")
    assert (start.args["thread_ts"], start.args["recipient_user_id"], start.args["recipient_team_id"]) == (
        ts, "UALICE", TEAM)  # a stream in a channel names its recipient
    [stop] = slow_slack.fake.calls_to("chat.stopStream")
    assert [b["type"] for b in stop.args["blocks"]][-1] == "context_actions"
    [answer] = slow_slack.bot_messages("C1", ts)  # the status message made way for the answer
    assert answer.streamed and answer.text.startswith("Found 2 repositories")
    [deleted] = slow_slack.fake.calls_to("chat.delete")
    assert deleted.args["ts"] != answer.ts
    assert slow_slack.fake.violations == []


async def test_where_streaming_is_refused_the_status_is_replaced_by_the_answer(
    slow_slack: SlackHarness,
):
    slow_slack.refuse_streaming()
    ts = await slow_slack.mention("find react state management")
    await slow_slack.settle()
    [answer] = slow_slack.bot_messages("C1", ts)  # one message in the thread: status became answer
    assert answer.thread_ts == ts
    edits = [c.args for c in slow_slack.fake.calls_to("chat.update") if c.args["ts"] == answer.ts]
    statuses = [json.dumps(e["blocks"]) for e in edits[:-1]]
    assert any("Searching GitHub for react state management" in s for s in statuses)
    assert any("Scoring 2 candidates" in s for s in statuses)
    final = json.dumps(answer.blocks)
    assert "<https://github.com/pmndrs/zustand|pmndrs/zustand>" in final and "score *8.4*/10" in final
    assert answer.text.startswith("Found 2 repositories")
    assert slow_slack.fake.min_update_gap() >= 0.2 * 0.95
    posts = slow_slack.fake.calls_to("chat.postMessage")
    # answered once, not twice; the status appears with the core's first step (a duplicate
    # delivery, which the core drops, therefore shows nothing at all)
    assert [p.args["text"] for p in posts] == ["Searching GitHub for react state management"]


async def test_a_follow_up_in_the_thread_needs_no_mention(slack: SlackHarness):
    ts = await slack.mention("hello there")
    await slack.settle()
    await slack.say("and another thing", thread_ts=ts)
    await slack.settle()
    answers = slack.texts("C1", ts)
    assert len(answers) == 2
    assert "You said: and another thing (turn 2)" in answers[1]


async def test_channel_chatter_and_foreign_threads_are_ignored(slack: SlackHarness):
    await slack.say("just people talking")
    await slack.say("a reply in someone else's thread", thread_ts="1690000000.000100")
    await slack.settle()
    assert slack.fake.calls_to("chat.postMessage") == []


async def test_a_thread_the_store_forgot_is_recognised_from_its_history(slack: SlackHarness):
    slack.fake.add_message("C1", "1690000000.000100", f"<@{BOT_USER}> old question")
    slack.fake.add_message("C1", "1690000000.000200", "old answer", user=BOT_USER,
                           thread_ts="1690000000.000100")
    await slack.say("still there?", thread_ts="1690000000.000100")
    await slack.settle()
    assert slack.fake.calls_to("conversations.replies")
    assert "You said: still there?" in slack.texts("C1", "1690000000.000100")[-1]


async def test_a_dm_is_a_conversation_per_thread(slack: SlackHarness):
    first = await slack.say("hi bot", channel="D1", channel_type="im")
    assert first.status == 200
    await slack.settle()
    [start] = slack.fake.calls_to("chat.startStream")
    thread = start.args["thread_ts"]
    await slack.say("more please", channel="D1", channel_type="im", thread_ts=thread)
    await slack.settle()
    answers = [m.text for m in slack.bot_messages("D1", thread)]
    assert answers == ["You said: hi bot (turn 1)", "You said: more please (turn 2)"]


async def test_a_retried_event_is_answered_once_and_slack_is_told_to_stop(slack: SlackHarness):
    event = {"type": "message", "user": "UALICE", "text": "hello", "ts": slack.next_ts(),
             "channel": "D1", "channel_type": "im", "team": "T1"}
    first = await slack.event(event, event_id="EvSAME")
    retry = await slack.event(event, event_id="EvSAME", retry_num=1)
    again = await slack.event(event, event_id="EvSAME", retry_num=2)
    await slack.settle()
    assert first.status == retry.status == again.status == 200
    assert retry.headers.get("X-Slack-No-Retry") == "1"
    assert len(slack.texts("D1", event["ts"])) == 1


async def test_bots_edits_and_the_bot_itself_are_ignored(slack: SlackHarness):
    await slack.say("from another bot", channel="D1", channel_type="im", bot_id="BOTHER")
    await slack.say("from me", channel="D1", channel_type="im", user=BOT_USER, bot_id=BOT_ID)
    await slack.say("edited", channel="D1", channel_type="im", subtype="message_changed")
    await slack.say("gone", channel="D1", channel_type="im", subtype="message_deleted")
    await slack.settle()
    assert slack.fake.calls_to("chat.postMessage") == []


async def test_a_bad_signature_or_a_stale_timestamp_is_refused(slack: SlackHarness):
    event = {"type": "message", "user": "UALICE", "text": "hi", "ts": slack.next_ts(),
             "channel": "D1", "channel_type": "im"}
    forged = await slack.event(event, signature="v0=" + "0" * 64)
    stale = await slack.event(event, timestamp=str(int(time.time()) - 600))
    await slack.settle()
    assert forged.status == stale.status == 401
    assert slack.fake.calls_to("chat.postMessage", ok=None) == []


async def test_ack_comes_before_the_work(slow_slack: SlackHarness):
    started = time.perf_counter()
    sent = await slow_slack.say("find slow things", channel="D1", channel_type="im")
    acked = time.perf_counter() - started
    assert sent.status == 200 and acked < 0.5  # the search itself takes > 0.6 s
    assert len(slow_slack.backend.tracker) == 1
    await slow_slack.settle()


async def test_the_assistant_status_follows_the_steps_and_is_cleared(slow_slack: SlackHarness):
    await slow_slack.say("find react state", channel="D1", channel_type="im")
    await slow_slack.settle()
    await slow_slack.backend.shutdown()
    statuses = [c.args["status"] for c in slow_slack.fake.calls_to("assistant.threads.setStatus")]
    assert statuses[0].startswith("is searching GitHub for react state")
    assert statuses[-1] == ""


async def test_people_talking_to_each_other_in_the_thread_are_left_alone(slack: SlackHarness):
    ts = await slack.mention("hello there")
    await slack.settle()
    await slack.say("<@UBOB> what do you think?", thread_ts=ts)
    await slack.settle()
    assert len(slack.texts("C1", ts)) == 1


async def test_without_the_assistant_feature_the_status_is_simply_left_out(slack: SlackHarness):
    slack.fake.fail("assistant.threads.setStatus", "missing_scope")
    await slack.say("find one", channel="D1", channel_type="im")
    await slack.settle()  # the first refusal is what teaches the bot the feature is missing
    await slack.say("find two", channel="D2", channel_type="im")
    await slack.settle()
    assert len(slack.fake.calls_to("assistant.threads.setStatus", ok=None)) == 1
    assert len(slack.fake.calls_to("chat.stopStream")) == 2  # both answered
