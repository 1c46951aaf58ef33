"""A turn's status message, platform-neutral: what it says, and how the answer takes its place.

``StatusText`` turns the core's progress events into the status lines: a ``LogEvent`` becomes
the current step (the previous one moves to ``done``), ``TextEvent`` deltas build a draft, an
``ErrorEvent`` shows a warning, a ``DataEvent`` means the answer is being put together.

``StatusMessage`` is the ``ProgressSink`` of one turn on a chat platform: it posts the status
message on the first event, sends every change through the shared
``core.pacing.CoalescingEditor`` (paced, latest wins, in order), and finally ``deliver``s the
answer: the first part replaces the status message, the rest are posted after it. Late events
never touch the answer. A platform subclass says how a message is viewed, posted and deleted
(``view``, ``render``, ``_post``, ``_delete``) and may override the hooks
``_progressed`` and ``_closed`` (both do nothing by default).
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import ClassVar, Generic, NamedTuple, TypeVar

from core.pacing.editor import CoalescingEditor
from core.models import DataEvent, ErrorEvent, LogEvent, ProgressEvent, Reply, TextEvent

WORKING = "Working on it…"
ASSEMBLING = "Putting the answer together…"

MsgT = TypeVar("MsgT")  # the platform's message content
IdT = TypeVar("IdT")  # a channel's or a posted message's id


class MessageRef(NamedTuple, Generic[IdT]):
    """A posted message: its channel and its id (Slack: channel id and ts; Discord: snowflakes)."""

    channel: IdT
    message: IdT


class StatusText:
    """The lines a status message shows; ``apply`` says whether an event changed them."""

    def __init__(
        self, first_line: str = WORKING, *, warning: str, step: Callable[[str], str] = str
    ) -> None:
        self.current = first_line
        self.done: list[str] = []
        self.draft = ""
        self.version = 0  # bumped by every visible change
        self._warning = warning  # the platform's warning sign, before an error's message
        self._step = step  # how a step is shown (Discord turns user ids into mentions)

    def apply(self, event: ProgressEvent) -> bool:
        if isinstance(event, LogEvent) and event.content.strip():
            if self.current != WORKING and self.current not in self.done:
                self.done.append(self.current)
            self.current = self._step(event.content.strip())
        elif isinstance(event, TextEvent) and event.delta:
            self.draft += event.delta
        elif isinstance(event, ErrorEvent):
            self.current = f"{self._warning} {event.message}"
        elif isinstance(event, DataEvent):
            self.current = ASSEMBLING
        else:
            return False
        self.version += 1
        return True


class StatusMessage(ABC, Generic[MsgT, IdT]):
    log: ClassVar[logging.Logger] = logging.getLogger("omg.progress")

    def __init__(self, *, editor: CoalescingEditor[MessageRef[IdT], MsgT], text: StatusText, channel: IdT) -> None:
        self._editor = editor
        self.text = text
        self.channel = channel  # where the status message is posted
        self.ref: MessageRef[IdT] | None = None
        self._creating: asyncio.Task[None] | None = None
        self._finished = False  # late events must not touch the answer that replaced the status

    # -- the platform's part -----------------------------------------------------------------

    @abstractmethod
    def view(self) -> MsgT:
        """The status message as it stands (``self.text``)."""

    @abstractmethod
    def render(self, reply: Reply) -> list[MsgT]:
        """The answer as the platform's messages."""

    @abstractmethod
    async def _post(self, message: MsgT) -> list[IdT]:
        """Post one message where the conversation lives; the ids of what was posted."""

    @abstractmethod
    async def _delete(self, ref: MessageRef[IdT]) -> None: ...

    def _progressed(self, event: ProgressEvent) -> None:
        """A visible change (before the status message is edited)."""

    async def _closed(self) -> None:
        """The turn delivered its answer or was abandoned."""

    # -- the turn ------------------------------------------------------------------------------

    async def _post_status(self) -> None:
        version = self.text.version
        try:
            posted = await self._post(self.view())
        except Exception as exc:  # noqa: BLE001 - the answer is still posted at the end
            self.log.warning("could not post the status message", extra={"error": repr(exc)})
            return
        self.ref = MessageRef(self.channel, posted[0])
        self._editor.open(self.ref)
        if self.text.version != version and not self._finished:  # progress made while posting
            self._editor.submit(self.ref, self.view())

    async def __call__(self, event: ProgressEvent) -> None:
        if self._finished or not self.text.apply(event):
            return
        self._progressed(event)
        if self.ref is not None:
            self._editor.submit(self.ref, self.view())
        elif self._creating is None:
            self._creating = asyncio.create_task(self._post_status())
        # else: the status is being posted; the editor gets the latest view once it exists

    async def deliver(self, reply: Reply) -> list[IdT]:
        """Put the answer in the conversation: the first part replaces the status message."""
        await self._finish()
        first, *rest = self.render(reply)
        posted: list[IdT] = []
        if self.ref is not None:
            try:
                await self._editor.finish(self.ref, first)
                posted.append(self.ref.message)
            except Exception as exc:  # noqa: BLE001 - fall back to a new message
                self.log.info("status replacement failed; posting instead",
                              extra={"error": repr(exc)})
                await self.remove_status()
                posted += await self._post(first)
        else:
            posted += await self._post(first)
        for message in rest:
            posted += await self._post(message)
        await self._closed()
        return posted

    async def _finish(self) -> None:
        """No more progress: late events must not touch what comes next."""
        self._finished = True
        if self._creating is not None:
            await asyncio.gather(self._creating, return_exceptions=True)

    async def abandon(self) -> None:
        """No answer in the conversation (a refused click): remove the status message if any."""
        await self._finish()
        await self.remove_status()
        await self._closed()

    async def remove_status(self) -> None:
        if self.ref is None:
            return
        ref, self.ref = self.ref, None
        self._editor.discard(ref)
        try:
            await self._delete(ref)
        except Exception as exc:  # noqa: BLE001 - best effort
            self.log.info("could not delete the status message", extra={"error": repr(exc)})
