"""The Prometheus side of ``core.metrics``: counters and histograms, and the scrape endpoint.

Off by default; ``OMG_METRICS_PORT`` turns it on (``OMG_METRICS_ADDR``, default 0.0.0.0, the
interface it listens on). prometheus_client is the official, well-kept Python client (imported
only when metrics are on); its ``start_http_server`` serves ``/metrics`` from a daemon thread, so
the bot's event loop never blocks on a scrape. Each ``PrometheusMetrics`` has its own registry
(tests build several). Names and labels: ``docs/metrics.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.config import env_int
from core.metrics import install, uninstall

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

log = logging.getLogger("omg.metrics")
LATENCY_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)
CONFIDENCE_BUCKETS = (0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)


class PrometheusMetrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = registry or CollectorRegistry()
        self.port: int | None = None  # where /metrics is served, once started
        r = self.registry
        self.turns = Counter("omg_turns", "Finished turns.", ["intent", "platform"], registry=r)
        self.clarified = Counter("omg_turns_clarified", "Turns answered with a clarifying question.",
                                 ["platform"], registry=r)
        self.confidence = Histogram("omg_classification_confidence", "Intent classification confidence (0-1).",
                                    ["intent"], buckets=CONFIDENCE_BUCKETS, registry=r)
        self.latency = Histogram("omg_turn_duration_seconds", "Turn latency, message to reply.",
                                 ["intent"], buckets=LATENCY_BUCKETS, registry=r)
        self.errors = Counter("omg_errors", "Turns that ended on an error, by error code.", ["code"], registry=r)
        self.llm_calls = Counter("omg_llm_calls", "LLM calls.", ["provider"], registry=r)
        self.llm_tokens = Counter("omg_llm_tokens", "LLM tokens.", ["provider", "direction"], registry=r)
        self.llm_spend = Counter("omg_llm_spend_usd", "LLM spend in US dollars.", ["provider"], registry=r)
        self.github_calls = Counter("omg_github_requests", "HTTP requests sent to GitHub.",
                                    ["resource", "status"], registry=r)
        self.github_remaining = Gauge("omg_github_budget_remaining",
                                      "Calls (GraphQL: points) left in GitHub's current rate-limit window.",
                                      ["resource"], registry=r)
        self.graphql_points = Counter("omg_github_graphql_cost_points", "GraphQL points spent.",
                                   ["resource"], registry=r)
        self.cache = Counter("omg_cache_lookups", "Cache lookups by result (hit ratio: hit / all).",
                             ["cache", "result"], registry=r)
        self.research = Counter("omg_research_transitions", "Research sessions entering a state.",
                                ["state"], registry=r)

    def turn(self, *, intent: str, platform: str, seconds: float, confidence: float | None,
             clarified: bool) -> None:
        self.turns.labels(intent, platform).inc()
        self.latency.labels(intent).observe(seconds)
        if confidence is not None:
            self.confidence.labels(intent).observe(confidence)
        if clarified:
            self.clarified.labels(platform).inc()

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def llm_call(self, *, provider: str, input_tokens: int, output_tokens: int, usd: float) -> None:
        self.llm_calls.labels(provider).inc()
        self.llm_tokens.labels(provider, "input").inc(input_tokens)
        self.llm_tokens.labels(provider, "output").inc(output_tokens)
        self.llm_spend.labels(provider).inc(usd)

    def github_call(self, resource: str, status: int, remaining: int | None) -> None:
        self.github_calls.labels(resource, str(status)).inc()
        if remaining is not None:
            self.github_remaining.labels(resource).set(remaining)

    def github_cost(self, resource: str, points: int) -> None:
        self.graphql_points.labels(resource).inc(points)

    def cache_lookup(self, cache: str, *, hit: bool) -> None:
        self.cache.labels(cache, "hit" if hit else "miss").inc()

    def research_state(self, state: str) -> None:
        self.research.labels(state).inc()


class MetricsEndpoint:
    """A running ``/metrics`` endpoint and the metrics it serves; ``close()`` stops both."""

    def __init__(self, metrics: PrometheusMetrics, server: Any, port: int) -> None:
        self.metrics = metrics
        self.port = port
        self._server = server

    async def aclose(self) -> None:
        uninstall(self.metrics)
        self._server.shutdown()
        self._server.server_close()


def start_metrics(env: Mapping[str, str]) -> MetricsEndpoint | None:
    """Install Prometheus metrics and serve them when ``OMG_METRICS_PORT`` is set (0: any free
    port, which ``MetricsEndpoint.port`` tells); None when it is not."""
    raw = (env.get("OMG_METRICS_PORT") or "").strip()
    if not raw:
        return None
    port = env_int(env, "OMG_METRICS_PORT", 0)
    addr = (env.get("OMG_METRICS_ADDR") or "0.0.0.0").strip()
    from prometheus_client import start_http_server

    metrics = PrometheusMetrics()
    server, _thread = start_http_server(port, addr=addr, registry=metrics.registry)
    install(metrics)
    bound = metrics.port = server.server_address[1]
    log.info("metrics.serving", extra={"addr": addr, "port": bound})
    return MetricsEndpoint(metrics, server, bound)
