"""Which stores the app uses: files and memory by default, Redis when ``REDIS_URL`` is set.

    shared = await open_shared_state(env)      # raises StoreError when Redis is unreachable
    shared.conversations / deduper / research / edit_bucket / presence / locks
    await shared.ping()                         # health: the store answers (or raises)
    await shared.aclose()

Without ``REDIS_URL`` every field but ``deduper`` is None and each component keeps its embedded
default (conversations in files under OMG_DATA_DIR, research sessions as JSON files, a per-process
de-duplication memory, edits paced per process). With it, everything that must agree across
instances lives in one Redis under ``OMG_REDIS_PREFIX``. An unreachable Redis stops the start-up
with a clear message instead of silently splitting state between instances.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import StoreError
from core.store.base import ConversationStore, EventDeduper
from core.store.buckets import EditBucket
from core.store.memory import MemoryEventDeduper
from core.store.settings import StoreSettings

if TYPE_CHECKING:
    from core.store.research import ResearchStore
    from core.store.redis import RedisLocks, RedisPresence

log = logging.getLogger("omg.store")


@dataclass
class SharedState:
    settings: StoreSettings
    deduper: EventDeduper
    conversations: ConversationStore | None = None  # None: the app's file / memory store
    research: ResearchStore | None = None  # None: research sessions as files
    edit_bucket: EditBucket | None = None  # None: each process paces its own edits
    presence: RedisPresence | None = None
    locks: RedisLocks | None = None
    redis: Any = None  # redis.asyncio.Redis when REDIS_URL is set

    @property
    def kind(self) -> str:
        return "redis" if self.redis is not None else "files"

    async def ping(self, data_dir: Path | None = None) -> str:
        """Prove the store works (a write and a read); returns a label, raises on failure."""
        if self.redis is not None:
            key = f"{self.settings.prefix}health:{secrets.token_hex(4)}"
            await self.redis.set(key, b"1", px=5000)
            if await self.redis.get(key) != b"1":
                raise StoreError("Redis did not return what was written.")
            await self.redis.delete(key)
            return f"redis at {self.settings.redis_label}"
        directory = Path(data_dir or ".data")
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".health-{os.getpid()}"
        probe.write_bytes(b"ok")
        probe.unlink()
        return f"files under {directory}"

    async def aclose(self) -> None:
        if self.redis is not None:
            await self.redis.aclose()
            self.redis = None


async def open_shared_state(
    env: Mapping[str, str], *, max_messages: int = 50, conversation_ttl: float = 3600.0,
    review_ttl: float = 7 * 86400.0,
) -> SharedState:
    settings = StoreSettings.from_env(env)
    if not settings.uses_redis:
        return SharedState(settings=settings, deduper=MemoryEventDeduper())
    from redis.asyncio import BlockingConnectionPool, Redis
    from redis.exceptions import RedisError

    from core.store.research_redis import RedisResearchStore
    from core.store.buckets import RedisEditBucket
    from core.store.redis import (
        RedisConversationStore,
        RedisEventDeduper,
        RedisLocks,
        RedisPresence,
    )

    try:  # a bounded pool that waits for a free connection: bursts queue instead of failing
        pool = BlockingConnectionPool.from_url(
            settings.redis_url or "", max_connections=settings.max_connections, timeout=10,
            socket_connect_timeout=settings.connect_timeout, socket_keepalive=True,
            health_check_interval=30,
        )
        client = Redis.from_pool(pool)
    except ValueError:
        raise StoreError(
            f"REDIS_URL is not a valid Redis URL ({settings.redis_label}); expected "
            "redis://[:password@]host:6379/0 or rediss://..."
        ) from None
    try:
        await client.ping()
    except (RedisError, OSError) as exc:
        await client.aclose()
        raise StoreError(
            f"Could not reach Redis at {settings.redis_label} ({type(exc).__name__}). "
            "Check REDIS_URL, or unset it to keep state in files on this machine."
        ) from None
    prefix = settings.prefix
    log.info("shared state in redis", extra={"redis": settings.redis_label, "prefix": prefix})
    return SharedState(
        settings=settings,
        deduper=RedisEventDeduper(client, prefix=prefix),
        conversations=RedisConversationStore(
            client, ttl_seconds=conversation_ttl, prefix=prefix, max_messages=max_messages
        ),
        research=RedisResearchStore(
            client, prefix=prefix, retention_seconds=settings.research_retention_seconds,
            wait_ttl_seconds=max(review_ttl, 3600.0),
        ),
        edit_bucket=RedisEditBucket(client, prefix=prefix),
        presence=RedisPresence(client, prefix=prefix),
        locks=RedisLocks(client, prefix=prefix),
        redis=client,
    )
