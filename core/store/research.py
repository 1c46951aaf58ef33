"""Research session storage: one JSON file per session, with optimistic version checks.

The contract is shaped for several instances (a Redis implementation plugs in later):
``save(session, expected_version=n)`` writes only if the stored version is still ``n`` and
raises ``VersionConflict`` otherwise, so every decision (approve, revise, cancel, a step
checkpoint) is a compare-and-swap: two clicks racing for one approval -> exactly one wins.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import time
import uuid
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Protocol

from pydantic import ValidationError

from core.errors import InvalidId, SessionNotFound, VersionConflict
from core.models import utcnow
from core.models.research import ResearchSession, ResearchStatus
from core.store.atomic import write_atomic_sync
from core.store.ids import check_id, file_stem

log = logging.getLogger("omg.research.store")

Writer = Callable[[Path, bytes], None]


def check_session_id(value: str) -> str:
    """A canonical lowercase UUID, or InvalidId: no id can name a path outside the directory."""
    check_id(value)
    try:
        canonical = str(uuid.UUID(value))
    except (ValueError, AttributeError, TypeError):
        raise InvalidId() from None
    if canonical != value:
        raise InvalidId()
    return value


def new_session_id() -> str:
    return str(uuid.uuid4())


class ResearchStore(Protocol):
    async def get(self, session_id: str) -> ResearchSession:
        """The stored session; SessionNotFound if absent, InvalidId for a hostile id."""
        ...

    async def save(self, session: ResearchSession, *, expected_version: int) -> ResearchSession:
        """Write if the stored version is ``expected_version`` (0: must not exist yet).

        On success ``session.version`` becomes ``expected_version + 1`` and is returned;
        otherwise VersionConflict and nothing is written.
        """
        ...

    async def list_sessions(
        self, statuses: Collection[ResearchStatus] | None = None
    ) -> list[ResearchSession]: ...

    async def set_feedback_wait(self, conversation_id: str, session_id: str | None) -> None:
        """Remember (or forget) which session waits for feedback in a conversation."""
        ...

    async def feedback_wait(self, conversation_id: str) -> str | None: ...

    async def close(self) -> None: ...


def _stamp(session: ResearchSession, expected_version: int) -> bytes:
    session.version = expected_version + 1
    session.updated_at = utcnow()
    return session.model_dump_json(by_alias=True, exclude_none=True).encode()


class FileResearchStore:
    """``<data dir>/research/<uuid>.json``, written atomically (temp + fsync + rename).

    The version check and the write happen under an exclusive ``flock`` on a per-session lock
    file, so two processes sharing the directory (the bot and ``omg research --approve``) are
    safe too. ``writer`` is injectable so tests can simulate a crash between write and rename.
    """

    def __init__(self, data_dir: Path, *, writer: Writer = write_atomic_sync) -> None:
        self.dir = Path(data_dir) / "research"
        self._locks_dir = self.dir / ".locks"
        self._waits_dir = self.dir / "awaiting"
        for path in (self.dir, self._locks_dir, self._waits_dir):
            path.mkdir(parents=True, exist_ok=True)
        self._writer = writer
        self._locks: dict[str, asyncio.Lock] = {}
        self._sweep_temp_files()

    def path(self, session_id: str) -> Path:
        return self.dir / f"{check_session_id(session_id)}.json"

    async def get(self, session_id: str) -> ResearchSession:
        path = self.path(session_id)
        raw = await asyncio.to_thread(_read, path)
        if raw is None:
            raise SessionNotFound()
        try:
            return ResearchSession.model_validate_json(raw)
        except ValidationError:
            log.warning("research session file unreadable", extra={"session_id": session_id})
            raise SessionNotFound() from None

    async def save(self, session: ResearchSession, *, expected_version: int) -> ResearchSession:
        path = self.path(session.id)
        lock = self._locks.setdefault(session.id, asyncio.Lock())
        async with lock:
            await asyncio.to_thread(self._save_sync, path, session, expected_version)
        return session

    def _save_sync(self, path: Path, session: ResearchSession, expected_version: int) -> None:
        with open(self._locks_dir / f"{session.id}.lock", "a+b") as lock_file:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
            try:
                raw = _read(path)
                stored = _version_of(raw) if raw is not None else 0
                if stored != expected_version:
                    raise VersionConflict()
                previous = session.version
                data = _stamp(session, expected_version)
                try:
                    self._writer(path, data)
                except BaseException:
                    session.version = previous
                    raise
            finally:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)

    async def list_sessions(
        self, statuses: Collection[ResearchStatus] | None = None
    ) -> list[ResearchSession]:
        def _scan() -> list[bytes]:
            return [
                raw for p in sorted(self.dir.glob("*.json"))
                if not p.name.startswith(".") and (raw := _read(p)) is not None
            ]

        sessions: list[ResearchSession] = []
        for raw in await asyncio.to_thread(_scan):
            try:
                session = ResearchSession.model_validate_json(raw)
            except ValidationError:
                log.warning("skipping an unreadable research session file")
                continue
            if statuses is None or session.status in statuses:
                sessions.append(session)
        return sessions

    def _wait_path(self, conversation_id: str) -> Path:
        return self._waits_dir / f"{file_stem(conversation_id)}.json"

    async def set_feedback_wait(self, conversation_id: str, session_id: str | None) -> None:
        path = self._wait_path(conversation_id)
        if session_id is None:
            await asyncio.to_thread(path.unlink, missing_ok=True)
            return
        payload = json.dumps({"sessionId": check_session_id(session_id)}).encode()
        await asyncio.to_thread(self._writer, path, payload)

    async def feedback_wait(self, conversation_id: str) -> str | None:
        raw = await asyncio.to_thread(_read, self._wait_path(conversation_id))
        if raw is None:
            return None
        try:
            return check_session_id(json.loads(raw)["sessionId"])
        except (ValueError, KeyError, TypeError, InvalidId):
            return None

    async def close(self) -> None:
        self._locks.clear()

    def _sweep_temp_files(self, older_than: float = 3600.0) -> None:
        """Temp files left by a crash mid-write (the real file is intact beside them)."""
        cutoff = time.time() - older_than
        for directory in (self.dir, self._waits_dir):
            for tmp in directory.glob(".*.tmp"):
                try:
                    if tmp.stat().st_mtime < cutoff:
                        tmp.unlink()
                except FileNotFoundError:
                    pass


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _version_of(raw: bytes) -> int:
    try:
        return int(json.loads(raw).get("version", 0))
    except (ValueError, AttributeError, TypeError):
        return -1  # unreadable: nobody's expected version matches, nothing overwrites it blindly


class MemoryResearchStore:
    """The same contract in memory (``omg plan``, unit tests, benchmarks)."""

    def __init__(self) -> None:
        self._items: dict[str, str] = {}
        self._waits: dict[str, str] = {}

    async def get(self, session_id: str) -> ResearchSession:
        raw = self._items.get(check_session_id(session_id))
        if raw is None:
            raise SessionNotFound()
        return ResearchSession.model_validate_json(raw)

    async def save(self, session: ResearchSession, *, expected_version: int) -> ResearchSession:
        raw = self._items.get(check_session_id(session.id))
        stored = _version_of(raw.encode()) if raw is not None else 0
        if stored != expected_version:
            raise VersionConflict()
        self._items[session.id] = _stamp(session, expected_version).decode()
        return session

    async def list_sessions(
        self, statuses: Collection[ResearchStatus] | None = None
    ) -> list[ResearchSession]:
        sessions = [ResearchSession.model_validate_json(raw) for raw in self._items.values()]
        return [s for s in sessions if statuses is None or s.status in statuses]

    async def set_feedback_wait(self, conversation_id: str, session_id: str | None) -> None:
        check_id(conversation_id)
        if session_id is None:
            self._waits.pop(conversation_id, None)
        else:
            self._waits[conversation_id] = check_session_id(session_id)

    async def feedback_wait(self, conversation_id: str) -> str | None:
        return self._waits.get(conversation_id)

    async def close(self) -> None:
        self._items.clear()
        self._waits.clear()


async def update(
    store: ResearchStore,
    session_id: str,
    change: Callable[[ResearchSession], object],
    *,
    attempts: int = 8,
) -> ResearchSession:
    """Read, apply ``change``, write with the version check; re-read and retry on a conflict.

    ``change`` may raise (IllegalTransition, StaleAction, ...): then nothing is written.
    """
    for _ in range(attempts):
        session = await store.get(session_id)
        expected = session.version
        change(session)
        try:
            return await store.save(session, expected_version=expected)
        except VersionConflict:
            await asyncio.sleep(0.005)
    raise VersionConflict()
