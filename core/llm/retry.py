"""The retry policy (tenacity): 429 / 5xx -> exponential backoff, 3 attempts, honour Retry-After.

The vendor SDKs' own retries are switched off, so this is the only retry loop. A wait that would
end after the call's deadline is not taken: the call fails at once and the local path serves.
"""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from core.errors import LLMRateLimited, LLMUnavailable

log = logging.getLogger("omg.llm.retry")

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

RETRYABLE = (LLMRateLimited, LLMUnavailable)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = 3
    base_delay: float = 0.5  # first backoff; doubles each attempt
    max_delay: float = 8.0
    max_retry_after: float = 30.0  # never wait longer than this for a Retry-After
    jitter: float = 0.1  # +-10 % so that many workers do not retry in lockstep

    def backoff(self, retry_number: int, retry_after: float | None) -> float:
        """Seconds before retry ``retry_number`` (1 = the first retry)."""
        if retry_after is not None and retry_after >= 0:
            return min(retry_after, self.max_retry_after)
        delay = min(self.base_delay * (2 ** (retry_number - 1)), self.max_delay)
        return delay * (1 + random.uniform(-self.jitter, self.jitter))


async def call_with_retries(
    fn: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    remaining: Callable[[], float],
    sleep: Sleep = asyncio.sleep,
    label: str = "llm",
) -> tuple[T, int]:
    """Run ``fn`` under ``policy``; return (result, attempts made). Re-raises the last error."""

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        retry_after = exc.retry_after if isinstance(exc, LLMRateLimited) else None
        return policy.backoff(state.attempt_number, retry_after)

    def past_deadline(state: RetryCallState) -> bool:
        return (state.upcoming_sleep or 0.0) >= remaining()

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        log.info(
            "llm call failed, retrying",
            extra={"call": label, "attempt": state.attempt_number,
                   "error": type(exc).__name__, "wait_s": round(state.upcoming_sleep, 3)},
        )

    retrying = AsyncRetrying(
        stop=stop_after_attempt(policy.attempts) | past_deadline,
        wait=wait,
        retry=retry_if_exception_type(RETRYABLE),
        sleep=sleep,
        before_sleep=before_sleep,
        reraise=True,
    )
    attempts = 0
    async for attempt in retrying:
        with attempt:
            attempts = attempt.retry_state.attempt_number
            result = await fn()
    return result, attempts


def retry_after_seconds(headers: Any, now: datetime | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
