"""A circuit breaker: after N consecutive failures stop calling the provider for a while.

    closed --(N consecutive failures)--> open --(cooldown elapsed)--> half-open
    half-open --(the one trial call succeeds)--> closed
    half-open --(the trial call fails)--> open (a fresh cooldown)

While open, and while the half-open trial is in flight, ``before_call`` raises ``CircuitOpen``
and the local paths serve. The clock is injectable so tests can walk the cycle without sleeping.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from enum import StrEnum

from core.errors import CircuitOpen

log = logging.getLogger("omg.llm.breaker")


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


class CircuitBreaker:
    def __init__(
        self,
        *,
        name: str = "llm",
        failure_threshold: int = 3,
        cooldown_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.failure_threshold = failure_threshold
        self.cooldown_seconds = cooldown_seconds
        self._clock = clock
        self._state = BreakerState.CLOSED
        self._failures = 0
        self._opened_at = 0.0
        self._trial_in_flight = False

    @property
    def state(self) -> BreakerState:
        if self._state is BreakerState.OPEN and self._cooldown_over():
            return BreakerState.HALF_OPEN
        return self._state

    @property
    def consecutive_failures(self) -> int:
        return self._failures

    def _cooldown_over(self) -> bool:
        return self._clock() - self._opened_at >= self.cooldown_seconds

    def retry_in(self) -> float:
        """Seconds until a trial call is allowed (0 when closed or half-open)."""
        if self._state is not BreakerState.OPEN:
            return 0.0
        return max(0.0, self.cooldown_seconds - (self._clock() - self._opened_at))

    def before_call(self) -> None:
        """Admit a call or raise ``CircuitOpen``; when half-open, admit exactly one trial."""
        if self._state is BreakerState.CLOSED:
            return
        if self._state is BreakerState.OPEN:
            if not self._cooldown_over():
                raise CircuitOpen()
            self._state = BreakerState.HALF_OPEN
            log.info("circuit half-open: one trial call", extra={"breaker": self.name})
        if self._trial_in_flight:
            raise CircuitOpen()
        self._trial_in_flight = True

    def record_success(self) -> None:
        if self._state is not BreakerState.CLOSED:
            log.info("circuit closed", extra={"breaker": self.name})
        self._state = BreakerState.CLOSED
        self._failures = 0
        self._trial_in_flight = False

    def record_failure(self) -> None:
        self._failures += 1
        was_trial = self._state is BreakerState.HALF_OPEN
        self._trial_in_flight = False
        if was_trial or self._failures >= self.failure_threshold:
            self._state = BreakerState.OPEN
            self._opened_at = self._clock()
            log.warning(
                "circuit open",
                extra={"breaker": self.name, "failures": self._failures,
                       "cooldown_s": self.cooldown_seconds},
            )

    def release(self) -> None:
        """A call ended without a verdict (cancelled): let the next caller be the trial."""
        self._trial_in_flight = False
