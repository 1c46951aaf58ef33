"""Conversations as JSON files under <data dir>/conversations/ (the embedded default)."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock
from pydantic import ValidationError

from core.errors import ConversationDamaged
from core.models import Conversation, ConversationKey
from core.store.atomic import write_atomic_sync
from core.store.ids import file_stem
from core.store.merge import mark_saved, merge, saved

log = logging.getLogger(__name__)


class FileConversationStore:
    """One file per conversation, written atomically; survives restarts.

    File names are hashes of the id, so no id can point outside the directory. A save is a
    read-merge-write under an OS file lock (``<file>.lock``), so several processes sharing the
    directory (two bot instances, ``omg ask`` run in parallel) merge their turns instead of
    overwriting each other. A damaged file (a disk error, a hand edit) is renamed to
    ``<file>.damaged-<UTC time>`` and kept for diagnosis; reading it raises
    ``ConversationDamaged`` so the turn can say the earlier history was lost.
    """

    def __init__(self, data_dir: Path, *, max_messages: int = 50) -> None:
        self._dir = Path(data_dir) / "conversations"
        self._dir.mkdir(parents=True, exist_ok=True)
        self._max_messages = max_messages
        self._locks: dict[str, asyncio.Lock] = {}

    def _path(self, conversation_id: str) -> Path:
        return self._dir / f"{file_stem(conversation_id)}.json"

    def _file_lock(self, path: Path) -> FileLock:
        return FileLock(path.with_name(path.name + ".lock"))

    async def get(self, conversation_id: str) -> Conversation | None:
        path = self._path(conversation_id)
        found, damaged = await asyncio.to_thread(self._read_locked, path)
        if damaged is not None:
            log.warning("conversation file unreadable; set aside",
                        extra={"id": conversation_id, "kept_as": damaged.name})
            raise ConversationDamaged()
        return mark_saved(found) if found is not None else None

    async def get_or_create(self, conversation_id: str, key: ConversationKey) -> Conversation:
        found = await self.get(conversation_id)
        return found if found is not None else Conversation(id=conversation_id, key=key)

    async def save(self, conversation: Conversation) -> None:
        path = self._path(conversation.id)
        lock = self._locks.setdefault(conversation.id, asyncio.Lock())
        async with lock:
            merged = await asyncio.to_thread(self._merge_locked, path, conversation)
        saved(conversation, merged)

    def _read_locked(self, path: Path) -> tuple[Conversation | None, Path | None]:
        with self._file_lock(path):
            return self._read(path)

    def _merge_locked(self, path: Path, conversation: Conversation) -> Conversation:
        with self._file_lock(path):
            stored, damaged = self._read(path)
            if damaged is not None:
                log.warning("conversation file unreadable; set aside",
                            extra={"id": conversation.id, "kept_as": damaged.name})
            merged = merge(conversation, stored, self._max_messages)
            write_atomic_sync(path, merged.model_dump_json(exclude_none=True).encode())
            return merged

    def _read(self, path: Path) -> tuple[Conversation | None, Path | None]:
        """The stored conversation, or (None, where the damaged file now is). Hold the lock."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None, None
        try:
            return Conversation.model_validate_json(raw), None
        except ValidationError:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            kept = path.with_name(f"{path.name}.damaged-{stamp}")
            path.rename(kept)
            return None, kept

    async def delete(self, conversation_id: str) -> None:
        path = self._path(conversation_id)
        await asyncio.to_thread(path.unlink, missing_ok=True)

    async def close(self) -> None:
        self._locks.clear()
