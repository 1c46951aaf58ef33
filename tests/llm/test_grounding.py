"""Gemini grounded on Google Search, through the real google-genai SDK against the fake server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core.errors import LLMRejected, LLMTimeout
from core.llm import LLMMetrics, PriceTable
from core.llm.budget import DailyBudget
from core.llm.grounding import GroundedGeminiModel
from core.llm.pricing import DEFAULT_PRICES
from core.research.web_search import GroundedWebSearch
from core.usage import UsageMeter, current_meter
from tests.fakes.gemini_server import FakeGeminiServer
from tests.llm.conftest import SECRET_KEY, Sleeps, make_client

ANSWER = ("React 19.1 is the latest stable release. It was published in March 2025. "
          "Many teams still run React 18.")
PAGES = [("https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA", "react.dev"),
         ("https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB", "github.com"),
         ("https://vertexaisearch.cloud.google.com/grounding-api-redirect/CCC", "npmjs.com")]
SUPPORTS = [("React 19.1 is the latest stable release.", [1, 0]),
            ("It was published in March 2025.", [0])]


@pytest.fixture
async def gemini() -> AsyncIterator[FakeGeminiServer]:
    async with FakeGeminiServer() as server:
        yield server  # type: ignore[misc]


def web_search(server: FakeGeminiServer, **kwargs) -> tuple[GroundedWebSearch, LLMMetrics, DailyBudget]:  # type: ignore[no-untyped-def]
    metrics, budget = LLMMetrics(), DailyBudget(None)
    model = GroundedGeminiModel(api_key=SECRET_KEY, base_url=server.base_url)
    client = make_client(model, sleeps=Sleeps(), metrics=metrics, budget=budget, prices=PriceTable())
    return GroundedWebSearch(client, **kwargs), metrics, budget


async def test_sources_are_exactly_the_grounding_chunks(gemini: FakeGeminiServer) -> None:
    gemini.push(FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS, ["latest react version"]))
    search, _, _ = web_search(gemini)
    try:
        results = await search.search("react", limit=5, context="Research goal: latest version of React")
    finally:
        await search.aclose()
    # cited pages first (grounding order otherwise), every URL straight from groundingChunks
    assert [r.url for r in results] == [PAGES[0][0], PAGES[1][0], PAGES[2][0]]
    assert [r.title for r in results] == ["react.dev", "github.com", "npmjs.com"]
    # each supported sentence is filed under its most confident chunk, once
    assert results[1].snippet == "React 19.1 is the latest stable release."
    assert results[0].snippet == "It was published in March 2025."
    assert results[2].snippet == ""  # retrieved but not cited
    assert "Many teams" not in " ".join(r.snippet for r in results)  # unsupported text is not kept


async def test_the_request_carries_the_google_search_tool_and_the_context(gemini: FakeGeminiServer) -> None:
    gemini.push(FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS))
    search, _, _ = web_search(gemini)
    try:
        await search.search("redux OR zustand", context="Research goal: should we migrate?")
    finally:
        await search.aclose()
    body = gemini.requests[0]
    assert body["tools"] == [{"googleSearch": {}}]
    assert "responseMimeType" not in body.get("generationConfig", {})  # no JSON mode with tools
    assert body["generationConfig"]["temperature"] == 1.0
    prompt = body["contents"][0]["parts"][0]["text"]
    assert "Research goal: should we migrate?" in prompt and "Search request: redux OR zustand" in prompt
    assert "Google Search" in body["systemInstruction"]["parts"][0]["text"]
    assert gemini.headers[0].get("x-goog-api-key") == SECRET_KEY
    assert gemini.paths[0].endswith("/models/gemini-2.5-flash:generateContent")


async def test_limit_keeps_cited_pages(gemini: FakeGeminiServer) -> None:
    gemini.push(FakeGeminiServer.grounded(ANSWER, PAGES, [("Many teams still run React 18.", [2])]))
    search, _, _ = web_search(gemini)
    try:
        results = await search.search("react", limit=1)
    finally:
        await search.aclose()
    assert [r.url for r in results] == [PAGES[2][0]]


async def test_cost_counts_search_tool_tokens_as_input(gemini: FakeGeminiServer) -> None:
    gemini.push(FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS, input_tokens=120,
                                          output_tokens=40, tool_use_tokens=300))
    search, metrics, budget = web_search(gemini)
    meter = UsageMeter()
    token = current_meter.set(meter)
    try:
        await search.search("react")
    finally:
        current_meter.reset(token)
        await search.aclose()
    price = DEFAULT_PRICES["gemini-2.5-flash"]
    expected = (420 * price.input_per_million + 40 * price.output_per_million) / 1e6
    [record] = meter.records
    assert (record.task, record.input_tokens, record.output_tokens) == ("research_web_search", 420, 40)
    assert record.usd == pytest.approx(expected) and budget.spent(None) == pytest.approx(expected)
    assert metrics.count("research_web_search", "ok") == 1


async def test_an_ungrounded_answer_has_no_sources(gemini: FakeGeminiServer) -> None:
    gemini.push_text("I could not search just now.")
    search, _, _ = web_search(gemini)
    try:
        assert await search.search("react") == []
    finally:
        await search.aclose()


async def test_non_web_and_duplicate_chunks_are_dropped(gemini: FakeGeminiServer) -> None:
    reply = FakeGeminiServer.grounded(ANSWER, [PAGES[0], PAGES[0]], [("It was published in March 2025.", [1])])
    reply.grounding["groundingChunks"].append({"retrievedContext": {"uri": "gs://bucket/doc", "title": "doc"}})
    reply.grounding["groundingChunks"].append({"web": {"uri": "javascript:alert(1)", "title": "x"}})
    gemini.push(reply)
    search, _, _ = web_search(gemini)
    try:
        results = await search.search("react")
    finally:
        await search.aclose()
    assert [(r.url, r.snippet) for r in results] == [(PAGES[0][0], "It was published in March 2025.")]


async def test_failures_map_onto_the_llm_errors(gemini: FakeGeminiServer) -> None:
    gemini.push(FakeGeminiServer.error(403))
    search, metrics, _ = web_search(gemini)
    try:
        with pytest.raises(LLMRejected):
            await search.search("react")
        gemini.push(FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS, delay=1.0))
        slow, _, _ = web_search(gemini, timeout=0.2)
        try:
            with pytest.raises(LLMTimeout):
                await slow.search("react")
        finally:
            await slow.aclose()
    finally:
        await search.aclose()
    assert metrics.count("research_web_search", "rejected") == 1


async def test_5xx_is_retried_then_answers(gemini: FakeGeminiServer) -> None:
    gemini.push(FakeGeminiServer.error(503), FakeGeminiServer.grounded(ANSWER, PAGES, SUPPORTS))
    search, metrics, _ = web_search(gemini)
    try:
        results = await search.search("react")
    finally:
        await search.aclose()
    assert len(results) == 3 and gemini.calls == 2
    assert metrics.count("research_web_search", "http_calls") == 2


async def test_segments_without_text_are_read_by_byte_offsets(gemini: FakeGeminiServer) -> None:
    answer = "Zustand — tiny and fast. Redux Toolkit ships “RTK Query” for data fetching."
    reply = FakeGeminiServer.grounded(answer, PAGES[:2], [("Zustand — tiny and fast.", [0]),
                                                          ("Redux Toolkit ships “RTK Query” for data fetching.", [1])])
    for support in reply.grounding["groundingSupports"]:
        del support["segment"]["text"]
    gemini.push(reply)
    search, _, _ = web_search(gemini)
    try:
        results = await search.search("zustand")
    finally:
        await search.aclose()
    assert [r.snippet for r in results] == ["Zustand — tiny and fast.",
                                            "Redux Toolkit ships “RTK Query” for data fetching."]
