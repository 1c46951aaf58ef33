"""Provider selection from the environment, prices, and the per-workspace daily budget."""

from __future__ import annotations

import json
from datetime import date

import pytest
from pydantic import BaseModel

from core.classifier.cascade import CascadeSettings
from core.errors import BudgetExceeded
from core.llm import FunctionModel, LLMSettings, PriceTable, StructuredRequest, build_llm, user
from core.llm.budget import DailyBudget, read_spend
from core.llm.gemini import GeminiModel
from core.llm.openai_compat import OpenAICompatModel
from core.usage import UsageMeter, current_meter, current_workspace

DS, OA, GM = "ds-key-123456", "oa-key-123456", "gm-key-123456"


def test_no_key_means_none_everywhere() -> None:
    services = build_llm({})
    assert not services.enabled
    assert services.classifier is None and services.general is None and services.research is None
    assert services.settings.describe()["classifier"] == "none (local paths)"


def test_auto_picks_deepseek_and_research_defaults_to_gemini() -> None:
    s = LLMSettings.from_env({"DEEPSEEK_API_KEY": DS, "GEMINI_API_KEY": GM})
    assert (s.general_provider, s.classifier_provider, s.research_provider) == (
        "deepseek", "deepseek", "gemini")
    services = build_llm({"DEEPSEEK_API_KEY": DS, "GEMINI_API_KEY": GM})
    assert isinstance(services.classifier.model, OpenAICompatModel)
    assert isinstance(services.research.model, GeminiModel)
    assert services.classifier.model_name == "deepseek-chat"
    assert services.research.model_name == "gemini-2.5-flash"
    assert services.general is services.classifier  # one client (one breaker) per provider


def test_per_task_overrides_models_and_base_urls() -> None:
    env = {
        "LLM_PROVIDER": "openai", "OPENAI_API_KEY": OA, "OPENAI_MODEL": "gpt-4.1-mini",
        "OPENAI_BASE_URL": "http://gateway.local/v1",
        "DEEPSEEK_API_KEY": DS, "LLM_CLASSIFIER_PROVIDER": "deepseek",
        "DEEPSEEK_BASE_URL": "http://ds.local", "DEEPSEEK_MODEL": "deepseek-reasoner",
        "LLM_RESEARCH_PROVIDER": "openai", "GEMINI_API_KEY": GM,
    }
    s = LLMSettings.from_env(env)
    assert (s.general_provider, s.classifier_provider, s.research_provider) == (
        "openai", "deepseek", "openai")
    assert s.providers["openai"].model == "gpt-4.1-mini"
    assert s.providers["deepseek"].base_url == "http://ds.local"
    described = json.dumps(s.describe())
    assert "gateway.local" in described and OA not in described and DS not in repr(s)
    services = build_llm(env)
    assert str(services.general.model._client.base_url).startswith("http://gateway.local/v1")
    assert services.classifier.model_name == "deepseek-reasoner"


def test_explicit_provider_without_key_is_none(caplog) -> None:
    s = LLMSettings.from_env({"LLM_PROVIDER": "gemini", "DEEPSEEK_API_KEY": DS})
    assert s.general_provider == "none"
    assert "no API key" in caplog.text
    assert LLMSettings.from_env({"LLM_PROVIDER": "claude"}).general_provider == "none"


def test_llm_provider_none_disables_research_too() -> None:
    s = LLMSettings.from_env({"LLM_PROVIDER": "none", "GEMINI_API_KEY": GM})
    assert s.research_provider == "none"
    s = LLMSettings.from_env({"LLM_PROVIDER": "none", "GEMINI_API_KEY": GM,
                              "LLM_RESEARCH_PROVIDER": "gemini"})
    assert s.research_provider == "gemini"


def test_numbers_and_budget_switches() -> None:
    s = LLMSettings.from_env({"LLM_DAILY_BUDGET_USD": "0.25", "LLM_BREAKER_COOLDOWN": "oops"})
    assert (s.daily_budget_usd, s.breaker_cooldown) == (0.25, 30.0)
    cascade = CascadeSettings.from_env({"LLM_CLASSIFY_TIMEOUT": "2.5", "LLM_CACHE_SIZE": "-3"})
    assert (cascade.timeout, cascade.cache_size, cascade.min_confidence) == (2.5, 0, 0.75)
    assert LLMSettings.from_env({}).daily_budget_usd == 1.0
    assert LLMSettings.from_env({"LLM_DAILY_BUDGET_USD": "off"}).daily_budget_usd is None
    assert LLMSettings.from_env({"LLM_DAILY_BUDGET_USD": "0"}).daily_budget_usd is None


def test_prices_by_prefix_and_override(caplog) -> None:
    table = PriceTable.from_json('{"my-model": [1, 2], "gpt-4o-mini": [0.2, 0.8]}')
    assert table.cost("my-model", 1_000_000, 500_000) == pytest.approx(2.0)
    assert table.price("gpt-4o-mini-2024-07-18").input_per_million == 0.2
    assert table.price("gemini-2.5-flash-lite-preview").input_per_million == 0.10
    assert table.price("models/gemini-2.5-flash").output_per_million == 2.50
    assert table.cost("mystery", 10, 10) == 0.0
    assert "no price" in caplog.text
    assert PriceTable.from_json("[oops").price("deepseek-chat") is not None


class Out(BaseModel):
    v: int


async def test_budget_per_workspace_then_local_with_a_note(tmp_path) -> None:
    env = {"DEEPSEEK_API_KEY": DS, "LLM_DAILY_BUDGET_USD": "0.001",
           "LLM_PRICES": '{"function": [100, 100]}'}  # 15 tokens -> $0.0015 a call
    model = FunctionModel(lambda messages, schema: {"v": 1})
    services = build_llm(env, data_dir=tmp_path, models={"deepseek": model})
    client = services.classifier
    request = StructuredRequest(task="classify", messages=[user("q")], schema=Out)
    meter = UsageMeter()
    tokens = current_meter.set(meter), current_workspace.set("T-ACME")
    try:
        await client.run(request)  # spends $0.0015 > $0.001
        with pytest.raises(BudgetExceeded):
            await client.run(request)
        assert meter.notes == [BudgetExceeded.default_message]
        current_workspace.set("T-OTHER")  # another workspace still has its budget
        await client.run(request)
    finally:
        current_meter.reset(tokens[0])
        current_workspace.reset(tokens[1])
    assert len(model.calls) == 2
    spend = read_spend(tmp_path / "llm")
    assert spend == {"T-ACME": pytest.approx(0.0015), "T-OTHER": pytest.approx(0.0015)}
    assert services.metrics.count("classify", "budget_exceeded") == 1


async def test_budget_survives_restart_and_resets_next_day(tmp_path) -> None:
    day = [date(2026, 3, 1)]
    budget = DailyBudget(1.0, path=tmp_path, today=lambda: day[0])
    await budget.add("W", 0.6)
    await budget.add("W", 0.5)
    again = DailyBudget(1.0, path=tmp_path, today=lambda: day[0])
    with pytest.raises(BudgetExceeded):
        again.check("W")
    day[0] = date(2026, 3, 2)
    again.check("W")
    assert again.spent("W") == 0.0 and again.remaining("W") == 1.0
    assert (tmp_path / "spend-2026-03-01.json").is_file()
