"""Progress in a Slack thread: one status message, edited (paced) as the core reports progress.

``TurnProgress`` is the ``ProgressSink`` of one turn. It posts a status reply in the thread
("Searching GitHub for ..."), sends every change through the shared ``CoalescingEditor`` (at most
one ``chat.update`` per message per second, latest wins, in order, 429s honoured), mirrors the
current step into Slack's assistant status where Slack allows it, and finally puts the answer in
place of the status message (further parts follow as new messages).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from bot.slack import render
from bot.slack.api import SlackApi, SlackCallFailed
from bot.slack.blockkit import SlackMessage
from bot.throttle import CoalescingEditor
from core.models import DataEvent, ErrorEvent, LogEvent, ProgressEvent, TextEvent

log = logging.getLogger("omg.slack.progress")

WORKING = "Working on it…"
APP_LEVEL_ERRORS = frozenset({"missing_scope", "not_allowed_token_type", "access_denied",
                              "feature_not_enabled", "invalid_auth"})


class StatusRef(NamedTuple):
    channel: str
    ts: str


class ThreadRef(NamedTuple):
    channel: str
    thread_ts: str


class AssistantStatus:
    """``assistant.threads.setStatus`` where the context allows it; quietly off where not."""

    def __init__(
        self, api: SlackApi, *, min_interval: float = 1.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._api = api
        self._editor: CoalescingEditor[ThreadRef, str] = CoalescingEditor(
            self.edit, min_interval=min_interval, first_edit_delay=0.0, sleep=sleep
        )
        self._unsupported: OrderedDict[ThreadRef, None] = OrderedDict()
        self.disabled = False  # the app itself cannot set statuses (scope, token type)

    async def edit(self, ref: ThreadRef, status: str) -> None:
        """The editor's callback (``RetryAfter`` propagates so the editor waits)."""
        if ref in self._unsupported or self.disabled:
            return
        try:
            await self._api.set_status(ref.channel, ref.thread_ts, status)
        except SlackCallFailed as exc:
            if exc.error in APP_LEVEL_ERRORS:
                log.info("assistant status unavailable for this app", extra={"error": exc.error})
                self.disabled = True
            self._unsupported[ref] = None
            while len(self._unsupported) > 1000:
                self._unsupported.popitem(last=False)

    def show(self, ref: ThreadRef, step: str) -> None:
        if ref not in self._unsupported and not self.disabled:
            self._editor.submit(ref, as_status(step))

    async def clear(self, ref: ThreadRef) -> None:
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


class TurnProgress:
    def __init__(
        self,
        *,
        api: SlackApi,
        editor: CoalescingEditor[StatusRef, SlackMessage],
        assistant: AssistantStatus | None,
        thread: ThreadRef,
        first_line: str = WORKING,
    ) -> None:
        self._api = api
        self._editor = editor
        self._assistant = assistant
        self.thread = thread
        self.ref: StatusRef | None = None
        self.current = first_line
        self.done: list[str] = []
        self.draft = ""
        self._creating: asyncio.Task[None] | None = None
        self._finished = False  # late events must not touch the answer that replaced the status
        self._assistant_shown = False
        self._version = 0  # bumped by every visible change

    def view(self) -> SlackMessage:
        return render.status(self.current, self.done, self.draft)

    async def start(self) -> None:
        """Post the status message now (else it is posted on the first progress event)."""
        if self._creating is None:
            self._creating = asyncio.create_task(self._post_status())
        await asyncio.shield(self._creating)

    async def _post_status(self) -> None:
        version = self._version
        try:
            posted = await self._api.post(
                self.thread.channel, self.view(), thread_ts=self.thread.thread_ts
            )
        except Exception as exc:  # noqa: BLE001 - the answer is still posted at the end
            log.warning("could not post the status message", extra={"error": repr(exc)})
            return
        self.ref = StatusRef(self.thread.channel, posted[0])
        self._editor.open(self.ref)
        if self._version != version and not self._finished:  # progress made while posting
            self._editor.submit(self.ref, self.view())

    async def __call__(self, event: ProgressEvent) -> None:
        if self._finished or not self._apply(event):
            return
        if self._assistant is not None and isinstance(event, LogEvent):
            self._assistant.show(self.thread, self.current)
            self._assistant_shown = True
        if self.ref is not None:
            self._editor.submit(self.ref, self.view())
        elif self._creating is None:
            self._creating = asyncio.create_task(self._post_status())
        # else: the status is being posted; the editor gets the latest view once it exists

    def _apply(self, event: ProgressEvent) -> bool:
        if isinstance(event, LogEvent) and event.content.strip():
            if self.current != WORKING and self.current not in self.done:
                self.done.append(self.current)
            self.current = event.content.strip()
        elif isinstance(event, TextEvent) and event.delta:
            self.draft += event.delta
        elif isinstance(event, ErrorEvent):
            self.current = f":warning: {event.message}"
        elif isinstance(event, DataEvent):
            self.current = "Putting the answer together…"
        else:
            return False
        self._version += 1
        return True

    async def deliver(self, messages: list[SlackMessage]) -> list[str]:
        """Put the answer in the thread: the first part replaces the status message."""
        self._finished = True
        if self._creating is not None:
            await asyncio.gather(self._creating, return_exceptions=True)
        first, rest = messages[0], messages[1:]
        posted: list[str] = []
        if self.ref is not None:
            try:
                await self._editor.finish(self.ref, first)
                posted.append(self.ref.ts)
            except Exception as exc:  # noqa: BLE001 - fall back to a new message
                log.info("status replacement failed; posting instead", extra={"error": repr(exc)})
                await self._remove_status()
                posted += await self._api.post(
                    self.thread.channel, first, thread_ts=self.thread.thread_ts
                )
        else:
            posted += await self._api.post(
                self.thread.channel, first, thread_ts=self.thread.thread_ts
            )
        posted += await self._api.post_all(
            self.thread.channel, rest, thread_ts=self.thread.thread_ts
        )
        if self._assistant is not None and self._assistant_shown:
            await self._assistant.clear(self.thread)
        return posted

    async def abandon(self) -> None:
        """No answer in the thread (a refused click): remove the status message if any."""
        self._finished = True
        if self._creating is not None:
            await asyncio.gather(self._creating, return_exceptions=True)
        await self._remove_status()
        if self._assistant is not None and self._assistant_shown:
            await self._assistant.clear(self.thread)

    async def _remove_status(self) -> None:
        if self.ref is None:
            return
        ref, self.ref = self.ref, None
        self._editor.discard(ref)
        try:
            await self._api.delete(ref.channel, ref.ts)
        except Exception as exc:  # noqa: BLE001 - best effort
            log.info("could not delete the status message", extra={"error": repr(exc)})
