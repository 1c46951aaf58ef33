"""Speaks to bot processes like Slack does: signed Events API, interactivity and command requests.

    slack = SlackSender(http, secret)
    await slack.mention(bot.url, "find react state libraries", ts=...)
    await slack.click(bot.url, message, button, user="UALICE")
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
import urllib.parse
from typing import Any

import aiohttp

from tests.fakes.slack_api import BOT_USER, TEAM, StoredMessage

_ids = itertools.count(1)


def sign(body: bytes, timestamp: str, secret: str) -> str:
    digest = hmac.new(secret.encode(), b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256)
    return "v0=" + digest.hexdigest()


def next_ts() -> str:
    return f"{1_700_200_000 + next(_ids):d}.000100"


def buttons(message: StoredMessage) -> list[dict[str, Any]]:
    return [e for b in message.blocks if b.get("type") == "actions" for e in b.get("elements", [])]


class SlackSender:
    def __init__(self, http: aiohttp.ClientSession, secret: str) -> None:
        self.http = http
        self.secret = secret

    async def post(self, url: str, body: bytes, content_type: str, *,
                   headers: dict[str, str] | None = None, signed: bool = True) -> tuple[int, str]:
        timestamp = str(int(time.time()))
        all_headers = {"Content-Type": content_type, "X-Slack-Request-Timestamp": timestamp,
                       "X-Slack-Signature": sign(body, timestamp, self.secret) if signed else "v0=bad",
                       **(headers or {})}
        async with self.http.post(url, data=body, headers=all_headers) as response:
            return response.status, await response.text()

    async def event(self, url: str, event: dict[str, Any], *, event_id: str | None = None,
                    retry_num: int | None = None) -> tuple[int, str]:
        body = json.dumps({
            "token": "legacy", "team_id": TEAM, "api_app_id": "A1", "type": "event_callback",
            "event_id": event_id or f"Ev{next(_ids):06d}", "event_time": int(time.time()),
            "event": event, "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
        }).encode()
        headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"} if retry_num else {}
        return await self.post(url, body, "application/json", headers=headers)

    @staticmethod
    def mention_event(text: str, *, ts: str, user: str = "UALICE", channel: str = "C1") -> dict[str, Any]:
        return {"type": "app_mention", "user": user, "text": f"<@{BOT_USER}> {text}", "ts": ts,
                "channel": channel, "team": TEAM, "client_msg_id": f"cm-{ts}"}

    async def mention(self, url: str, text: str, *, ts: str, user: str = "UALICE", channel: str = "C1",
                      event_id: str | None = None) -> tuple[int, str]:
        return await self.event(url, self.mention_event(text, ts=ts, user=user, channel=channel),
                                event_id=event_id)

    async def say(self, url: str, text: str, *, thread_ts: str, user: str = "UALICE",
                  channel: str = "C1") -> tuple[int, str]:
        ts = next_ts()
        return await self.event(url, {"type": "message", "user": user, "text": text, "ts": ts,
                                      "thread_ts": thread_ts, "channel": channel, "channel_type": "channel",
                                      "team": TEAM, "client_msg_id": f"cm-{ts}"})

    async def click(self, url: str, message: StoredMessage, button: dict[str, Any], *,
                    user: str = "UALICE", action_ts: str | None = None) -> tuple[int, str]:
        payload = {
            "type": "block_actions", "team": {"id": TEAM}, "user": {"id": user, "team_id": TEAM},
            "api_app_id": "A1", "trigger_id": f"trig-{next(_ids)}",
            "channel": {"id": message.channel}, "container": {
                "type": "message", "message_ts": message.ts, "channel_id": message.channel,
                "thread_ts": message.thread_ts or message.ts},
            "message": {"type": "message", "ts": message.ts, "thread_ts": message.thread_ts,
                        "text": message.text, "blocks": message.blocks, "user": BOT_USER},
            "actions": [{"type": "button", "action_id": button["action_id"], "block_id": "b",
                         "value": button["value"], "action_ts": action_ts or f"{time.time():.6f}-{next(_ids)}"}],
        }
        body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
        return await self.post(url, body, "application/x-www-form-urlencoded")

    async def command(self, url: str, command: str, text: str, *, user: str = "UALICE",
                      channel: str = "C1", response_url: str = "") -> tuple[int, str]:
        body = urllib.parse.urlencode({
            "token": "legacy", "team_id": TEAM, "channel_id": channel, "channel_name": "general",
            "user_id": user, "user_name": user.lower(), "command": command, "text": text,
            "api_app_id": "A1", "trigger_id": f"trig-{next(_ids)}", "response_url": response_url,
        }).encode()
        return await self.post(url, body, "application/x-www-form-urlencoded")
