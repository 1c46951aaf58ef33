"""Live GitHub: the REST client, ``GitHubSource``, and the offline fallback.

    source = build_source(env, catalog.source())

- ``OMG_GITHUB=offline``: the catalog source, no network at all;
- otherwise: ``FallbackSource(GitHubSource(...), catalog_source)`` -- live GitHub, and the
  offline catalog whenever GitHub is unreachable (the reply then says it used the snapshot).
Settings: ``core.github.settings.GitHubSettings`` (GITHUB_TOKEN, GITHUB_API_URL, ...).

Call budget per cold turn (measured by ``python -m bench github_turns``): with a token, one
GraphQL query for the Scout's searches (one more when it widens) plus one for the signals and
READMEs of every scored candidate; analyze and compare of three 1 call each (one GraphQL query;
recent committers stand in for REST's contributor count).
Anonymous (no GraphQL): 0 core calls for a search (scored from the search results), ~9 REST calls
per analyzed repository. ``redis`` (``REDIS_URL``): GitHub responses shared by every instance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from core.github.client import ClientStats, GitHubClient
from core.github.fallback import FallbackSource
from core.github.query import build_query
from core.github.settings import GitHubSettings
from core.github.shared_cache import RedisSharedCache
from core.github.source import GitHubSource
from core.sources.base import RepoSource
from core.store.settings import StoreSettings

__all__ = [
    "ClientStats",
    "FallbackSource",
    "GitHubClient",
    "GitHubSettings",
    "GitHubSource",
    "build_query",
    "build_source",
]


def build_source(
    env: Mapping[str, str],
    catalog_source: RepoSource,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    redis: Any = None,
) -> RepoSource:
    """The repository source the agents use, chosen from ``env``; ``redis`` (a
    ``redis.asyncio.Redis``, when ``REDIS_URL`` is set) shares GitHub responses between instances."""
    settings = GitHubSettings.from_env(env)
    if settings.mode == "offline":
        return catalog_source
    shared = None
    if redis is not None:
        shared = RedisSharedCache(redis, prefix=StoreSettings.from_env(env).prefix, max_bytes=settings.shared_cache_entry_bytes,
                                  max_ttl=max(settings.cache_ttl_seconds, settings.search_cache_ttl_seconds))
    live = GitHubSource(GitHubClient(settings, transport=transport, shared=shared))
    return FallbackSource(live, catalog_source, outage_seconds=settings.outage_seconds)
