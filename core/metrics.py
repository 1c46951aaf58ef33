"""Operational metrics behind a small facade, so that core stays free of any metrics library.

    from core.metrics import metrics
    metrics().turn(intent="search", platform="slack", seconds=1.2, confidence=0.93, clarified=False)

The default is ``NoMetrics`` (every call does nothing). The composition root installs a real
implementation once at start-up (``install(PrometheusMetrics(...))`` in ``bot/metrics.py`` when
``OMG_METRICS_PORT`` is set). Components that own a client take one by injection (``GitHubClient``
``metrics=``) and default to ``metrics()``; the few central points that have no constructor to
inject through (the LLM usage hook, research state changes) call ``metrics()``.
Names, labels and units: ``docs/metrics.md``.
"""

from __future__ import annotations

from typing import Protocol


class Metrics(Protocol):
    def turn(self, *, intent: str, platform: str, seconds: float, confidence: float | None,
             clarified: bool) -> None:
        """One finished turn: its intent, where it came from, how long it took."""

    def error(self, code: str) -> None:
        """A turn ended on an error (``code``: the exception class, e.g. "RateLimited")."""

    def llm_call(self, *, provider: str, input_tokens: int, output_tokens: int, usd: float) -> None: ...

    def github_call(self, resource: str, status: int, remaining: int | None) -> None:
        """One HTTP request to GitHub; ``remaining``: the budget left after it, if reported."""

    def github_cost(self, resource: str, points: int) -> None:
        """GraphQL points a query cost (``rateLimit { cost }``)."""

    def cache_lookup(self, cache: str, *, hit: bool) -> None: ...

    def research_state(self, state: str) -> None:
        """A research session entered ``state`` (planned, approved, running, done, ...)."""


class NoMetrics:
    def turn(self, *, intent: str, platform: str, seconds: float, confidence: float | None,
             clarified: bool) -> None:
        return None

    def error(self, code: str) -> None:
        return None

    def llm_call(self, *, provider: str, input_tokens: int, output_tokens: int, usd: float) -> None:
        return None

    def github_call(self, resource: str, status: int, remaining: int | None) -> None:
        return None

    def github_cost(self, resource: str, points: int) -> None:
        return None

    def cache_lookup(self, cache: str, *, hit: bool) -> None:
        return None

    def research_state(self, state: str) -> None:
        return None


_installed: list[Metrics] = [NoMetrics()]


def metrics() -> Metrics:
    """The process's metrics (``NoMetrics`` until the composition root installs one)."""
    return _installed[-1]


def install(implementation: Metrics) -> None:
    _installed.append(implementation)


def uninstall(implementation: Metrics) -> None:
    """Undo ``install`` (tests, shutdown); the previous implementation is active again."""
    if implementation in _installed[1:]:
        _installed.remove(implementation)
