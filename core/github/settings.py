"""GitHub settings, read from the environment (same ``from_env`` shape as ``CoreSettings``).

The token is kept as a ``SecretStr`` so that it never shows up in a repr, a log line or a reply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, Field, SecretStr

from core.config import env_float, env_int

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_CACHE_BYTES = 16 * 1024 * 1024  # response bodies one process keeps (ETags, fresh answers)
API_VERSION = "2022-11-28"


class GitHubSettings(BaseModel):
    api_url: str = DEFAULT_API_URL  # GitHub Enterprise: https://host/api/v3
    token: SecretStr | None = None
    mode: Literal["live", "offline"] = "live"  # OMG_GITHUB=offline -> the catalog only
    connect_timeout: float = Field(default=2.0, gt=0)  # short: an offline machine falls back fast
    read_timeout: float = Field(default=10.0, gt=0)
    max_concurrency: int = Field(default=24, ge=1)  # GitHub allows 100 at once
    max_wait_seconds: float = Field(default=5.0, ge=0)  # wait out a rate limit this short
    retries: int = Field(default=3, ge=1)  # attempts for 5xx / network errors
    backoff_seconds: float = Field(default=0.3, ge=0)  # first backoff; doubles each attempt
    cache_ttl_seconds: float = Field(default=300.0, ge=0)  # repo metadata, READMEs, signals
    search_cache_ttl_seconds: float = Field(default=120.0, ge=0)
    cache_entries: int = Field(default=1024, ge=0)
    cache_bytes: int = Field(default=DEFAULT_CACHE_BYTES, ge=0)  # of response bodies held, at most
    outage_seconds: float = Field(default=60.0, ge=0)  # how long an outage is remembered
    graphql: bool = True  # with a token: signals in batched GraphQL queries (OMG_GITHUB_GRAPHQL=off)
    graphql_search: bool = True  # and searches too (OMG_GITHUB_GRAPHQL_SEARCH=off: REST search)
    shared_cache_entry_bytes: int = Field(default=512_000, ge=0)  # larger bodies stay per instance
    user_agent: str = "oh-my-github"

    @property
    def host_label(self) -> str:
        """``api.github.com`` or the Enterprise host, for "GitHub (host)" labels."""
        return self.api_url.split("://", 1)[-1].split("/", 1)[0]

    @property
    def graphql_url(self) -> str:
        """GitHub's GraphQL endpoint: ``/graphql`` on github.com, ``/api/graphql`` on Enterprise."""
        if self.api_url.endswith("/api/v3"):
            return self.api_url[: -len("/v3")] + "/graphql"
        return self.api_url + "/graphql"

    @property
    def uses_graphql(self) -> bool:
        return self.graphql and self.token is not None  # GraphQL refuses anonymous calls

    @property
    def searches_graphql(self) -> bool:
        return self.uses_graphql and self.graphql_search

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "GitHubSettings":
        token = (env.get("GITHUB_TOKEN") or "").strip()
        mode = (env.get("OMG_GITHUB") or "live").strip().lower()
        return cls(
            api_url=(env.get("GITHUB_API_URL") or DEFAULT_API_URL).strip().rstrip("/"),
            token=SecretStr(token) if token else None,
            mode="offline" if mode in {"offline", "off", "catalog", "0", "false", "no"} else "live",
            connect_timeout=env_float(env, "OMG_GITHUB_CONNECT_TIMEOUT", 2.0),
            read_timeout=env_float(env, "OMG_GITHUB_TIMEOUT", 10.0),
            max_concurrency=max(1, env_int(env, "OMG_GITHUB_CONCURRENCY", 24)),
            max_wait_seconds=env_float(env, "OMG_GITHUB_MAX_WAIT", 5.0),
            retries=max(1, env_int(env, "OMG_GITHUB_RETRIES", 3)),
            backoff_seconds=max(0.0, env_float(env, "OMG_GITHUB_BACKOFF", 0.3)),
            cache_ttl_seconds=env_float(env, "OMG_GITHUB_CACHE_TTL", 300.0),
            search_cache_ttl_seconds=env_float(env, "OMG_GITHUB_SEARCH_CACHE_TTL", 120.0),
            cache_entries=max(0, env_int(env, "OMG_GITHUB_CACHE_ENTRIES", 1024)),
            cache_bytes=max(0, env_int(env, "OMG_GITHUB_CACHE_MAX_BYTES", DEFAULT_CACHE_BYTES)),
            outage_seconds=env_float(env, "OMG_GITHUB_OUTAGE_SECONDS", 60.0),
            graphql=(env.get("OMG_GITHUB_GRAPHQL") or "on").strip().lower()
            not in {"off", "0", "false", "no"},
            graphql_search=(env.get("OMG_GITHUB_GRAPHQL_SEARCH") or "on").strip().lower()
            not in {"off", "0", "false", "no"},
            shared_cache_entry_bytes=max(0, env_int(env, "OMG_GITHUB_SHARED_CACHE_MAX_BYTES", 512_000)),
        )
