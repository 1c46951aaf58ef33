"""Progress in a Slack thread: one status message, edited (paced) as the core reports progress.

``TurnProgress`` is the ``ProgressSink`` of one turn (a ``bot.progress.StatusMessage``). It posts
a status reply in the thread ("Searching GitHub for ..."), sends every change through the shared
``CoalescingEditor`` (at most one ``chat.update`` per message per second, latest wins, in order,
429s honoured), mirrors the current step into Slack's assistant status where Slack allows it, and
finally streams the answer (``bot.slack.stream``) or, where that is refused, puts it in place of
the status message (further parts follow as new messages).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.progress import WORKING, MessageRef, StatusMessage, StatusText
from bot.slack import render, stream
from bot.slack.api import SlackApi, SlackCallFailed
from bot.slack.blockkit import SlackMessage
from core.pacing.editor import CoalescingEditor
from core.recent import Recent
from core.models import ConversationKey, LogEvent, ProgressEvent, Reply

log = logging.getLogger("omg.slack.progress")
APP_LEVEL_ERRORS = frozenset({"missing_scope", "not_allowed_token_type", "access_denied",
                              "feature_not_enabled", "invalid_auth"})


class AssistantStatus:
    """``assistant.threads.setStatus`` where the context allows it; quietly off where not."""

    def __init__(
        self, api: SlackApi, *, min_interval: float = 1.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._api = api
        self._editor: CoalescingEditor[MessageRef[str], str] = CoalescingEditor(
            self.edit, min_interval=min_interval, first_edit_delay=0.0, sleep=sleep
        )
        self._unsupported: Recent[MessageRef[str], None] = Recent(1000)
        self.disabled = False  # the app itself cannot set statuses (scope, token type)

    async def edit(self, ref: MessageRef[str], status: str) -> None:
        """The editor's callback (``RetryAfter`` propagates so the editor waits)."""
        if ref in self._unsupported or self.disabled:
            return
        try:
            await self._api.set_status(ref.channel, ref.message, status)
        except SlackCallFailed as exc:
            if exc.error in APP_LEVEL_ERRORS:
                log.info("assistant status unavailable for this app", extra={"error": exc.error})
                self.disabled = True
            self._unsupported[ref] = None

    def show(self, ref: MessageRef[str], step: str) -> None:
        if ref not in self._unsupported and not self.disabled:
            self._editor.submit(ref, as_status(step))

    async def clear(self, ref: MessageRef[str]) -> None:
        """Clear the status (paced like any other change; a posted reply clears it too)."""
        if ref in self._unsupported or self.disabled:
            self._editor.discard(ref)
            return
        try:
            await self._editor.finish(ref, "")
        except Exception as exc:  # noqa: BLE001 - a stale status is cosmetic
            log.info("could not clear the assistant status", extra={"error": repr(exc)})

    async def aclose(self) -> None:
        await self._editor.aclose()


def as_status(step: str) -> str:
    """Slack shows "<app> <status>": "Searching GitHub" -> "is searching GitHub…"."""
    first, _, rest = step.strip().rstrip(".…").partition(" ")
    if first.lower().endswith("ing"):
        return f"is {first.lower()} {rest}".strip()[:100] + "…"
    return "is working…"


class TurnProgress(StatusMessage[SlackMessage, str]):
    """The status message of one turn in a Slack thread (also mirrored as assistant status).
    The answer for ``user`` is streamed where Slack allows it (then the status message goes);
    otherwise it replaces the status message."""

    log = logging.getLogger("omg.slack.progress")

    def __init__(
        self,
        *,
        api: SlackApi,
        editor: CoalescingEditor[MessageRef[str], SlackMessage],
        assistant: AssistantStatus | None,
        place: ConversationKey,
        user: str | None = None,
        first_line: str = WORKING,
    ) -> None:
        super().__init__(editor=editor, text=StatusText(first_line, warning=":warning:"), channel=place.channel)
        self._api = api
        self._assistant = assistant
        self.place = place
        self.thread = MessageRef(place.channel, place.thread)
        self.user = user
        self._assistant_shown = False

    def view(self) -> SlackMessage:
        return render.status(self.text.current, self.text.done, self.text.draft)

    def render(self, reply: Reply) -> list[SlackMessage]:
        return render.render_reply(reply)

    async def deliver(self, reply: Reply) -> list[str]:
        if self.user is not None:
            await self._finish()
            if await stream.stream_reply(self._api.client, self.place, reply, self.user):
                await self.remove_status()
                await self._closed()
                return []
        return await super().deliver(reply)

    async def _post(self, message: SlackMessage) -> list[str]:
        return await self._api.post(self.place.channel, message, thread_ts=self.place.thread)

    async def _delete(self, ref: MessageRef[str]) -> None:
        await self._api.delete(ref.channel, ref.message)

    def _progressed(self, event: ProgressEvent) -> None:
        if self._assistant is not None and isinstance(event, LogEvent):
            self._assistant.show(self.thread, self.text.current)
            self._assistant_shown = True

    async def _closed(self) -> None:
        if self._assistant is not None and self._assistant_shown:
            await self._assistant.clear(self.thread)
