"""The client's request description, statistics and cache helpers."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

import httpx

from core.github.cache import CachedResponse
from core.github.response import GitHubResponse


@dataclass(frozen=True, slots=True)
class Request:
    key: str  # the cache / single-flight key
    path: str  # "/graphql" for GraphQL (sent to ``graphql_url``)
    params: dict[str, str | int]
    accept: str
    allow: Collection[int]
    timeout: httpx.Timeout | None  # None: the client's default
    ttl: float = 0.0
    body: bytes | None = None  # a POST body (GraphQL)
    cacheable: Callable[[bytes], bool] | None = None  # None: every 2xx body is kept


@dataclass(slots=True)
class ClientStats:
    requests: int = 0  # HTTP requests sent (what GitHub counts)
    cache_hits: int = 0  # fresh responses served without a request
    not_modified: int = 0  # 304s (the cached body was reused)
    stale_served: int = 0  # stale bodies served because GitHub failed
    shared_hits: int = 0  # fresh responses another instance fetched (the shared cache)
    graphql_cost: int = 0  # GraphQL points spent, as ``rateLimit { cost }`` reported them
    retries: int = 0
    rate_limit_waits: int = 0


def cache_key(path: str, params: Mapping[str, str | int] | None, accept: str) -> str:
    return f"{accept} {path}?{urlencode(sorted((params or {}).items()))}"


def from_cache(entry: CachedResponse) -> GitHubResponse:
    return GitHubResponse(entry.status, entry.body, entry.headers, cached=True)
