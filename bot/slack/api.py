"""The Slack Web API calls the adapter makes, with Slack's failure modes turned into decisions.

The only module that touches ``slack_sdk`` errors: a 429 becomes ``RetryAfter`` (for the
throttled editor) or a wait-and-retry (for posts), ``msg_too_long`` becomes a split into smaller
messages, and anything else is logged and reported as ``SlackCallFailed``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_slack_response import AsyncSlackResponse as SlackResponse
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.blockkit import SlackMessage, halve
from core.pacing.editor import RetryAfter
from core.errors import PlatformError

log = logging.getLogger("omg.slack.api")

TOO_LONG = frozenset({"msg_too_long"})


class SlackCallFailed(PlatformError):
    """A Slack Web API call failed; ``error`` is Slack's own error string (for the logs)."""

    code = "slack_call_failed"

    def __init__(self, method: str, error: str) -> None:
        self.method = method
        self.error = error
        super().__init__(f"{method} failed: {error}")


class MessageTooLong(SlackCallFailed):
    code = "message_too_long"


class BotIdentity(BaseModel):
    user_id: str
    bot_id: str | None = None
    team_id: str | None = None


class SlackApi:
    def __init__(
        self,
        client: AsyncWebClient,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        post_retries: int = 3,
        max_retry_after: float = 30.0,
    ) -> None:
        self.client = client
        self._sleep = sleep
        self._post_retries = post_retries
        self._max_retry_after = max_retry_after
        self.identity: BotIdentity | None = None

    @property
    def bot_user_id(self) -> str | None:
        return self.identity.user_id if self.identity else None

    async def connect(self) -> BotIdentity:
        """``auth.test``: checks the token and learns the bot's own ids."""
        data = await self._with_retries("auth.test", self.client.auth_test)
        self.identity = BotIdentity(
            user_id=data.get("user_id", ""), bot_id=data.get("bot_id"), team_id=data.get("team_id")
        )
        return self.identity

    async def _call(self, method: str, call: Callable[[], Awaitable[Any]]) -> dict[str, Any]:
        try:
            response = await call()
        except SlackApiError as exc:
            raise _translate(method, exc) from None
        return response.data if isinstance(response.data, dict) else {}

    async def _with_retries(self, method: str, call: Callable[[], Awaitable[Any]]) -> dict[str, Any]:
        for attempt in range(self._post_retries + 1):
            try:
                return await self._call(method, call)
            except RetryAfter as wait:
                if attempt == self._post_retries:
                    raise SlackCallFailed(method, "ratelimited") from None
                await self._sleep(min(wait.seconds, self._max_retry_after))
        raise AssertionError("unreachable")

    # -- messages ------------------------------------------------------------------------------

    async def post(self, channel: str, message: SlackMessage, *, thread_ts: str | None) -> list[str]:
        """Post a message (split further if Slack finds it too long); returns the posted ts."""
        try:
            data = await self._with_retries(
                "chat.postMessage",
                lambda: self.client.chat_postMessage(
                    channel=channel, thread_ts=thread_ts, unfurl_links=False, unfurl_media=False,
                    **message.args(),
                ),
            )
        except MessageTooLong:
            parts = halve(message)
            if len(parts) < 2:
                raise
            posted: list[str] = []
            for part in parts:
                posted += await self.post(channel, part, thread_ts=thread_ts)
            return posted
        return [str(data.get("ts", ""))]

    async def post_all(
        self, channel: str, messages: list[SlackMessage], *, thread_ts: str | None
    ) -> list[str]:
        posted: list[str] = []
        for message in messages:
            posted += await self.post(channel, message, thread_ts=thread_ts)
        return posted

    async def update(self, channel: str, ts: str, message: SlackMessage) -> None:
        """``chat.update``; raises ``RetryAfter`` on a 429 (the editor waits) and
        ``MessageTooLong`` when Slack refuses the size."""
        await self._call(
            "chat.update",
            lambda: self.client.chat_update(channel=channel, ts=ts, **message.args()),
        )

    async def ephemeral(
        self, channel: str, user: str, message: SlackMessage, *, thread_ts: str | None = None
    ) -> None:
        await self._with_retries(
            "chat.postEphemeral",
            lambda: self.client.chat_postEphemeral(
                channel=channel, user=user, thread_ts=thread_ts, **message.args()
            ),
        )

    async def delete(self, channel: str, ts: str) -> None:
        await self._call("chat.delete", lambda: self.client.chat_delete(channel=channel, ts=ts))

    # -- threads -------------------------------------------------------------------------------

    async def set_status(self, channel: str, thread_ts: str, status: str) -> None:
        """The assistant "is thinking" status under the thread (cleared by the next reply)."""
        await self._call(
            "assistant.threads.setStatus",
            lambda: self.client.assistant_threads_setStatus(
                channel_id=channel, thread_ts=thread_ts, status=status
            ),
        )

    async def bot_in_thread(self, channel: str, thread_ts: str) -> bool:
        """Whether the bot posted or was mentioned in the thread (``conversations.replies``)."""
        me = self.identity
        if me is None:
            return False
        try:
            data = await self._call(
                "conversations.replies",
                lambda: self.client.conversations_replies(channel=channel, ts=thread_ts, limit=200),
            )
        except (SlackCallFailed, RetryAfter) as exc:
            log.info("thread check failed", extra={"error": str(exc)})
            return False
        mention = f"<@{me.user_id}"
        for message in data.get("messages", []):
            if message.get("user") == me.user_id or (me.bot_id and message.get("bot_id") == me.bot_id):
                return True
            if mention in message.get("text", ""):
                return True
        return False


def _translate(method: str, exc: SlackApiError) -> Exception:
    response = exc.response if isinstance(exc.response, SlackResponse) else None
    data = response.data if response is not None else None
    error = str(data.get("error", "")) if isinstance(data, dict) else ""
    status = response.status_code if response is not None else 0
    if status == 429 or error == "ratelimited":
        headers = response.headers if response is not None else {}
        raw = headers.get("Retry-After") or headers.get("retry-after") or "1"
        try:
            seconds = float(raw)
        except (TypeError, ValueError):
            seconds = 1.0
        return RetryAfter(seconds)
    if error in TOO_LONG:
        return MessageTooLong(method, error)
    log.warning("slack call failed", extra={"method": method, "error": error, "status": status})
    return SlackCallFailed(method, error or f"http {status}")
