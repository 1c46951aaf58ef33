"""Where shared state lives, from the environment: files (the default) or Redis (``REDIS_URL``)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, Field

from core.config import env_float, env_int


class StoreSettings(BaseModel):
    redis_url: str | None = Field(default=None, repr=False)  # may carry a password
    prefix: str = "omg:"  # every Redis key starts with it (several bots can share one Redis)
    research_retention_seconds: float = Field(default=30 * 86400.0, gt=0)  # finished sessions
    sweep_seconds: float = Field(default=5.0, ge=0)  # 0: no periodic takeover of orphaned runs
    heartbeat_seconds: float = Field(default=15.0, gt=0)  # an instance silent this long is dead
    connect_timeout: float = Field(default=3.0, gt=0)
    max_connections: int = Field(default=64, ge=2)  # per instance; bursts wait for a free one

    @property
    def uses_redis(self) -> bool:
        return bool(self.redis_url)

    @property
    def redis_label(self) -> str:
        """The Redis URL without its password, safe for logs and health reports."""
        return safe_url(self.redis_url or "")

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "StoreSettings":
        url = (env.get("REDIS_URL") or "").strip() or None
        prefix = (env.get("OMG_REDIS_PREFIX") or "omg:").strip() or "omg:"
        return cls(
            redis_url=url,
            prefix=prefix,
            research_retention_seconds=env_float(env, "OMG_RESEARCH_RETENTION", 30 * 86400.0),
            sweep_seconds=max(0.0, env_float(env, "OMG_RESEARCH_SWEEP", 5.0 if url else 0.0)),
            heartbeat_seconds=max(1.0, env_float(env, "OMG_INSTANCE_HEARTBEAT", 15.0)),
            connect_timeout=max(0.1, env_float(env, "OMG_REDIS_CONNECT_TIMEOUT", 3.0)),
            max_connections=max(2, env_int(env, "OMG_REDIS_MAX_CONNECTIONS", 64)),
        )


def safe_url(url: str) -> str:
    """``redis://user:secret@host:6379/0`` -> ``redis://user:***@host:6379/0``."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(unparseable URL)"
    netloc = f"{parts.username or ''}:***@{parts.hostname or ''}{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
