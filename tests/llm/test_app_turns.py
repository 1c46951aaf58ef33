"""Whole coordinator turns through ``build_app`` with the LLM providers on fake servers.

The app reads DEEPSEEK_* / GEMINI_* from its env (base URLs pointed at the fakes), builds the
real SDK clients, and every LLM use (cascade, translator, text judge, README, narrative,
research) meets the scripted models. Costs are checked against the fakes' reported usage.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.app import BotApp, build_app
from bot.testing import TestBackend
from core.models import Clarification, ConversationKey, IncomingMessage, RepoList
from core.llm.pricing import DEFAULT_PRICES
from core.classifier.cascade import FALLBACK_QUESTION
from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.llm_script import FakeReply
from tests.fakes.openai_server import FakeOpenAIServer

IN, OUT = 100, 20
UNSURE = "rust"  # the local model is unsure about this one (confidence ~0.5, margin ~0.05)


def system_text(body: dict[str, Any]) -> str:
    if "messages" in body:
        return body["messages"][0]["content"]
    return body.get("systemInstruction", {}).get("parts", [{}])[0].get("text", "")


def answer_for(system: str) -> dict[str, Any]:
    if "intent classifier" in system:
        return {"intent": "search", "confidence": 0.9, "reasoning": "a language: find repos"}
    if "search parameters" in system:
        return {"keywords": ["state", "management"], "language": "TypeScript", "sort": "best"}
    if "You judge GitHub repositories" in system:
        return {"documentation": {"score": 8, "reason": "clear"},
                "ease_of_use": {"score": 8, "reason": "simple"},
                "relevance": {"score": 9, "reason": "on topic"}}
    if "summarize GitHub README" in system:
        return {"summary": "# Project\nA library."}
    if "analysis paragraph" in system:
        return {"analysis": "A short narrative without numbers that is long enough."}
    if "depth of a research task" in system:
        return {"mode": "quick_scan", "rationale": "A simple lookup."}
    return {}


def responder(delay_for_classify: float = 0.0):
    def respond(body: dict[str, Any]) -> FakeReply:
        system = system_text(body)
        delay = delay_for_classify if "intent classifier" in system else 0.0
        return FakeReply(text=json.dumps(answer_for(system)), input_tokens=IN, output_tokens=OUT,
                         delay=delay)

    return respond


@pytest.fixture
async def deepseek() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer(responder()) as server:
        yield server  # type: ignore[misc]


async def make_app(tmp_path, **env: str) -> BotApp:
    base = {"OMG_GITHUB": "offline", "OMG_DATA_DIR": str(tmp_path)}
    return await build_app(env={**base, **env}, memory=True)


def deepseek_env(server: FakeOpenAIServer, **extra: str) -> dict[str, str]:
    return {"DEEPSEEK_API_KEY": "sk-test-deepseek-0000000000", "DEEPSEEK_BASE_URL": server.base_url,
            **extra}


def usd(calls: int, model: str = "deepseek-chat") -> float:
    price = DEFAULT_PRICES[model]
    return calls * (IN * price.input_per_million + OUT * price.output_per_million) / 1e6


async def test_search_turn_cost_equals_fake_usage_times_prices(tmp_path, deepseek) -> None:
    app = await make_app(tmp_path, **deepseek_env(deepseek))
    bot = TestBackend(app)
    try:
        reply = await bot.ask("find react state management libraries")
        assert isinstance(reply.structured_data, RepoList) and reply.structured_data.items
        calls = deepseek.calls
        systems = [system_text(body) for body in deepseek.requests]
        assert "search parameters" in systems[0]  # the translator, then the judge per repo
        assert sum("You judge GitHub repositories" in s for s in systems) == calls - 1 >= 2
        conversation = await app.store.get(reply.conversation_id)
        assert conversation.cost.calls == calls
        assert conversation.cost.input_tokens == calls * IN
        assert conversation.cost.usd == pytest.approx(usd(calls))
        assert reply.footer and f"${usd(calls):.4f} this answer" in reply.footer
        assert app.llm.services.metrics.count("classify", "local") == 1  # confident: no LLM
        params = reply.structured_data.meta.search_params
        assert params.language == "TypeScript"  # the LLM translator answered

        second = await bot.ask("thanks!")
        conversation = await app.store.get(reply.conversation_id)
        assert conversation.cost.usd == pytest.approx(usd(deepseek.calls))
        assert "LLM cost" not in (second.footer or "")  # no LLM use in that turn
    finally:
        await app.aclose()


async def test_unsure_message_goes_to_the_llm(tmp_path, deepseek) -> None:
    app = await make_app(tmp_path, **deepseek_env(deepseek, LLM_TASKS="classify"))
    try:
        reply = await TestBackend(app).ask(UNSURE)
        assert reply.classification.source == "llm" and reply.intent.value == "search"
        assert deepseek.calls == 1
        assert "intent classifier" in deepseek.requests[0]["messages"][0]["content"]
        assert "User message: rust" in deepseek.requests[0]["messages"][1]["content"]
    finally:
        await app.aclose()


async def test_classification_timeout_asks_to_rephrase(tmp_path) -> None:
    async with FakeOpenAIServer(responder(delay_for_classify=2.0)) as server:
        env = deepseek_env(server, LLM_CLASSIFY_TIMEOUT="0.3", LLM_TASKS="classify")
        app = await make_app(tmp_path, **env)
        try:
            reply = await TestBackend(app).ask(UNSURE)
        finally:
            await app.aclose()
    assert reply.classification.source == "fallback"
    assert isinstance(reply.structured_data, Clarification)
    assert reply.structured_data.question == FALLBACK_QUESTION
    assert FALLBACK_QUESTION in reply.markdown
    assert "local tools" in (reply.footer or "")


async def test_provider_down_then_breaker_open_local_paths_serve(tmp_path) -> None:
    async with FakeOpenAIServer() as server:  # an empty script: every call is a 500
        env = deepseek_env(server, LLM_RETRY_BASE_DELAY="0.001", LLM_TASKS="classify,translate")
        app = await make_app(tmp_path, **env)
        bot = TestBackend(app)
        try:
            for _ in range(4):
                reply = await bot.ask("find rust web frameworks")
                assert isinstance(reply.structured_data, RepoList)  # the rules translated it
                assert reply.structured_data.items
        finally:
            await app.aclose()
    assert server.calls == 9  # 3 failed calls x 3 attempts, then the breaker keeps it closed off
    assert app.llm.services.metrics.count("translate", "circuit_open") == 1


async def test_no_key_means_local_everything(tmp_path) -> None:
    app = await make_app(tmp_path)
    try:
        assert not app.llm.services.enabled and app.llm.translator is None
        reply = await TestBackend(app).ask(UNSURE)
        assert reply.classification.source == "local"
        assert not reply.footer or "LLM cost" not in reply.footer
    finally:
        await app.aclose()


async def test_daily_budget_per_workspace(tmp_path, deepseek) -> None:
    app = await make_app(tmp_path, **deepseek_env(deepseek, LLM_DAILY_BUDGET_USD="0.00001",
                                                  LLM_TASKS="translate"))
    key = ConversationKey(platform="slack", channel="C1", thread="1.0", team="T-ACME")
    try:
        first = await app.service.handle_message(IncomingMessage(key=key, text="find rust web frameworks"))
        assert "LLM cost" in (first.footer or "")
        second = await app.service.handle_message(IncomingMessage(key=key, text="find go web frameworks"))
        assert isinstance(second.structured_data, RepoList) and second.structured_data.items
        assert "budget is spent" in (second.footer or "")
        assert deepseek.calls == 1
        other = ConversationKey(platform="slack", channel="C1", thread="2.0", team="T-OTHER")
        await app.service.handle_message(IncomingMessage(key=other, text="find go web frameworks"))
        assert deepseek.calls == 2  # another workspace has its own budget
    finally:
        await app.aclose()
    spend = json.loads(next((tmp_path / "llm").glob("spend-*.json")).read_text())
    assert set(spend) == {"T-ACME", "T-OTHER"}


async def test_research_uses_gemini_when_its_key_is_set(tmp_path, deepseek) -> None:
    async with FakeGeminiServer(responder()) as gemini:
        env = deepseek_env(deepseek, GEMINI_API_KEY="gemini-test-key-000000",
                           GEMINI_BASE_URL=gemini.base_url)
        app = await make_app(tmp_path, **env)
        try:
            assert app.llm.services.research.provider == "gemini"
            assert app.llm.services.classifier.provider == "deepseek"
            await TestBackend(app).research("latest release of react")
        finally:
            await app.aclose()
    assert gemini.calls >= 1
    assert "depth of a research task" in system_text(gemini.requests[0])
