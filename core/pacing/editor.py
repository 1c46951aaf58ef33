"""A platform-neutral coalescing editor: paces edits of chat messages.

Chat platforms rate-limit message edits (Slack ``chat.update``, Discord ``PATCH messages``), and a
bot that edits on every progress event floods them, hits 429s and, with concurrent edits, can even
show an older state last. ``CoalescingEditor`` owns the pacing for every message it is given:

* at most one edit per message per ``min_interval`` seconds (default 1 s), counted from the
  platform's answer to the previous edit, so network jitter cannot bring two edits closer;
* updates submitted while an edit is pending are coalesced: the latest content wins;
* one worker per message sends the edits sequentially, so they never land out of order;
* when the platform says "retry after N seconds" (the ``edit`` callback raises ``RetryAfter``),
  nothing is sent to that message until then, and the latest content is sent afterwards.

Several instances editing the same message (a plan posted by one, decided on another) share a
``bucket`` (``core.store.buckets.EditBucket``, Redis with ``REDIS_URL``): each edit also reserves
its slot there, so the message gets at most about one edit per ``min_interval`` in total, and a
Retry-After one instance hears holds every instance back. Without a bucket each process paces
alone. A failing bucket never stops an edit: the local pacing still holds.

A ``budget`` (``core.pacing.EditBudget``) with ``group`` adds a limit per group of messages
beside the per-message pacing: Slack's chat.update per workspace, Discord's 5 edits per 5 s per
channel.

The contract with a platform is one callback::

    async def edit(ref: MessageRef, content: Content) -> None  # raise RetryAfter(seconds) on a 429

``submit(ref, content)`` is for progress (fire and forget, never raises, returns at once);
``finish(ref, content)`` sends the final content (superseding anything pending), waits until it
is delivered, and raises what the last attempt raised if it could not be delivered. The clock
and the sleep are injectable so the pacing can be tested without waiting.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from core.pacing.budget import EditBudget
from core.errors import PlatformError, redis_errors

log = logging.getLogger("omg.throttle")

Ref = TypeVar("Ref", bound=Hashable)
Content = TypeVar("Content")


class SharedBucket(Protocol):
    """Edit slots shared across instances (``core.store.buckets.EditBucket`` satisfies it)."""

    async def reserve(self, key: str, interval: float) -> float: ...

    async def block(self, key: str, seconds: float) -> None: ...


def bucket_key(ref: Hashable) -> str:
    """``StatusRef("C1", "171.2")`` -> ``"C1:171.2"``: the same message, the same key everywhere."""
    if isinstance(ref, tuple):
        return ":".join(str(part) for part in ref)
    return str(ref)


class RetryAfter(PlatformError):
    """Raised by an ``edit`` callback when the platform asks to wait ``seconds`` before retrying."""

    code = "platform_rate_limited"

    def __init__(self, seconds: float) -> None:
        self.seconds = max(0.0, float(seconds))
        super().__init__(f"rate limited: retry after {self.seconds:g} s")


@dataclass
class _Message(Generic[Content]):
    opened_at: float
    last_edit: float | None = None  # when the platform answered the last edit attempt
    blocked_until: float = 0.0  # a platform-reported Retry-After
    pending: Content | None = None
    has_pending: bool = False
    final: bool = False  # the pending content is the final one
    done: asyncio.Future[None] | None = None  # resolved when the final content is delivered
    worker: asyncio.Task[None] | None = None
    sleeping: bool = False  # the worker is waiting for its slot (safe to restart)
    closed: bool = False
    failures: int = 0
    edits: int = 0
    edit_times: list[float] = field(default_factory=list)


class CoalescingEditor(Generic[Ref, Content]):
    def __init__(
        self,
        edit: Callable[[Ref, Content], Awaitable[None]],
        *,
        min_interval: float = 1.0,
        first_edit_delay: float | None = None,
        max_retries: int = 5,
        max_recent: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        bucket: SharedBucket | None = None,
        key: Callable[[Ref], str] = bucket_key,
        budget: EditBudget | None = None,
        group: Callable[[Ref], Hashable] = lambda ref: None,
    ) -> None:
        """``first_edit_delay``: how long after ``open`` the first *progress* edit may go out
        (default ``min_interval``), so a fast answer replaces the status without a flicker of
        intermediate states. The final content is only paced against earlier edits.
        ``budget``: a limit across messages (``group(ref)`` names the message's group, e.g.
        the workspace); progress waits for it, finals only count against it."""
        self._edit = edit
        self.min_interval = min_interval
        self.first_edit_delay = min_interval if first_edit_delay is None else first_edit_delay
        self.max_retries = max_retries
        self._clock = clock
        self._sleep = sleep
        self._bucket = bucket
        self._key = key
        self._budget = budget
        self._group = group
        self._messages: dict[Ref, _Message[Content]] = {}
        # when recently finished messages were last edited: a later edit of the same message
        # (e.g. a plan whose buttons are removed after a click) is still paced
        self._recent: OrderedDict[Ref, float] = OrderedDict()
        self._max_recent = max_recent

    # -- public API --------------------------------------------------------------------------

    def open(self, ref: Ref) -> None:
        """Start pacing ``ref`` (a message that was just posted). Idempotent."""
        if ref not in self._messages:
            last_edit = self._recent.pop(ref, None)
            self._messages[ref] = _Message(opened_at=self._clock(), last_edit=last_edit)

    def submit(self, ref: Ref, content: Content) -> None:
        """Queue a progress update; the latest one wins. Ignored while a final edit is pending."""
        state = self._messages.get(ref)
        if state is None:
            self.open(ref)
            state = self._messages[ref]
        if state.closed or state.final:
            return
        state.pending, state.has_pending = content, True
        self._ensure_worker(ref, state)

    async def finish(self, ref: Ref, content: Content) -> None:
        """Deliver ``content`` as the message's final state and stop pacing it.

        Waits for any edit in flight, then for the message's slot; raises the last error if the
        content could not be delivered (the caller then posts it as a new message instead).
        """
        while (previous := self._messages.get(ref)) is not None and previous.done is not None:
            await asyncio.wait([previous.done])  # another final for this message: go after it
        self.open(ref)
        state = self._messages[ref]
        state.pending, state.has_pending, state.final = content, True, True
        state.failures = 0
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        state.done = done
        if state.worker is not None and state.sleeping:
            # the worker waits for a progress slot; the final content may be due sooner
            state.worker.cancel()
            state.worker = None
        self._ensure_worker(ref, state)
        await done

    def discard(self, ref: Ref) -> None:
        """Forget ``ref``: drop pending progress (e.g. the message was deleted)."""
        state = self._messages.get(ref)
        if state is None:
            return
        self._forget(ref, state)
        state.closed = True
        if state.worker is not None and state.sleeping:
            state.worker.cancel()
        if state.done is not None and not state.done.done():
            state.done.set_exception(RuntimeError("message discarded"))

    def edit_times(self, ref: Ref) -> list[float]:
        """When each edit of ``ref`` started (for tests and benchmarks); [] once forgotten."""
        state = self._messages.get(ref)
        return list(state.edit_times) if state else []

    def __len__(self) -> int:
        return len(self._messages)

    async def aclose(self) -> None:
        """Cancel every worker; pending progress is dropped, pending finals fail."""
        for ref in list(self._messages):
            state = self._messages[ref]
            if state.worker is not None:
                state.worker.cancel()
            if state.done is not None and not state.done.done():
                state.done.set_exception(RuntimeError("editor closed"))
        workers = [s.worker for s in self._messages.values() if s.worker is not None]
        self._messages.clear()
        await asyncio.gather(*workers, return_exceptions=True)

    def _forget(self, ref: Ref, state: _Message[Content]) -> None:
        if self._messages.get(ref) is state:
            del self._messages[ref]
        if state.last_edit is not None:
            self._recent[ref] = state.last_edit
            self._recent.move_to_end(ref)
            while len(self._recent) > self._max_recent:
                self._recent.popitem(last=False)

    # -- the per-message worker --------------------------------------------------------------

    def _ensure_worker(self, ref: Ref, state: _Message[Content]) -> None:
        if state.worker is None or state.worker.done():
            state.worker = asyncio.create_task(self._run(ref, state), name=f"edit:{ref!r}")

    def _due(self, state: _Message[Content]) -> float:
        due = state.blocked_until
        if state.last_edit is not None:
            due = max(due, state.last_edit + self.min_interval)
        elif not state.final:
            due = max(due, state.opened_at + self.first_edit_delay)
        return due

    async def _run(self, ref: Ref, state: _Message[Content]) -> None:
        while state.has_pending and not state.closed:
            wait = self._due(state) - self._clock()
            if wait <= 0 and self._budget is not None:
                wait = self._budget.reserve(self._group(ref), final=state.final)
            if wait > 0:
                me = asyncio.current_task()
                state.sleeping = True
                try:
                    await self._sleep(wait)
                finally:
                    if state.worker is me:  # a replaced (cancelled) worker must not clear the flag
                        state.sleeping = False
                continue  # re-check: a final may have arrived, or a Retry-After moved the slot
            if self._bucket is not None:
                await self._shared_slot(ref)
                if state.closed or not state.has_pending:
                    continue
            content, final = state.pending, state.final
            state.pending, state.has_pending = None, False
            started = self._clock()
            try:
                await self._edit(ref, content)  # type: ignore[arg-type]
            except RetryAfter as exc:
                state.blocked_until = self._clock() + exc.seconds
                await self._share_block(ref, exc.seconds)
                state.failures += 1
                if not state.has_pending:  # nothing newer arrived: retry this content
                    state.pending, state.has_pending = content, True
                if state.failures > self.max_retries:
                    if final:
                        state.pending, state.has_pending = None, False
                        self._resolve(ref, state, exc)
                        return
                    if not state.final:  # give up on progress; a pending final still goes out
                        state.pending, state.has_pending = None, False
                        log.warning("progress edit dropped after retries", extra={"error": repr(exc)})
                continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a failed progress edit must not stop the turn
                state.last_edit = self._clock()
                if final:
                    self._resolve(ref, state, exc)
                    return
                log.warning("progress edit failed", extra={"error": repr(exc)})
                continue
            # Pace from the moment the platform answered: the next edit then reaches it at least
            # ``min_interval`` after this one did, whatever the network jitter.
            state.last_edit = self._clock()
            state.failures = 0
            state.edits += 1
            state.edit_times.append(started)
            if final:
                self._resolve(ref, state, None)
                return

    async def _shared_slot(self, ref: Ref) -> None:
        """Reserve this edit's slot in the shared bucket and wait for it. Not a ``sleeping``
        wait: a final arriving meanwhile goes out in this slot instead of losing it."""
        assert self._bucket is not None
        try:
            delay = await self._bucket.reserve(self._key(ref), self.min_interval)
        except asyncio.CancelledError:
            raise
        except (*redis_errors(), OSError) as exc:  # the shared bucket is optional pacing
            log.warning("shared edit bucket unavailable", extra={"error": repr(exc)})
            return
        if delay > 0:
            await self._sleep(delay)

    async def _share_block(self, ref: Ref, seconds: float) -> None:
        if self._bucket is None:
            return
        try:
            await self._bucket.block(self._key(ref), seconds)
        except asyncio.CancelledError:
            raise
        except (*redis_errors(), OSError) as exc:  # the shared bucket is optional pacing
            log.warning("shared edit bucket unavailable", extra={"error": repr(exc)})

    def _resolve(self, ref: Ref, state: _Message[Content], exc: Exception | None) -> None:
        """The final content was delivered (or given up): stop pacing, wake ``finish``."""
        state.closed = True
        self._forget(ref, state)
        if state.done is None or state.done.done():
            return
        if exc is None:
            state.done.set_result(None)
        else:
            state.done.set_exception(exc)
