"""The adapter kernel's turn runner: one core call per message, click or command, on any platform.

A platform adapter implements the small ``Platform`` protocol (how a turn is shown live and its
answer drawn, how a note is posted) and hands every acknowledged request to ``TurnRunner``.
The runner holds the rules both platforms share, so they cannot drift:

* duplicates are the core's business (``BotService`` drops a repeated ``delivery_id`` and a
  double-clicked suggestion): a duplicate reply shows nothing at all, because the live status
  appears only with the core's first progress event;
* a suggestion is announced ("<user> chose: ...") only once the core accepted the click;
* a plan decision *stood* when the research service made progress on it or answered without an
  error (``decision_stood``); only then the plan loses its buttons, otherwise the refusal goes
  back to the adapter, which shows it to the clicker alone.

``reply_of``: a refusal the core explains (an ``OmgError``) is shown as its ``user_message``;
anything else is logged with its traceback and shown as ``SORRY``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Generic, Protocol, TypeVar

from bot.progress import WORKING
from bot.threads import ThreadIndex
from core.errors import OmgError, log_failure
from core.models import (
    ActionClick,
    ConversationKey,
    IncomingMessage,
    ProgressEvent,
    ProgressSink,
    Reply,
)
from core.service import BotService

SORRY = "Something went wrong on my side while working on that. Please try again."
PLANNING = "Working on the plan…"

CoreCall = Callable[[ProgressSink], Awaitable[Reply]]
PlaceT = TypeVar("PlaceT")  # where a conversation lives, in the platform's own terms
MsgT = TypeVar("MsgT")


class LiveTurn(ProgressSink, Protocol):
    """How one turn shows while it runs (``bot.progress.StatusMessage``, or a native stream): it
    receives the core's progress events, then draws the answer in their place."""

    async def deliver(self, reply: Reply) -> object: ...

    async def abandon(self) -> None: ...


class Platform(Protocol[PlaceT, MsgT]):
    """What the kernel needs from a chat platform. Posting, editing and deleting status messages,
    and drawing the answer, happen inside the ``LiveTurn`` that ``stream`` returns (paced by
    ``core.pacing``)."""

    def key(self, place: PlaceT) -> ConversationKey:
        """The conversation living at ``place``."""
        ...

    def stream(self, place: PlaceT, *, first_line: str, users: tuple[str, ...]) -> LiveTurn:
        """A turn's live view where the conversation lives (posted on the first progress);
        ``users[0]`` is the person the answer is for."""
        ...

    def chose(self, user: str, value: str) -> MsgT:
        """The line announcing that ``user`` picked a suggestion."""
        ...

    async def post(self, place: PlaceT, message: MsgT) -> None:
        """Post a note into the conversation (never raises: a note is not worth a turn)."""
        ...


async def reply_of(
    call: CoreCall, progress: ProgressSink, *, conversation_id: str, log: logging.Logger
) -> Reply:
    """``call(progress)``'s reply, or a reply saying what went wrong (never raises)."""
    try:
        return await call(progress)
    except OmgError as exc:
        log.warning("core refused", extra={"conversation_id": conversation_id, "error": repr(exc)})
        return Reply(conversation_id=conversation_id, markdown=exc.user_message,
                     error=exc.code)
    except Exception as exc:  # the edge of a turn: whatever broke, the user gets an answer
        log_failure(log, "core call failed", exc, conversation_id=conversation_id)
        return Reply(conversation_id=conversation_id, markdown=SORRY, error="internal")


def decision_stood(reply: Reply, *, progressed: bool) -> bool:
    """The one rule for a plan decision: the research service refuses (not the requester, a
    stale or expired plan...) before it changes anything, so progress or an error-free answer
    means the decision was taken (a run that failed later still had its plan approved)."""
    return progressed or reply.error is None


class _Announced:
    """A sink that runs ``before`` once, ahead of the first progress event."""

    def __init__(self, sink: ProgressSink, before: Callable[[], Awaitable[None]]) -> None:
        self._sink = sink
        self._before: asyncio.Task[None] | None = None
        self._start = before

    async def first(self) -> None:
        if self._before is None:
            self._before = asyncio.ensure_future(self._start())
        await asyncio.shield(self._before)

    @property
    def started(self) -> bool:
        return self._before is not None

    async def __call__(self, event: ProgressEvent) -> None:
        await self.first()
        await self._sink(event)


class TurnRunner(Generic[PlaceT, MsgT]):
    def __init__(
        self, *, service: BotService, platform: Platform[PlaceT, MsgT], threads: ThreadIndex,
        log: logging.Logger,
    ) -> None:
        self.service = service
        self.platform = platform
        self.threads = threads
        self.log = log

    async def run(
        self, place: PlaceT, call: CoreCall, *, first_line: str = WORKING,
        users: tuple[str, ...] = (), before: Callable[[], Awaitable[None]] | None = None,
        live: LiveTurn | None = None, stands: Callable[[Reply, bool], bool] = lambda reply, progressed: True,
    ) -> Reply | None:
        """Run one core call with a live view in ``place`` (the platform's, unless ``live`` is
        given) and deliver its reply; None for a duplicate. ``before`` runs once the core
        accepted the work, ahead of anything else. A reply ``stands`` rejects (given whether the
        core made progress) is not delivered: the live view goes and the reply is returned."""
        self.threads.remember(self.platform.key(place))
        live = live or self.platform.stream(place, first_line=first_line, users=users)
        sink = _Announced(live, before or _nothing)
        reply = await reply_of(call, sink, conversation_id=self.platform.key(place).conversation_id, log=self.log)
        if reply.duplicate or not stands(reply, sink.started):
            await live.abandon()
            return None if reply.duplicate else reply
        await sink.first()
        await live.deliver(reply)
        return reply

    # -- the kinds of work ---------------------------------------------------------------------

    async def message(
        self, place: PlaceT, text: str, user: str, *, delivery_id: str | None, live: LiveTurn | None = None,
    ) -> Reply | None:
        incoming = IncomingMessage(key=self.platform.key(place), text=text, author=user, delivery_id=delivery_id)
        return await self.run(place, lambda progress: self.service.handle_message(incoming, progress),
                              users=(user,), live=live)

    async def research(
        self, place: PlaceT, goal: str, user: str, *, mode: str | None = None,
        delivery_id: str | None = None,
    ) -> Reply | None:
        return await self.run(place, lambda progress: self.service.start_research(
            goal, key=self.platform.key(place), requester=user, mode=mode, progress=progress,
            delivery_id=delivery_id), users=(user,))

    async def choice(self, place: PlaceT, click: ActionClick) -> Reply | None:
        """A suggestion or option: announced as chosen, then answered as if the clicker typed it
        (a double click is dropped by the core: nothing is posted for it)."""
        async def announce() -> None:
            await self.platform.post(place, self.platform.chose(click.user, click.value))

        return await self.run(place, lambda progress: self.service.handle_action(click, progress),
                              users=(click.user,), before=announce)

    async def decision(
        self, place: PlaceT, click: ActionClick, on_stood: Callable[[], Awaitable[None]]
    ) -> Reply | None:
        """Approve / Revise / Cancel. ``on_stood`` runs as soon as the decision is known to stand
        (to retire the plan's buttons). Returns the refusal, for the clicker's eyes only, when it
        did not stand; None otherwise (the answer is in the conversation)."""
        async def stood() -> None:  # progress means the service took the decision
            try:
                await on_stood()
            except Exception as exc:  # noqa: BLE001 - the decision stands either way
                self.log.info("could not mark the plan as decided", extra={"error": repr(exc)})

        refused: list[Reply] = []

        def stands(reply: Reply, progressed: bool) -> bool:
            if not decision_stood(reply, progressed=progressed):
                refused.append(reply)
            return not refused

        await self.run(place, lambda p: self.service.handle_action(click, p), first_line=PLANNING,
                       users=(click.user,), before=stood, stands=stands)
        return refused[0] if refused else None

    async def feedback(self, place: PlaceT, click: ActionClick) -> Reply | None:
        """Thumbs up / down: logged by the core; its thanks go to the clicker only (None for a
        duplicate)."""
        reply = await reply_of(lambda p: self.service.handle_action(click, p), _ignore,
                               conversation_id=self.platform.key(place).conversation_id, log=self.log)
        return None if reply.duplicate else reply


async def _nothing() -> None:
    return None


async def _ignore(event: ProgressEvent) -> None:
    return None
