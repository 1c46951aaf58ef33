"""Redis-backed stores for several bot instances (selected by REDIS_URL).

Same contracts as the memory/file stores. Keys live under one prefix (default ``omg:``):

    omg:conv:<id>        zlib(JSON) of a Conversation, expiring after the idle TTL
    omg:event:<key>      a platform event id seen recently (SET NX EX): de-duplication
"""

from __future__ import annotations

import zlib

from redis.asyncio import Redis

from core.models import Conversation, ConversationKey
from core.store.ids import check_id


class RedisConversationStore:
    def __init__(self, client: Redis, *, ttl_seconds: float = 3600.0, prefix: str = "omg:") -> None:
        self._redis = client
        self._ttl = max(1, int(ttl_seconds))
        self._prefix = prefix

    def _key(self, conversation_id: str) -> str:
        return f"{self._prefix}conv:{check_id(conversation_id)}"

    async def get(self, conversation_id: str) -> Conversation | None:
        key = self._key(conversation_id)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.get(key)
            pipe.expire(key, self._ttl)  # reading a conversation keeps it alive
            blob, _ = await pipe.execute()
        if blob is None:
            return None
        return Conversation.model_validate_json(zlib.decompress(blob))

    async def get_or_create(self, conversation_id: str, key: ConversationKey) -> Conversation:
        found = await self.get(conversation_id)
        return found if found is not None else Conversation(id=conversation_id, key=key)

    async def save(self, conversation: Conversation) -> None:
        blob = zlib.compress(conversation.model_dump_json(exclude_none=True).encode(), 1)
        await self._redis.set(self._key(conversation.id), blob, ex=self._ttl)

    async def delete(self, conversation_id: str) -> None:
        await self._redis.delete(self._key(conversation_id))

    async def close(self) -> None:
        """The client is shared and closed by its owner (the app)."""


class RedisEventDeduper:
    """First delivery wins across every instance: ``SET key 1 NX EX ttl`` is atomic in Redis."""

    def __init__(self, client: Redis, *, prefix: str = "omg:") -> None:
        self._redis = client
        self._prefix = prefix

    async def first_time(self, event_key: str, ttl_seconds: float = 600.0) -> bool:
        created = await self._redis.set(
            f"{self._prefix}event:{event_key}", b"1", nx=True, ex=max(1, int(ttl_seconds))
        )
        return bool(created)
