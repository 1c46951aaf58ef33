"""Redis-backed stores for several bot instances (selected by REDIS_URL).

Same contracts as the memory/file stores. Keys live under one prefix (default ``omg:``):

    omg:conv:<id>          zlib(JSON) of a Conversation, expiring after the idle TTL
    omg:event:<key>        a platform event id seen recently (SET NX EX): de-duplication
    omg:lock:<name>        a holder's token while a lock is held (SET NX PX; only it releases)
    omg:alive:<owner>      an instance's heartbeat (SET EX); gone = the instance is gone
    omg:research:...       research sessions (core.store.research_redis)
    omg:edit:<message>     the next free edit slot of one chat message (core.store.buckets)

Two instances may answer in the same thread at the same moment; a conversation save is a
WATCH/MULTI transaction that merges what the other instance appended meanwhile instead of
overwriting it (``core.store.merge``), so no exchange and no cost is lost.
"""

from __future__ import annotations

import logging
import secrets
import zlib

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import WatchError

from core.errors import VersionConflict
from core.models import Conversation, ConversationKey
from core.store.ids import check_id
from core.store.merge import mark_saved, merge, saved

log = logging.getLogger("omg.store.redis")

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


class RedisConversationStore:
    def __init__(
        self,
        client: Redis,
        *,
        ttl_seconds: float = 3600.0,
        prefix: str = "omg:",
        max_messages: int = 50,
        attempts: int = 10,
    ) -> None:
        self._redis = client
        self._ttl = max(1, int(ttl_seconds))
        self._prefix = prefix
        self._max_messages = max_messages
        self._attempts = attempts

    def _key(self, conversation_id: str) -> str:
        return f"{self._prefix}conv:{check_id(conversation_id)}"

    async def get(self, conversation_id: str) -> Conversation | None:
        key = self._key(conversation_id)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.get(key)
            pipe.expire(key, self._ttl)  # reading a conversation keeps it alive
            blob, _ = await pipe.execute()
        found = _decode(blob, conversation_id)
        return mark_saved(found) if found is not None else None

    async def get_or_create(self, conversation_id: str, key: ConversationKey) -> Conversation:
        found = await self.get(conversation_id)
        return found if found is not None else Conversation(id=conversation_id, key=key)

    async def save(self, conversation: Conversation) -> None:
        key = self._key(conversation.id)
        for _ in range(self._attempts):
            try:
                async with self._redis.pipeline(transaction=True) as pipe:
                    await pipe.watch(key)
                    stored = _decode(await pipe.get(key), conversation.id)
                    merged = merge(conversation, stored, self._max_messages)
                    pipe.multi()
                    pipe.set(key, _encode(merged), ex=self._ttl)
                    await pipe.execute()
                saved(conversation, merged)
                return
            except WatchError:  # another instance saved this conversation meanwhile: merge again
                continue
        raise VersionConflict()

    async def delete(self, conversation_id: str) -> None:
        await self._redis.delete(self._key(conversation_id))

    async def close(self) -> None:
        """The client is shared and closed by its owner (the app)."""


def _encode(conversation: Conversation) -> bytes:
    return zlib.compress(conversation.model_dump_json(exclude_none=True).encode(), 1)


def _decode(blob: bytes | None, conversation_id: str) -> Conversation | None:
    if blob is None:
        return None
    try:
        return Conversation.model_validate_json(zlib.decompress(blob))
    except (zlib.error, ValidationError, ValueError):
        log.warning("conversation in redis unreadable, starting fresh", extra={"id": conversation_id})
        return None


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


class RedisLocks:
    """Named locks shared by every instance, each held for a bounded time.

    ``acquire`` returns a token (``SET NX PX``) or None when someone else holds the lock; only
    the token's holder can ``extend`` or ``release`` it (compare-and-delete in one script), so a
    holder whose lock already expired can never release the next holder's.
    """

    def __init__(self, client: Redis, *, prefix: str = "omg:") -> None:
        self._redis = client
        self._prefix = prefix
        self._release = client.register_script(_RELEASE)
        self._extend = client.register_script(_EXTEND)

    def _key(self, name: str) -> str:
        return f"{self._prefix}lock:{name}"

    async def acquire(self, name: str, ttl_seconds: float) -> str | None:
        token = secrets.token_hex(8)
        got = await self._redis.set(self._key(name), token, nx=True, px=max(1, int(ttl_seconds * 1000)))
        return token if got else None

    async def extend(self, name: str, token: str, ttl_seconds: float) -> bool:
        return bool(await self._extend(keys=[self._key(name)], args=[token, max(1, int(ttl_seconds * 1000))]))

    async def release(self, name: str, token: str) -> bool:
        return bool(await self._release(keys=[self._key(name)], args=[token]))


class RedisPresence:
    """Which bot instances are alive: each one renews ``alive:<owner>`` well within its TTL."""

    def __init__(self, client: Redis, *, prefix: str = "omg:") -> None:
        self._redis = client
        self._prefix = prefix

    def _key(self, owner: str) -> str:
        return f"{self._prefix}alive:{owner}"

    async def beat(self, owner: str, ttl_seconds: float) -> None:
        await self._redis.set(self._key(owner), b"1", px=max(1, int(ttl_seconds * 1000)))

    async def alive(self, owner: str) -> bool:
        return bool(await self._redis.exists(self._key(owner)))

    async def leave(self, owner: str) -> None:
        await self._redis.delete(self._key(owner))
