"""Rate-limit buckets for outgoing message edits, shareable across bot instances.

Chat platforms allow about one edit per message per second. One process paces its own edits
(``core.pacing.CoalescingEditor``); when several instances may edit the same message (a plan
posted by A, decided on B), they also reserve each edit's slot in a shared bucket::

    delay = await bucket.reserve("slack:C1:1712.0001", interval=1.0)  # wait, then edit
    await bucket.block("slack:C1:1712.0001", 30)                        # the platform said 429

``reserve`` hands out slots at least ``interval`` apart per key, whoever asks; ``block`` moves
the key's next slot past a platform's Retry-After for everyone. The Redis bucket uses the Redis
server's clock, so instances with skewed clocks still agree.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis


class EditBucket(Protocol):
    async def reserve(self, key: str, interval: float) -> float:
        """Take the next edit slot of ``key``; returns how many seconds to wait before using it."""
        ...

    async def block(self, key: str, seconds: float) -> None:
        """No slot for ``key`` is handed out earlier than ``seconds`` from now."""
        ...


class LocalEditBucket:
    """The same slots within one process (bounded; the default needs none: editors pace alone)."""

    def __init__(self, *, max_keys: int = 20_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._next: OrderedDict[str, float] = OrderedDict()
        self._max = max_keys
        self._clock = clock

    async def reserve(self, key: str, interval: float) -> float:
        now = self._clock()
        slot = max(now, self._next.get(key, now))
        self._put(key, slot + max(0.0, interval))
        return slot - now

    async def block(self, key: str, seconds: float) -> None:
        now = self._clock()
        self._put(key, max(self._next.get(key, now), now + max(0.0, seconds)))

    def _put(self, key: str, value: float) -> None:
        self._next[key] = value
        self._next.move_to_end(key)
        while len(self._next) > self._max:
            self._next.popitem(last=False)


# KEYS[1] = the key's next free slot (ms, Redis clock); ARGV[1] = interval ms. Returns the wait (ms).
_RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local raw = redis.call('GET', KEYS[1])
local slot = now
if raw then slot = math.max(now, tonumber(raw)) end
local nxt = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], nxt, 'PX', nxt - now + 1000)
return slot - now
"""
# ARGV[1] = how long to block (ms).
_BLOCK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local raw = redis.call('GET', KEYS[1])
local nxt = now + tonumber(ARGV[1])
if raw then nxt = math.max(nxt, tonumber(raw)) end
redis.call('SET', KEYS[1], nxt, 'PX', nxt - now + 1000)
return nxt - now
"""


class RedisEditBucket:
    """``omg:edit:<key>`` holds the next free slot; one Lua script takes it atomically."""

    def __init__(self, client: Redis, *, prefix: str = "omg:") -> None:
        self._prefix = prefix
        self._reserve = client.register_script(_RESERVE)
        self._block = client.register_script(_BLOCK)

    async def reserve(self, key: str, interval: float) -> float:
        wait_ms = await self._reserve(keys=[f"{self._prefix}edit:{key}"], args=[_ms(interval)])
        return max(0, int(wait_ms)) / 1000

    async def block(self, key: str, seconds: float) -> None:
        await self._block(keys=[f"{self._prefix}edit:{key}"], args=[_ms(seconds)])


def _ms(seconds: float) -> int:
    return max(0, int(round(seconds * 1000)))
