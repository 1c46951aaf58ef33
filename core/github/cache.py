"""A bounded response cache with a freshness TTL and ETags for conditional requests.

A fresh entry (younger than the caller's TTL) is served without a request. A stale entry that
has an ETag is revalidated with ``If-None-Match``; a ``304 Not Modified`` reuses the stored body
and makes the entry fresh again (GitHub does not count a 304 against the rate limit when the
request is authorised). The least recently used entry is evicted when the cache is full.
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
    def __init__(self, max_entries: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._max = max_entries
        self._clock = clock
        self._entries: OrderedDict[str, CachedResponse] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

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
        if self._max <= 0:
            return entry
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
        return entry

    def refresh(self, key: str, entry: CachedResponse) -> CachedResponse:
        """After a 304: the stored body is still current."""
        entry.stored_at = self._clock()
        if key in self._entries:
            self._entries.move_to_end(key)
        return entry

    def clear(self) -> None:
        self._entries.clear()
