"""Scenario harness: the real bolt app in HTTP mode on loopback, signed requests, a fake Web API,
and the scripted core of ``tests.slack.scripted``."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import time
import urllib.parse
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.app import BotApp
from bot.slack import SlackBackend
from bot.slack.settings import SlackSettings
from tests.fakes.slack_api import BOT_USER, TEAM, TOKEN, FakeSlackApi, StoredMessage
from tests.slack.scripted import LONG_ANSWER_CHARS, build_bot_app

SECRET = "test-signing-secret"
__all__ = ["LONG_ANSWER_CHARS", "SECRET", "SlackHarness", "start_harness", "stop_harness"]


def sign(body: str, timestamp: str, secret: str = SECRET) -> str:
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()
    return f"v0={digest}"


@dataclass
class Sent:
    status: int
    text: str
    headers: dict[str, str]


class SlackHarness:
    """Speaks to the bot like Slack does: signed HTTP requests to /slack/events."""

    def __init__(
        self, fake: FakeSlackApi, app: BotApp, backend: SlackBackend, http: aiohttp.ClientSession
    ) -> None:
        self.fake = fake
        self.app = app
        self.backend = backend
        self.http = http
        self._ts = itertools.count(1)
        self._ids = itertools.count(1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.backend.port}/slack/events"

    def next_ts(self) -> str:
        return f"{1_700_100_000 + next(self._ts):d}.000100"

    async def post(self, body: str, content_type: str, *, timestamp: str | None = None,
                   signature: str | None = None, headers: dict[str, str] | None = None) -> Sent:
        timestamp = timestamp or str(int(time.time()))
        all_headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": timestamp,
            "X-Slack-Signature": signature or sign(body, timestamp),
            **(headers or {}),
        }
        async with self.http.post(self.url, data=body.encode(), headers=all_headers) as response:
            return Sent(response.status, await response.text(), dict(response.headers))

    async def event(self, event: dict[str, Any], *, event_id: str | None = None,
                    retry_num: int | None = None, **kwargs: Any) -> Sent:
        body = json.dumps({
            "token": "legacy", "team_id": TEAM, "api_app_id": "A1", "type": "event_callback",
            "event_id": event_id or f"Ev{next(self._ids):04d}", "event_time": int(time.time()),
            "event": event,
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
        })
        headers = kwargs.pop("headers", {})
        if retry_num is not None:
            headers |= {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        return await self.post(body, "application/json", headers=headers, **kwargs)

    async def mention(self, text: str, *, user: str = "UALICE", channel: str = "C1",
                      thread_ts: str | None = None, ts: str | None = None) -> str:
        """A channel mention arrives twice (app_mention and message); returns its ts."""
        ts = ts or self.next_ts()
        event = {"type": "app_mention", "user": user, "text": f"<@{BOT_USER}> {text}", "ts": ts,
                 "channel": channel, "team": TEAM, "client_msg_id": f"cm-{ts}"}
        if thread_ts:
            event["thread_ts"] = thread_ts
        twin = {**event, "type": "message", "channel_type": "channel"}
        first, second = await asyncio.gather(self.event(event), self.event(twin))
        assert first.status == second.status == 200
        return ts

    async def say(self, text: str, *, user: str = "UALICE", channel: str = "C1",
                  thread_ts: str | None = None, channel_type: str = "channel", **extra: Any) -> Sent:
        ts = extra.pop("ts", None) or self.next_ts()
        event = {"type": "message", "user": user, "text": text, "ts": ts, "channel": channel,
                 "channel_type": channel_type, "team": TEAM, "client_msg_id": f"cm-{ts}", **extra}
        if thread_ts:
            event["thread_ts"] = thread_ts
        return await self.event(event)

    async def click(self, message: StoredMessage, label: str, *, user: str = "UALICE") -> Sent:
        button = next(e for b in message.blocks if b["type"] == "actions" for e in b["elements"]
                      if label.lower() in e["text"]["text"].lower())
        payload = {
            "type": "block_actions", "user": {"id": user, "team_id": TEAM}, "team": {"id": TEAM},
            "api_app_id": "A1", "trigger_id": f"trig-{next(self._ids)}",
            "container": {"type": "message", "message_ts": message.ts, "channel_id": message.channel,
                          "thread_ts": message.thread_ts, "is_ephemeral": False},
            "channel": {"id": message.channel},
            "message": {"type": "message", "ts": message.ts, "thread_ts": message.thread_ts,
                        "text": message.text, "blocks": message.blocks, "user": BOT_USER},
            "actions": [{"type": "button", "action_id": button["action_id"], "block_id": "b",
                         "value": button["value"], "action_ts": f"{time.time():.6f}-{next(self._ids)}"}],
            "response_url": self.fake.response_url("click"),
        }
        body = urllib.parse.urlencode({"payload": json.dumps(payload)})
        return await self.post(body, "application/x-www-form-urlencoded")

    async def feedback(self, message: StoredMessage, *, good: bool, user: str = "UALICE") -> Sent:
        """A click on the thumbs up (``good``) or down of an answer's ``feedback_buttons``."""
        element = next(e for b in message.blocks if b["type"] == "context_actions"
                       for e in b["elements"] if e["type"] == "feedback_buttons")
        chosen = element["positive_button" if good else "negative_button"]
        payload = {
            "type": "block_actions", "user": {"id": user, "team_id": TEAM}, "team": {"id": TEAM},
            "api_app_id": "A1", "trigger_id": f"trig-{next(self._ids)}",
            "container": {"type": "message", "message_ts": message.ts, "channel_id": message.channel,
                          "thread_ts": message.thread_ts, "is_ephemeral": False},
            "channel": {"id": message.channel},
            "message": {"type": "message", "ts": message.ts, "thread_ts": message.thread_ts,
                        "text": message.text, "blocks": message.blocks, "user": BOT_USER},
            "actions": [{"type": "feedback_buttons", "action_id": element["action_id"], "block_id": "f",
                         "value": chosen["value"], "action_ts": f"{time.time():.6f}-{next(self._ids)}"}],
            "response_url": self.fake.response_url("click"),
        }
        body = urllib.parse.urlencode({"payload": json.dumps(payload)})
        return await self.post(body, "application/x-www-form-urlencoded")

    async def command(
        self, command: str, text: str, *, user: str = "UALICE", channel: str = "C1"
    ) -> Sent:
        body = urllib.parse.urlencode({
            "token": "legacy", "team_id": TEAM, "channel_id": channel, "channel_name": "general",
            "user_id": user, "user_name": user.lower(), "command": command, "text": text,
            "api_app_id": "A1", "trigger_id": f"trig-{next(self._ids)}",
            "response_url": self.fake.response_url("command"),
        })
        return await self.post(body, "application/x-www-form-urlencoded")

    async def settle(self) -> None:
        await asyncio.wait_for(self.backend.idle(), 10)

    def bot_messages(self, channel: str, thread_ts: str) -> list[StoredMessage]:
        return [m for m in self.fake.thread(channel, thread_ts) if m.user == BOT_USER]

    def refuse_streaming(self) -> None:
        """Slack refuses ``chat.startStream`` from now on: answers take the post + update path."""
        self.fake.fail("chat.startStream", "not_allowed_token_type", times=10_000)

    def texts(self, channel: str, thread_ts: str) -> list[str]:
        """What each bot message shows: its blocks (a streamed message: its Markdown, then them)."""
        return [(m.text + "\n" if m.streamed else "") + json.dumps(m.blocks, ensure_ascii=False)
                for m in self.bot_messages(channel, thread_ts)]


def slack_settings(fake: FakeSlackApi, *, edit_interval: float = 0.2) -> SlackSettings:
    return SlackSettings(bot_token=TOKEN, signing_secret=SECRET, api_url=fake.base_url,
                         host="127.0.0.1", port=0, edit_interval=edit_interval, shutdown_grace=5)


async def start_harness(*, edit_interval: float = 0.2, step_delay: float = 0.0) -> SlackHarness:
    fake = FakeSlackApi()
    await fake.start()
    settings = slack_settings(fake, edit_interval=edit_interval)
    app = build_bot_app(step_delay=step_delay)
    backend = SlackBackend(app.ports, settings=settings)
    await backend.start()
    return SlackHarness(fake, app, backend, aiohttp.ClientSession())


async def stop_harness(harness: SlackHarness) -> None:
    await harness.backend.shutdown()
    await harness.http.close()
    await harness.fake.stop()
    assert harness.fake.violations == [], harness.fake.violations


@pytest.fixture
async def slack() -> AsyncIterator[SlackHarness]:
    harness = await start_harness()
    yield harness
    await stop_harness(harness)


@pytest.fixture
async def slow_slack() -> AsyncIterator[SlackHarness]:
    """Agents take a while between steps, so status edits are visible."""
    harness = await start_harness(step_delay=0.3)
    yield harness
    await stop_harness(harness)
