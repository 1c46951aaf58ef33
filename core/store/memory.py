"""In-memory stores: bounded, with an idle TTL. Conversations are kept compressed."""

from __future__ import annotations

import time
import zlib
from collections import OrderedDict
from collections.abc import Callable

from core.models import Conversation, ConversationKey
from core.store.ids import check_id
from core.store.merge import mark_saved, merge, saved


class MemoryConversationStore:
    """Least-recently-used map of conversation id -> compressed JSON.

    Conversations are stored serialized (zlib over JSON) rather than as live pydantic objects:
    1,000 conversations of 10 messages with repo lists take a few MB instead of tens, and every
    ``get`` returns a private copy, so callers cannot mutate shared state by accident.
    """

    def __init__(
        self,
        *,
        ttl_seconds: float = 3600.0,
        max_conversations: int = 10_000,
        max_messages: int = 50,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl = ttl_seconds
        self._max = max_conversations
        self._max_messages = max_messages
        self._clock = clock
        self._items: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    async def get(self, conversation_id: str) -> Conversation | None:
        check_id(conversation_id)
        entry = self._items.get(conversation_id)
        if entry is None:
            return None
        touched, blob = entry
        if self._clock() - touched > self._ttl:
            del self._items[conversation_id]
            return None
        self._items.move_to_end(conversation_id)
        return mark_saved(Conversation.model_validate_json(zlib.decompress(blob)))

    async def get_or_create(self, conversation_id: str, key: ConversationKey) -> Conversation:
        found = await self.get(conversation_id)
        return found if found is not None else Conversation(id=conversation_id, key=key)

    async def save(self, conversation: Conversation) -> None:
        check_id(conversation.id)
        entry = self._items.get(conversation.id)
        stored = Conversation.model_validate_json(zlib.decompress(entry[1])) if entry else None
        merged = merge(conversation, stored, self._max_messages)
        saved(conversation, merged)
        blob = zlib.compress(merged.model_dump_json(exclude_none=True).encode(), 1)
        self._items[conversation.id] = (self._clock(), blob)
        self._items.move_to_end(conversation.id)
        self._evict()

    async def delete(self, conversation_id: str) -> None:
        self._items.pop(conversation_id, None)

    async def close(self) -> None:
        self._items.clear()

    def _evict(self) -> None:
        now = self._clock()
        while self._items:
            oldest_id, (touched, _) = next(iter(self._items.items()))
            if len(self._items) > self._max or now - touched > self._ttl:
                del self._items[oldest_id]
            else:
                break


class MemoryEventDeduper:
    """Event ids seen recently, bounded; the single-process twin of the Redis deduper."""

    def __init__(self, *, max_keys: int = 50_000, clock: Callable[[], float] = time.monotonic):
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._max = max_keys
        self._clock = clock

    async def first_time(self, event_key: str, ttl_seconds: float = 600.0) -> bool:
        now = self._clock()
        expires = self._seen.get(event_key)
        if expires is not None and expires > now:
            return False
        self._seen[event_key] = now + ttl_seconds
        self._seen.move_to_end(event_key)
        while len(self._seen) > self._max:
            self._seen.popitem(last=False)
        return True
