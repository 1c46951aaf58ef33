"""GitHub responses shared by every instance through Redis (``REDIS_URL``).

The client keeps its in-process cache in front (``core.github.cache``); on a miss it asks the
shared cache before GitHub, and stores what it fetched there, so a repository one instance
fetched costs the others nothing while the entry is fresh. Bounded on both axes: an entry lives
at most ``max_ttl`` seconds (Redis expires it; a caller's shorter TTL decides freshness on
read) and bodies over ``max_bytes`` are not shared (a huge README stays per instance).

Single-flight across instances: before fetching, an instance takes a short Redis lock on the
key (``SET NX PX``); the others wait for the entry to appear (polling briefly) instead of
making the same call. If the holder dies the lock expires after ``lock_seconds`` and the next
instance fetches. Within one instance, the client's in-flight map already shares calls.

Redis failures never fail a turn: the cache then behaves as a miss (one log line).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from core.errors import redis_errors

log = logging.getLogger("omg.github.shared")


@dataclass(frozen=True, slots=True)
class SharedEntry:
    status: int
    body: bytes
    headers: dict[str, str]
    stored_at: float  # wall-clock seconds: instances do not share a monotonic clock


class SharedCache(Protocol):
    async def get(self, key: str, ttl: float) -> SharedEntry | None:
        """The entry when it is younger than ``ttl`` seconds."""
        ...

    async def put(self, key: str, status: int, body: bytes, headers: dict[str, str],
                  ttl: float) -> None: ...

    def single_flight(self, key: str) -> Any:
        """An async context manager: held while this instance fetches ``key``."""
        ...


class RedisSharedCache:
    def __init__(
        self, redis: Any, *, prefix: str = "omg:", max_ttl: float = 3600.0,
        max_bytes: int = 512_000, lock_seconds: float = 10.0, poll_seconds: float = 0.05,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._redis = redis
        self._prefix = f"{prefix}gh:"
        self._max_ttl = max_ttl
        self._max_bytes = max_bytes
        self._lock_ms = int(lock_seconds * 1000)
        self._poll = poll_seconds
        self._clock = clock

    async def get(self, key: str, ttl: float) -> SharedEntry | None:
        try:
            raw = await self._redis.get(self._prefix + key)
        except (*redis_errors(), OSError) as exc:  # an unreachable Redis is a cache miss, not a failed turn
            log.warning("github.shared_cache_unavailable", extra={"error": type(exc).__name__})
            return None
        if raw is None:
            return None
        header, _, body = raw.partition(b"\n")
        meta = json.loads(header)
        entry = SharedEntry(meta["status"], body, meta["headers"], meta["at"])
        return entry if self._clock() - entry.stored_at < ttl else None

    async def put(self, key: str, status: int, body: bytes, headers: dict[str, str],
                  ttl: float) -> None:
        if len(body) > self._max_bytes or ttl <= 0:
            return
        meta = json.dumps({"status": status, "headers": headers, "at": self._clock()})
        seconds = max(1, int(min(ttl, self._max_ttl)))
        try:
            await self._redis.set(self._prefix + key, meta.encode() + b"\n" + body, ex=seconds)
        except (*redis_errors(), OSError) as exc:
            log.warning("github.shared_cache_unavailable", extra={"error": type(exc).__name__})

    @asynccontextmanager
    async def single_flight(self, key: str) -> AsyncIterator[None]:
        lock = f"{self._prefix}lock:{key}"
        token = secrets.token_hex(8)
        deadline = self._clock() + self._lock_ms / 1000
        held = False
        try:
            while not held and self._clock() < deadline:
                held = bool(await self._redis.set(lock, token, nx=True, px=self._lock_ms))
                if not held:  # another instance is fetching: its entry will appear
                    if await self._redis.exists(self._prefix + key):
                        break
                    await asyncio.sleep(self._poll)
        except (*redis_errors(), OSError) as exc:
            log.warning("github.shared_cache_unavailable", extra={"error": type(exc).__name__})
        try:
            yield
        finally:
            if held:
                try:
                    if await self._redis.get(lock) == token.encode():
                        await self._redis.delete(lock)
                except (*redis_errors(), OSError):
                    log.warning("github.shared_cache_unlock_failed")
