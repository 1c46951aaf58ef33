"""The Prometheus endpoint, scraped over HTTP after a scripted conversation."""

from __future__ import annotations

import re

import httpx

from bot.app import build_app
from bot.metrics import PrometheusMetrics
from bot.testing import TestBackend
from core.metrics import NoMetrics, metrics
from tests.fakes.github import FakeGitHub


def _value(text: str, name: str, **labels: str) -> float:
    """The sample ``name{labels...}`` (labels in any order) from an exposition text; 0 if absent."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and line.split(" ")[0] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_a_conversation_shows_up_in_the_scrape() -> None:
    async with FakeGitHub(token="t") as gh:
        app = await build_app(env=gh.env(OMG_METRICS_PORT="0", OMG_METRICS_ADDR="127.0.0.1"), memory=True)
        bot = TestBackend(app)
        await bot.push_message("find react state management libraries")
        bot.pop_reply()
        await bot.push_message("analyze pmndrs/zustand")
        bot.pop_reply()
        installed = metrics()
        assert isinstance(installed, PrometheusMetrics) and installed.port
        port = installed.port
        async with httpx.AsyncClient() as client:
            text = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
        await app.aclose()
    assert isinstance(metrics(), NoMetrics), "closing the app uninstalls its metrics"
    assert _value(text, "omg_turns_total", intent="search", platform="test") == 1
    assert _value(text, "omg_turns_total", intent="analyze", platform="test") == 1
    assert _value(text, "omg_turn_duration_seconds_count", intent="search") == 1
    assert _value(text, "omg_classification_confidence_count", intent="analyze") == 1
    # with a token: the search's searches, its candidates' signals, the analysis
    assert _value(text, "omg_github_requests_total", resource="graphql", status="200") >= 3
    assert _value(text, "omg_github_budget_remaining", resource="graphql") > 0
    assert _value(text, "omg_github_graphql_cost_points_total", resource="graphql") >= 2
    assert _value(text, "omg_cache_lookups_total", cache="github", result="miss") >= 1
    assert "omg_llm_calls_total" in text and "omg_research_transitions_total" in text
