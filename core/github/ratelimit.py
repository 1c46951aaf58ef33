"""GitHub rate limits: reading the headers and deciding between waiting and giving up.

Primary limits come with ``X-RateLimit-Remaining: 0`` and ``X-RateLimit-Reset`` (epoch seconds);
secondary limits with ``Retry-After`` (seconds), or with neither -- GitHub then asks clients to
wait at least a minute. Search and the core API have separate budgets
(``X-RateLimit-Resource``), so an exhausted search budget does not block repository calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from core.errors import RateLimited

SECONDARY_DEFAULT_WAIT = 60.0


@dataclass(frozen=True, slots=True)
class RateLimitWait:
    seconds: float
    reset_at: datetime
    secondary: bool


def resource_for(path: str) -> str:
    """The budget a request draws on (the same names as ``X-RateLimit-Resource``)."""
    if path == "/graphql":
        return "graphql"
    if path.startswith("/search/code"):
        return "code_search"
    return "search" if path.startswith("/search/") else "core"


def _number(headers: Mapping[str, str], name: str) -> float | None:
    raw = headers.get(name)
    try:
        return float(raw) if raw is not None and raw.strip() else None
    except ValueError:
        return None


def exhausted_until(headers: Mapping[str, str]) -> datetime | None:
    """The reset time when a response says the budget is spent (``remaining == 0``)."""
    remaining, reset = _number(headers, "x-ratelimit-remaining"), _number(headers, "x-ratelimit-reset")
    if remaining is not None and remaining <= 0 and reset is not None:
        return datetime.fromtimestamp(reset, UTC)
    return None


def rate_limit_wait(
    status: int, headers: Mapping[str, str], message: str, now: float
) -> RateLimitWait | None:
    """For a 403/429: how long GitHub wants us to wait, or None when it is not a rate limit."""
    if status not in (403, 429):
        return None
    retry_after = _number(headers, "retry-after")
    if retry_after is not None:
        seconds = max(0.0, retry_after)
        return RateLimitWait(seconds, datetime.fromtimestamp(now + seconds, UTC), secondary=True)
    reset_at = exhausted_until(headers)
    if reset_at is not None:
        seconds = max(0.0, reset_at.timestamp() - now)
        return RateLimitWait(seconds, reset_at, secondary=False)
    if status == 429 or "rate limit" in message.lower():
        seconds = SECONDARY_DEFAULT_WAIT
        return RateLimitWait(seconds, datetime.fromtimestamp(now + seconds, UTC), secondary=True)
    return None


class Budgets:
    """What GitHub last said about each budget ("core", "search", "graphql"...): calls (GraphQL:
    points) left, the hourly limit, and an exhausted budget's reset time."""

    def __init__(self) -> None:
        self.exhausted: dict[str, datetime] = {}  # resource -> reset time
        self.remaining: dict[str, int] = {}
        # resource -> allowed per window (X-RateLimit-Limit); None: answered without limits
        self.limits: dict[str, int | None] = {}

    def wait_before(self, resource: str, now: float, max_wait: float) -> float:
        """Seconds to wait before calling on a spent ``resource`` (0: go ahead); raises
        ``RateLimited`` when its reset is further away than ``max_wait``."""
        reset_at = self.exhausted.get(resource)
        if reset_at is None:
            return 0.0
        seconds = reset_at.timestamp() - now
        if seconds <= 0:
            self.exhausted.pop(resource, None)
            return 0.0
        if seconds > max_wait:
            raise RateLimited(reset_at)
        return seconds

    def note(self, resource: str, headers: Mapping[str, str], status: int) -> None:
        reset_at = exhausted_until(headers)
        if reset_at is not None:
            self.exhausted[resource] = reset_at
        elif headers.get("x-ratelimit-remaining"):
            self.exhausted.pop(resource, None)
        remaining = headers.get("x-ratelimit-remaining", "")
        if remaining.isdigit():
            self.remaining[resource] = int(remaining)
        limit = headers.get("x-ratelimit-limit", "")
        if limit.isdigit():
            self.limits[resource] = int(limit)
        elif status < 400 and not remaining:  # GitHub Enterprise with rate limiting off
            self.limits[resource] = None
