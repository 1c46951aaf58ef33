"""Live GitHub: the REST client, ``GitHubSource``, and the offline fallback.

    source = build_source(env, catalog.source())

- ``OMG_GITHUB=offline``: the catalog source, no network at all;
- otherwise: ``FallbackSource(GitHubSource(...), catalog_source)`` -- live GitHub, and the
  offline catalog whenever GitHub is unreachable (the reply then says it used the snapshot).
Settings: ``core.github.settings.GitHubSettings`` (GITHUB_TOKEN, GITHUB_API_URL, ...).
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
