"""Conversations as JSON files under <data dir>/conversations/ (the embedded default)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from pydantic import ValidationError

from core.models import Conversation, ConversationKey
from core.store.atomic import read_bytes, write_atomic
from core.store.ids import file_stem

log = logging.getLogger(__name__)


class FileConversationStore:
    """One file per conversation, written atomically; survives restarts.

    File names are hashes of the id, so no id can point outside the directory. A corrupt file
    (a disk error, a hand edit) is logged and treated as a new conversation, never a crash.
    """

    def __init__(self, data_dir: Path) -> None:
        self._dir = Path(data_dir) / "conversations"
        self._dir.mkdir(parents=True, exist_ok=True)
        self._locks: dict[str, asyncio.Lock] = {}

    def _path(self, conversation_id: str) -> Path:
        return self._dir / f"{file_stem(conversation_id)}.json"

    async def get(self, conversation_id: str) -> Conversation | None:
        raw = await read_bytes(self._path(conversation_id))
        if raw is None:
            return None
        try:
            return Conversation.model_validate_json(raw)
        except ValidationError:
            log.warning("conversation file unreadable, starting fresh", extra={"id": conversation_id})
            return None

    async def get_or_create(self, conversation_id: str, key: ConversationKey) -> Conversation:
        found = await self.get(conversation_id)
        return found if found is not None else Conversation(id=conversation_id, key=key)

    async def save(self, conversation: Conversation) -> None:
        path = self._path(conversation.id)
        lock = self._locks.setdefault(conversation.id, asyncio.Lock())
        async with lock:
            await write_atomic(path, conversation.model_dump_json(exclude_none=True).encode())

    async def delete(self, conversation_id: str) -> None:
        path = self._path(conversation_id)
        await asyncio.to_thread(path.unlink, missing_ok=True)

    async def close(self) -> None:
        self._locks.clear()
