"""Research in the whole app with Gemini on the fake server, through the real google-genai SDK:
the analyzer and planner get JSON, the web search gets grounded answers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import BotApp, build_app
from bot.testing import TestBackend
from core.research.web_search import GroundedWebSearch
from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.llm_script import FakeReply
from tests.research.fakes import FakeRepoSource

GOAL = "latest version of React"
ANSWER = "React 19.1 is the latest stable release. It shipped in March 2025."
PAGES = [("https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA", "react.dev"),
         ("https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB", "github.com")]
SUPPORTS = [("React 19.1 is the latest stable release.", [0]), ("It shipped in March 2025.", [1, 0])]
PLAN = {"steps": [
    {"type": "SEARCH", "description": "Search GitHub for React", "search_queries": ["react"]},
    {"type": "BROWSE", "description": "Read the README and releases of the top results"},
    {"type": "ANALYZE", "description": "Summarize the answer"},
]}


def grounded_request(body: dict[str, Any]) -> bool:
    return {"googleSearch": {}} in body.get("tools", [])


def system_text(body: dict[str, Any]) -> str:
    return body.get("systemInstruction", {}).get("parts", [{}])[0].get("text", "")


def responder(web: FakeReply | None = None):  # type: ignore[no-untyped-def]
    def respond(body: dict[str, Any]) -> FakeReply:
        if grounded_request(body):
            return web or FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS, ["latest react version"])
        system = system_text(body)
        if "depth of a research task" in system:
            return FakeReply.json({"mode": "quick_scan", "rationale": "A simple lookup."})
        if "You plan research" in system:
            return FakeReply.json(PLAN)
        return FakeReply.json({"findings": []})

    return respond


@pytest.fixture
async def gemini() -> AsyncIterator[FakeGeminiServer]:
    async with FakeGeminiServer(responder()) as server:
        yield server  # type: ignore[misc]


async def make_app(tmp_path: Path, server: FakeGeminiServer | None, **env: str) -> BotApp:
    base = {"OMG_DATA_DIR": str(tmp_path), "LLM_TASKS": "research", "LLM_RETRY_BASE_DELAY": "0.001"}
    if server is not None:
        base |= {"GEMINI_API_KEY": "gemini-test-key-000000", "GEMINI_BASE_URL": server.base_url}
    return await build_app(env={**base, **env}, memory=True, source=FakeRepoSource())


def web_of(app: BotApp):  # type: ignore[no-untyped-def]
    assert app.research is not None
    return app.research.orchestrator.executor.web


async def research(app: BotApp) -> str:
    bot = TestBackend(app)
    await bot.research(GOAL)
    reply = bot.pop_reply()
    assert reply.error is None, reply.markdown
    return reply.markdown


async def test_grounded_sources_reach_the_report(tmp_path: Path, gemini: FakeGeminiServer) -> None:
    app = await make_app(tmp_path, gemini)
    try:
        assert isinstance(web_of(app), GroundedWebSearch)
        report = await research(app)
    finally:
        await app.aclose()
    grounded = [body for body in gemini.requests if grounded_request(body)]
    assert len(grounded) == 1  # one SEARCH step
    assert "Research goal: latest version of React" in grounded[0]["contents"][0]["parts"][0]["text"]
    for uri, title in PAGES:
        assert f"[{title}]({uri})" in report
    assert f"- React 19.1 is the latest stable release. ([react.dev]({PAGES[0][0]}))" in report
    assert "GitHub search only" not in report
    web_links = {part.split(")", 1)[0] for part in report.split("](")[1:] if "vertexaisearch" in part}
    assert web_links == {uri for uri, _ in PAGES}  # exactly the grounding chunks, nothing invented


async def test_a_failing_grounded_search_degrades_to_github_only(tmp_path: Path) -> None:
    async with FakeGeminiServer(responder(FakeGeminiServer.error(500))) as server:
        app = await make_app(tmp_path, server, LLM_RETRY_ATTEMPTS="2")
        try:
            report = await research(app)
        finally:
            await app.aclose()
    assert sum(grounded_request(body) for body in server.requests) == 2  # retried once
    assert "Web search was unavailable (the provider is unavailable), so this report uses GitHub search only." in report
    assert "facebook/react" in report and "vertexaisearch" not in report
    assert app.llm is not None and app.llm.services.metrics.count("research_web_search", "unavailable") == 1


async def test_a_slow_grounded_search_times_out_to_github_only(tmp_path: Path) -> None:
    slow = FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS, delay=1.5)
    async with FakeGeminiServer(responder(slow)) as server:
        app = await make_app(tmp_path, server, OMG_RESEARCH_WEB_TIMEOUT="0.3")
        try:
            report = await research(app)
        finally:
            await app.aclose()
    assert "Web search was unavailable (it timed out)" in report and "vertexaisearch" not in report


async def test_no_gemini_key_means_no_web_search(tmp_path: Path) -> None:
    app = await make_app(tmp_path, None)
    try:
        assert web_of(app) is None
        report = await research(app)
    finally:
        await app.aclose()
    assert "Web search" not in report and "From the web" not in report


@pytest.mark.parametrize("env", [
    {"OMG_RESEARCH_WEB_SEARCH": "off"},
    {"LLM_TASKS": "classify,translate"},  # the research task is not enabled
    {"LLM_PROVIDER": "none"},
])
async def test_switched_off(tmp_path: Path, gemini: FakeGeminiServer, env: dict[str, str]) -> None:
    app = await make_app(tmp_path, gemini, **env)
    try:
        assert web_of(app) is None
    finally:
        await app.aclose()


async def test_grounded_search_cost_is_charged_like_other_calls(tmp_path: Path, gemini: FakeGeminiServer) -> None:
    app = await make_app(tmp_path, gemini)
    try:
        await research(app)
        assert app.llm is not None
        metrics = app.llm.services.metrics
        assert metrics.count("research_web_search", "ok") == 1
        spend = app.llm.services.budget.spent(None)
    finally:
        await app.aclose()
    calls = gemini.calls
    assert metrics.input_tokens == 10 * calls and metrics.output_tokens == 5 * calls
    assert spend == pytest.approx(metrics.usd) and spend > 0
    assert json.loads(next((tmp_path / "llm").glob("spend-*.json")).read_text())
