"""Durable research across instances: runs whose executor died are finished by another one.

Each bot instance keeps a heartbeat in a shared ``Presence`` registry (``alive:<owner>`` in
Redis, renewed every third of ``heartbeat_seconds``) and, in servers (``omg run``), sweeps for
orphaned runs every ``interval`` seconds -- one instance per interval (a shared lock), so N
instances do not all scan. An EXECUTING session is orphaned when

* it has no lease (its executor stopped on shutdown after checkpointing), or
* its lease is past its time (a live executor renews it before every step), or
* its owner ran on this host and its process is gone, or has no heartbeat any more.

The takeover is one compare-and-swap that moves the lease from the dead owner to this instance
(two sweepers racing: one wins, the other sees a live owner and leaves it); then the executor
resumes from the first unfinished step. Finished steps are checkpointed in the session and each
step result is recorded once, so nothing is lost or done twice. A live owner's run is never
touched: its heartbeat and lease say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from core.errors import OmgError, is_expected, log_failure
from core.models import utcnow
from core.research.executor import lease_free
from core.models.research import ResearchSession, ResearchStatus
from core.research.service import ResearchService
from core.store.research import update

log = logging.getLogger("omg.research.takeover")
SWEEP_LOCK = "research-sweep"


class Presence(Protocol):
    async def beat(self, owner: str, ttl_seconds: float) -> None: ...

    async def alive(self, owner: str) -> bool: ...

    async def leave(self, owner: str) -> None: ...


class Locks(Protocol):
    async def acquire(self, name: str, ttl_seconds: float) -> str | None: ...

    async def release(self, name: str, token: str) -> bool: ...


class _Taken(Exception):
    """Internal control flow: the session changed hands (or finished) before we could take it
    over; never leaves this module."""


class Takeover:
    def __init__(
        self,
        service: ResearchService,
        *,
        presence: Presence | None = None,
        locks: Locks | None = None,
        interval: float = 5.0,
        heartbeat_seconds: float = 15.0,
    ) -> None:
        self.service = service
        self.executor = service.orchestrator.executor
        self.owner = self.executor.owner
        self.presence = presence
        self.locks = locks
        self.interval = interval
        self.heartbeat_seconds = heartbeat_seconds
        self.sweeping = False
        self.taken: list[str] = []  # sessions this instance took over (logs, tests)
        self._loop_task: asyncio.Task[None] | None = None
        self._runs: dict[str, asyncio.Task[None]] = {}

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self, *, sweep: bool = False) -> None:
        """Beat now, then keep beating in the background; ``sweep`` also looks for orphans."""
        self.sweeping = self.sweeping or (sweep and self.interval > 0)
        if self.presence is not None:
            await self.presence.beat(self.owner, self.heartbeat_seconds)
        if self._loop_task is None and (self.presence is not None or self.sweeping):
            self._loop_task = asyncio.create_task(self._loop(), name="research-takeover")

    async def drain(self, grace: float) -> int:
        """Shutdown, first part: stop sweeping at once; give the runs taken over ``grace``
        seconds, then cancel them (each one releases its lease after its last checkpoint, so
        another instance continues it at once). The heartbeat goes on: this instance's other
        runs (answers still finishing) must not look dead. Returns how many were cancelled."""
        self.sweeping = False
        runs = list(self._runs.values())
        if runs and grace > 0:
            await asyncio.wait(runs, timeout=grace)
        late = [task for task in runs if not task.done()]
        for task in late:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        return len(late)

    async def aclose(self) -> None:
        """Stop everything and leave the presence registry (the last step of a shutdown)."""
        await self.drain(0.0)
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
            self._loop_task = None
        if self.presence is not None:
            with contextlib.suppress(Exception):
                await self.presence.leave(self.owner)

    async def _loop(self) -> None:
        beat_every = self.heartbeat_seconds / 3
        next_sweep = time.monotonic()
        while True:
            tick = min(beat_every, self.interval) if self.sweeping else beat_every
            await asyncio.sleep(max(0.05, tick))
            try:
                if self.presence is not None:
                    await self.presence.beat(self.owner, self.heartbeat_seconds)
                if self.sweeping and time.monotonic() >= next_sweep:
                    next_sweep = time.monotonic() + self.interval
                    await self._sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the background loop's edge: Redis away a moment, a bug: next tick
                log.warning("research takeover sweep failed",
                            extra={"error": repr(exc)}, exc_info=not is_expected(exc))

    # -- sweeping ------------------------------------------------------------------------------

    async def _sweep_once(self) -> list[str]:
        if self.locks is None:
            return await self.sweep()
        token = await self.locks.acquire(SWEEP_LOCK, max(0.1, self.interval * 0.9))
        if token is None:
            return []  # another instance sweeps this interval
        return await self.sweep()  # the lock expires by itself: one sweep per interval in total

    async def sweep(self) -> list[str]:
        """One pass: take over every orphaned run; returns the ids taken over."""
        taken: list[str] = []
        for session in await self.service.store.list_sessions({ResearchStatus.EXECUTING}):
            if session.id in self._runs or not await self.orphaned(session):
                continue
            dead = session.lease.owner if session.lease else None
            try:
                await update(self.service.store, session.id, lambda s: self._transfer(s, dead))
            except (_Taken, OmgError):
                continue
            log.warning("taking over an orphaned research run",
                        extra={"session_id": session.id, "previous_owner": dead or "none"})
            self.taken.append(session.id)
            taken.append(session.id)
            task = asyncio.create_task(self._resume(session.id), name=f"research-takeover:{session.id}")
            self._runs[session.id] = task
            task.add_done_callback(lambda _t, sid=session.id: self._runs.pop(sid, None))
        return taken

    async def orphaned(self, session: ResearchSession) -> bool:
        lease = session.lease
        if session.status is not ResearchStatus.EXECUTING or session.id in self.executor.running:
            return False
        if lease is None:
            return True
        now = utcnow()
        if lease.owner == self.owner:  # ours: only if the run in this process stopped renewing it
            return lease.until <= now
        if lease_free(session, "", now):  # past its time, or a dead process on this host
            return True
        return self.presence is not None and not await self.presence.alive(lease.owner)

    def _transfer(self, session: ResearchSession, dead_owner: str | None) -> None:
        current = session.lease.owner if session.lease else None
        if session.status is not ResearchStatus.EXECUTING or current != dead_owner:
            raise _Taken()
        session.lease = self.executor.new_lease()

    async def _resume(self, session_id: str) -> None:
        try:
            done = await self.service.orchestrator.execute(session_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the edge of a background run: it is recorded on the session
            log_failure(log, "a research run taken over failed", exc, session_id=session_id)
            return
        try:
            await self.service.notify_once(done, self.service.final_reply(done, done.key.conversation_id))
        except Exception as exc:  # the edge of a background delivery: the report stays stored
            log.warning("could not deliver a research report after a takeover",
                        extra={"error": repr(exc)}, exc_info=not is_expected(exc))
