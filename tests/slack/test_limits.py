"""Slack's limits: 429 with Retry-After, long answers, msg_too_long, the 1 edit/s pace."""

from __future__ import annotations

import json

from tests.slack.conftest import LONG_ANSWER_CHARS, SlackHarness, start_harness, stop_harness


async def test_a_rate_limited_status_edit_waits_for_retry_after(slow_slack: SlackHarness):
    slow_slack.refuse_streaming()  # the answer replaces the status message: the edits' path
    slow_slack.fake.ratelimit("chat.update", times=1, retry_after=1)
    ts = await slow_slack.mention("find react state")
    await slow_slack.settle()
    [refused] = slow_slack.fake.calls_to("chat.update", ok=False)
    later = [c for c in slow_slack.fake.calls_to("chat.update") if c.at > refused.at]
    assert later and later[0].at - refused.at >= 1.0
    [answer] = slow_slack.bot_messages("C1", ts)
    assert "pmndrs/zustand" in json.dumps(answer.blocks)  # the final answer still landed


async def test_a_rate_limited_post_is_retried_after_the_wait(slack: SlackHarness):
    slack.refuse_streaming()
    slack.fake.ratelimit("chat.postMessage", times=1, retry_after=1)
    ts = await slack.mention("hello")
    await slack.settle()
    [refused] = slack.fake.calls_to("chat.postMessage", ok=False)
    [posted] = slack.fake.calls_to("chat.postMessage")
    assert posted.at - refused.at >= 1.0
    assert "You said: hello" in slack.texts("C1", ts)[0]


def body_of(slack: SlackHarness, thread: str) -> str:
    return "\n".join(b["text"] for m in slack.bot_messages("C1", thread)
                      for b in m.blocks if b["type"] == "markdown")


async def test_a_13000_character_answer_arrives_in_two_messages(slack: SlackHarness):
    ts = await slack.mention("give me a long answer")
    await slack.settle()
    messages = slack.bot_messages("C1", ts)
    assert len(messages) == 2  # 12,000 characters of markdown blocks per message
    body = body_of(slack, ts)
    assert len(body) >= LONG_ANSWER_CHARS
    numbers = [int(line.split(".")[0]) for line in body.split("\n") if line[:1].isdigit()]
    assert numbers == list(range(len(numbers)))  # every paragraph, once, in order
    assert [m.text.startswith("(continued") for m in messages] == [False] + [True] * (len(messages) - 1)
    assert slack.fake.calls_to("chat.postMessage", ok=False) == []  # never msg_too_long


async def test_msg_too_long_is_answered_by_splitting_further(slack: SlackHarness):
    slack.fake.max_message_chars = 1500
    ts = await slack.mention("give me a long answer")
    await slack.settle()
    refused = [*slack.fake.calls_to("chat.update", ok=False),
               *slack.fake.calls_to("chat.postMessage", ok=False)]
    assert refused and all(c.error == "msg_too_long" for c in refused)
    numbers = [int(line.split(".")[0]) for line in body_of(slack, ts).split("\n") if line[:1].isdigit()]
    assert numbers == list(range(len(numbers))) and len(numbers) >= 10
    assert not any("Working on it" in m.text for m in slack.bot_messages("C1", ts))


async def test_no_message_is_edited_faster_than_once_per_second_by_default():
    harness = await start_harness(edit_interval=1.0, step_delay=0.6)
    harness.refuse_streaming()
    try:
        for n in range(3):
            await harness.mention(f"find things {n}")
        await harness.settle()
        times = harness.fake.update_times()
        assert any(len(t) >= 2 for t in times.values())
        assert harness.fake.min_update_gap() >= 0.99
    finally:
        await stop_harness(harness)
