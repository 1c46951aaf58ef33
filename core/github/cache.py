"""A bounded response cache with a freshness TTL and ETags for conditional requests.

A fresh entry (younger than the caller's TTL) is served without a request. A stale entry that
has an ETag is revalidated with ``If-None-Match``; a ``304 Not Modified`` reuses the stored body
and makes the entry fresh again (GitHub does not count a 304 against the rate limit when the
request is authorised). The least recently used entries are evicted when the cache holds more
than ``max_entries`` responses or more than ``max_bytes`` of bodies (a batch of signals with its
READMEs is a few hundred KB: counted in entries alone, a long-running bot's cache kept growing
toward a few hundred MB); a body larger than ``max_bytes`` is not kept.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(slots=True)
class CachedResponse:
    status: int
    body: bytes
    headers: dict[str, str]  # only the ones worth keeping: content-type, etag, link
    etag: str | None
    stored_at: float

    def age(self, now: float) -> float:
        return now - self.stored_at


class ResponseCache:
    def __init__(self, max_entries: int, *, max_bytes: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._max = max_entries
        self._max_bytes = max_bytes
        self._bytes = 0  # of the bodies held
        self._clock = clock
        self._entries: OrderedDict[str, CachedResponse] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def get(self, key: str) -> CachedResponse | None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def is_fresh(self, entry: CachedResponse, ttl: float) -> bool:
        return ttl > 0 and entry.age(self._clock()) < ttl

    def put(self, key: str, status: int, body: bytes, headers: dict[str, str]) -> CachedResponse:
        entry = CachedResponse(
            status=status, body=body, headers=headers, etag=headers.get("etag"),
            stored_at=self._clock(),
        )
        if self._max <= 0 or len(body) > self._max_bytes:
            return entry
        replaced = self._entries.pop(key, None)
        if replaced is not None:
            self._bytes -= len(replaced.body)
        self._entries[key] = entry
        self._bytes += len(body)
        while len(self._entries) > self._max or self._bytes > self._max_bytes:
            _, evicted = self._entries.popitem(last=False)
            self._bytes -= len(evicted.body)
        return entry

    def refresh(self, key: str, entry: CachedResponse) -> CachedResponse:
        """After a 304: the stored body is still current."""
        entry.stored_at = self._clock()
        if key in self._entries:
            self._entries.move_to_end(key)
        return entry

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0
