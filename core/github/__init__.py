"""Live GitHub: the REST client, ``GitHubSource``, and the offline fallback.

    source = build_source(env, catalog.source())

- ``OMG_GITHUB=offline``: the catalog source, no network at all;
- otherwise: ``FallbackSource(GitHubSource(...), catalog_source)`` -- live GitHub, and the
  offline catalog whenever GitHub is unreachable (the reply then says it used the snapshot).
Settings: ``core.github.settings.GitHubSettings`` (GITHUB_TOKEN, GITHUB_API_URL, ...).

Call budget per cold turn (details and measurements: ``core/search/SCORING.md``, "Call budget"):
search <= 40 calls with a token (3 searches + "light" signals -- releases, 90-day commits, README --
for 12 candidates), 0 core calls anonymous (scored from the search results; 60 calls an hour would
not last one search otherwise); analyze ~16 and compare ~16 per repository ("full" signals).
"""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from core.github.client import ClientStats, GitHubClient
from core.github.fallback import FallbackSource
from core.github.query import build_query
from core.github.settings import GitHubSettings
from core.github.source import GitHubSource
from core.sources.base import RepoSource

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
) -> RepoSource:
    """The repository source the agents use, chosen from ``env``."""
    settings = GitHubSettings.from_env(env)
    if settings.mode == "offline":
        return catalog_source
    live = GitHubSource(GitHubClient(settings, transport=transport))
    return FallbackSource(live, catalog_source, outage_seconds=settings.outage_seconds)
