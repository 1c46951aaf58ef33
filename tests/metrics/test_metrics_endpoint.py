"""The Prometheus endpoint, scraped over HTTP after a scripted conversation."""

from __future__ import annotations

import re

import httpx
import pytest

from bot.app import build_app
from bot.metrics import PrometheusMetrics
from bot.testing import TestBackend
from core.metrics import NoMetrics, metrics
from tests.fakes.github import FakeGitHub
from tests.fakes.openai_server import FakeOpenAIServer
from tests.llm.test_app_turns import IN, OUT, responder, usd


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
        await bot.push_message("find react state management libraries", thread="T-2")  # cached
        bot.pop_reply()
        await bot.push_message("tell me more", thread="T-3")  # nothing to refer to: a question
        clarifying = bot.pop_reply()
        gh.graphql_rate_limit(times=5)  # spent: REST is tried, spent too, and the snapshot lacks it
        gh.rate_limit("/repos/nobody-here/", times=None)
        await bot.push_message("analyze nobody-here/no-such-repo", thread="T-4")
        limited = bot.pop_reply()
        installed = metrics()
        assert isinstance(installed, PrometheusMetrics) and installed.port
        port = installed.port
        async with httpx.AsyncClient() as client:
            text = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
        await app.aclose()
    assert isinstance(metrics(), NoMetrics), "closing the app uninstalls its metrics"
    assert _value(text, "omg_turns_total", intent="search", platform="test") == 2
    assert _value(text, "omg_turns_total", intent="analyze", platform="test") == 2
    assert _value(text, "omg_turn_duration_seconds_count", intent="search") == 2
    assert _value(text, "omg_classification_confidence_count", intent="analyze") == 2
    # with a token: the search's searches, its candidates' signals, the analysis
    assert _value(text, "omg_github_requests_total", resource="graphql", status="200") >= 3
    assert 'omg_github_budget_remaining{resource="graphql"} 0.0' in text  # as GitHub last said
    assert _value(text, "omg_github_graphql_cost_points_total", resource="graphql") >= 2
    assert _value(text, "omg_cache_lookups_total", cache="github", result="miss") >= 1
    assert _value(text, "omg_cache_lookups_total", cache="github", result="hit") >= 1
    assert clarifying.structured_data is not None and clarifying.structured_data.type == "clarification"
    assert _value(text, "omg_turns_clarified_total", platform="test") == 1
    assert limited.error == "rate_limited"
    assert _value(text, "omg_errors_total", code="rate_limited") == 1
    assert "omg_llm_calls_total" in text and "omg_research_transitions_total" in text


async def test_llm_spend_and_research_states_show_up_in_the_scrape(tmp_path) -> None:
    async with FakeOpenAIServer(responder()) as deepseek:
        env = {"OMG_GITHUB": "offline", "OMG_DATA_DIR": str(tmp_path), "OMG_METRICS_PORT": "0",
               "OMG_METRICS_ADDR": "127.0.0.1", "DEEPSEEK_API_KEY": "sk-test-deepseek-0000000000",
               "DEEPSEEK_BASE_URL": deepseek.base_url}
        app = await build_app(env=env, memory=True)
        bot = TestBackend(app)
        await bot.push_message("find react state management libraries")
        bot.pop_reply()
        await bot.research("Which React state library is most popular?", mode="quick")
        report = bot.pop_reply()
        installed = metrics()
        assert isinstance(installed, PrometheusMetrics) and installed.port
        async with httpx.AsyncClient() as client:
            text = (await client.get(f"http://127.0.0.1:{installed.port}/metrics")).text
        calls = deepseek.calls
        await app.aclose()
    assert calls >= 2 and report.markdown
    assert _value(text, "omg_llm_calls_total", provider="deepseek") == calls
    assert _value(text, "omg_llm_tokens_total", provider="deepseek", direction="input") == calls * IN
    assert _value(text, "omg_llm_tokens_total", provider="deepseek", direction="output") == calls * OUT
    assert _value(text, "omg_llm_spend_usd_total", provider="deepseek") == pytest.approx(usd(calls))
    for state in ("ANALYZING", "PLANNING", "EXECUTING", "COMPLETED"):
        assert _value(text, "omg_research_transitions_total", state=state) == 1, state
