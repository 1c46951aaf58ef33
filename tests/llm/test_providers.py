"""Both providers end to end through their REAL SDKs against the fake servers on loopback."""

from __future__ import annotations

import json
import logging
import time
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from core.errors import LLMBadOutput, LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable
from core.llm import StructuredRequest, system, user
from core.llm.pricing import DEFAULT_PRICES
from core.usage import UsageMeter, current_meter
from tests.fakes.llm_script import FakeReply
from tests.llm.conftest import SECRET_KEY, Rig


class Verdict(BaseModel):
    intent: Literal["search", "analyze", "compare", "chat", "clarify"]
    confidence: float = Field(ge=0, le=1)
    reasoning: str = ""


GOOD = {"intent": "search", "confidence": 0.92, "reasoning": "wants to find libraries"}


def ask(timeout: float = 5.0) -> StructuredRequest[Verdict]:
    return StructuredRequest(
        task="classify",
        messages=[system("You classify intents."), user("find React state libraries")],
        schema=Verdict,
        timeout=timeout,
    )


async def test_good_json(rig: Rig) -> None:
    rig.server.push_json(GOOD, input_tokens=120, output_tokens=30)
    result = await rig.client.run(ask())
    assert result.output == Verdict(**GOOD)
    assert (result.usage.input_tokens, result.usage.output_tokens) == (120, 30)
    assert result.attempts == 1 and not result.repaired
    assert rig.metrics.count("classify", "ok") == 1


async def test_request_uses_json_mode_or_response_schema(rig: Rig) -> None:
    rig.server.push_json(GOOD)
    await rig.client.run(ask())
    body = rig.server.requests[0]
    if rig.name == "deepseek":
        assert body["model"] == "deepseek-chat"
        assert body["response_format"] == {"type": "json_object"}
        assert body["messages"][0]["role"] == "system"
        assert "JSON" in body["messages"][0]["content"]
        assert body["messages"][-1] == {"role": "user", "content": "find React state libraries"}
        assert rig.server.headers[0]["Authorization"] == f"Bearer {SECRET_KEY}"
    else:
        config = body["generationConfig"]
        assert config["responseMimeType"] == "application/json"
        assert config["responseJsonSchema"]["properties"]["intent"]["enum"][0] == "search"
        assert body["systemInstruction"]["parts"][0]["text"] == "You classify intents."
        assert body["contents"] == [{"role": "user", "parts": [{"text": "find React state libraries"}]}]
        assert rig.server.paths[0].endswith("/models/gemini-2.5-flash:generateContent")
        assert rig.server.headers[0]["x-goog-api-key"] == SECRET_KEY


async def test_fenced_json(rig: Rig) -> None:
    rig.server.push_text("Sure! Here it is:\n```json\n" + json.dumps(GOOD) + "\n```\nAnything else?")
    assert (await rig.client.run(ask())).output.intent == "search"


async def test_think_preamble(rig: Rig) -> None:
    thinking = "<think>The user says find... {\"intent\": \"chat\"} is wrong.</think>\n"
    rig.server.push_text(thinking + json.dumps(GOOD))
    result = await rig.client.run(ask())
    assert result.output.intent == "search"
    assert rig.server.calls == 1


async def test_invalid_json_gets_one_repair_retry(rig: Rig) -> None:
    rig.server.push_text("intent: search, confidence high", input_tokens=50, output_tokens=8)
    rig.server.push_json(GOOD, input_tokens=90, output_tokens=20)
    result = await rig.client.run(ask())
    assert result.output.intent == "search"
    assert result.repaired and result.attempts == 2
    assert (result.usage.input_tokens, result.usage.output_tokens) == (140, 28)
    repair_prompt = json.dumps(rig.server.requests[1])
    assert "not valid" in repair_prompt and "intent: search, confidence high" in repair_prompt
    assert rig.metrics.count("classify", "bad_output") == 1
    assert rig.metrics.count("classify", "repaired") == 1


async def test_invalid_twice_falls_back_with_metric_and_log(rig: Rig, caplog) -> None:
    garbage = f"I think it is search. My key is {SECRET_KEY}. " + "x" * 2000
    rig.server.push_text(garbage).push_text(garbage)
    with caplog.at_level(logging.INFO, logger="omg.llm"):
        with pytest.raises(LLMBadOutput):
            await rig.client.run(ask())
    assert rig.server.calls == 2  # one repair retry, never more
    assert rig.metrics.count("classify", "invalid_output") == 1
    assert rig.metrics.total("invalid_output") == 1
    failures = [r for r in caplog.records if "invalid after one repair" in r.getMessage()]
    assert len(failures) == 1
    logged = failures[0].output  # type: ignore[attr-defined]
    assert SECRET_KEY not in logged and "[REDACTED]" in logged
    assert len(logged) < 400  # truncated


async def test_schema_mismatch_repairs_then_falls_back(rig: Rig) -> None:
    rig.server.push_json({"intent": "shopping", "confidence": 3})
    rig.server.push_json({"label": "search"})
    with pytest.raises(LLMBadOutput) as info:
        await rig.client.run(ask())
    assert "intent" in info.value.reason
    assert "shopping" in json.dumps(rig.server.requests[1])  # the repair showed the bad answer


async def test_slower_than_timeout(rig: Rig) -> None:
    rig.server.push(FakeReply.json(GOOD, delay=2.0))
    started = time.perf_counter()
    with pytest.raises(LLMTimeout):
        await rig.client.run(ask(timeout=0.3))
    assert time.perf_counter() - started < 1.5
    assert rig.metrics.count("classify", "timeout") == 1
    assert rig.client.breaker.consecutive_failures == 1


async def test_429_honours_retry_after(rig: Rig) -> None:
    rig.server.push(rig.error(429, retry_after=2.5))
    rig.server.push_json(GOOD)
    result = await rig.client.run(ask())
    assert result.output.intent == "search"
    assert rig.sleeps.waits == [2.5]
    assert result.attempts == 2


async def test_429_retry_after_beyond_deadline_gives_up_at_once(rig: Rig) -> None:
    rig.server.push(rig.error(429, retry_after=60))
    with pytest.raises(LLMRateLimited) as info:
        await rig.client.run(ask(timeout=5))
    assert info.value.retry_after == 60
    assert rig.sleeps.waits == [] and rig.server.calls == 1


async def test_500s_back_off_exponentially_then_fail(rig: Rig) -> None:
    rig.server.push(rig.error(500), rig.error(503), rig.error(500))
    with pytest.raises(LLMUnavailable):
        await rig.client.run(ask())
    assert rig.server.calls == 3  # 3 attempts, SDK retries off
    assert rig.sleeps.waits == [0.01, 0.02]
    assert rig.metrics.count("classify", "unavailable") == 1


async def test_500_then_success(rig: Rig) -> None:
    rig.server.push(rig.error(500)).push_json(GOOD)
    assert (await rig.client.run(ask())).output.intent == "search"
    assert rig.server.calls == 2


async def test_401_is_not_retried(rig: Rig) -> None:
    rig.server.push(rig.error(401))
    with pytest.raises(LLMRejected) as info:
        await rig.client.run(ask())
    assert info.value.status == 401 and rig.server.calls == 1


async def test_cost_is_usage_times_price_table(rig: Rig) -> None:
    rig.server.push_text("not json", input_tokens=1000, output_tokens=200)
    rig.server.push_json(GOOD, input_tokens=1500, output_tokens=100)
    meter = UsageMeter()
    token = current_meter.set(meter)
    try:
        result = await rig.client.run(ask())
    finally:
        current_meter.reset(token)
    price = DEFAULT_PRICES["deepseek-chat" if rig.name == "deepseek" else "gemini-2.5-flash"]
    expected = (2500 * price.input_per_million + 300 * price.output_per_million) / 1e6
    assert result.usd == pytest.approx(expected)
    assert [(r.input_tokens, r.output_tokens) for r in meter.records] == [(1000, 200), (1500, 100)]
    assert meter.usd == pytest.approx(expected)
    assert {r.provider for r in meter.records} == {rig.name}
    assert rig.metrics.usd == pytest.approx(expected)
    assert rig.budget.spent(None) == pytest.approx(expected)


async def test_openai_reasoning_models_get_their_parameters() -> None:
    from core.llm.openai_compat import OpenAICompatModel
    from tests.fakes.openai_server import FakeOpenAIServer
    from tests.llm.conftest import Sleeps, make_client

    async with FakeOpenAIServer() as server:
        server.push_json(GOOD).push_json(GOOD)
        for model_name in ("gpt-5-mini", "gpt-4o-mini"):
            model = OpenAICompatModel(api_key="sk-test-openai-000000000", base_url=server.base_url,
                                      model=model_name, provider="openai")
            client = make_client(model, sleeps=Sleeps())
            await client.run(ask())
            await client.aclose()
    reasoning, classic = server.requests
    assert "temperature" not in reasoning and reasoning["max_completion_tokens"] == 3200
    assert classic["temperature"] == 0 and classic["max_completion_tokens"] == 800
    assert "max_tokens" not in classic


def test_gemini_schema_keeps_only_supported_keywords() -> None:
    from core.llm.gemini import gemini_schema

    class Nested(BaseModel):
        kind: Literal["only"]
        note: str = Field(default="", max_length=10)

    class Outer(BaseModel):
        items: list[Nested] = Field(default_factory=list, max_length=3)
        score: float = Field(ge=0, le=10)

    schema = gemini_schema(Outer)
    text = json.dumps(schema)
    assert "default" not in text and "maxLength" not in text and "const" not in text
    assert schema["$defs"]["Nested"]["properties"]["kind"]["enum"] == ["only"]
    assert schema["properties"]["items"]["maxItems"] == 3
    assert schema["properties"]["score"] == {"maximum": 10, "minimum": 0, "title": "Score",
                                             "type": "number"}


async def test_gemini_retry_info_detail_is_honoured_without_a_header() -> None:
    from core.llm.gemini import GeminiModel
    from tests.fakes.gemini_server import FakeGeminiServer
    from tests.llm.conftest import Sleeps, make_client

    async with FakeGeminiServer() as server:
        server.push(FakeGeminiServer.error(429, retry_delay="1.5s")).push_json(GOOD)
        sleeps = Sleeps()
        client = make_client(GeminiModel(api_key="gm-test-key-0000", base_url=server.base_url),
                             sleeps=sleeps)
        assert (await client.run(ask())).output.intent == "search"
        await client.aclose()
    assert sleeps.waits == [1.5]
