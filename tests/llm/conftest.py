"""Fixtures: the fake vendor servers on loopback, clients through the REAL SDKs, a manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from core.llm import CircuitBreaker, LLMClient, LLMMetrics, PriceTable, RetryPolicy
from core.llm.budget import DailyBudget
from core.llm.gemini import GeminiModel
from core.llm.openai_compat import OpenAICompatModel
from core.logs import Redactor
from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.llm_script import FakeReply, ScriptedLLMServer
from tests.fakes.openai_server import FakeOpenAIServer

SECRET_KEY = "sk-test-0123456789abcdefSECRET"


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Sleeps:
    """An injected ``sleep`` that records the waits and advances the clock instead of sleeping."""

    clock: ManualClock | None = None
    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        if self.clock is not None:
            self.clock.advance(seconds)


@dataclass
class Rig:
    """One provider end to end: its fake server, a real-SDK model, and the client around it."""

    name: str
    server: ScriptedLLMServer
    client: LLMClient
    sleeps: Sleeps
    metrics: LLMMetrics
    budget: DailyBudget

    def error(self, status: int, *, retry_after: float | None = None) -> FakeReply:
        if isinstance(self.server, FakeGeminiServer):
            return FakeGeminiServer.error(status, retry_after=retry_after)
        return FakeReply.error(status, retry_after=retry_after)


def make_client(model, *, sleeps: Sleeps, metrics: LLMMetrics | None = None,
                budget: DailyBudget | None = None, clock=None, prices: PriceTable | None = None,
                breaker: CircuitBreaker | None = None) -> LLMClient:
    kwargs = {"clock": clock} if clock is not None else {}
    return LLMClient(
        model,
        prices=prices or PriceTable(),
        budget=budget or DailyBudget(None),
        metrics=metrics or LLMMetrics(),
        breaker=breaker,
        retry=RetryPolicy(attempts=3, base_delay=0.01, jitter=0.0),
        sleep=sleeps,
        redact=Redactor([SECRET_KEY]),
        **kwargs,
    )


@pytest.fixture(params=["deepseek", "gemini"])
async def rig(request) -> AsyncIterator[Rig]:
    name = request.param
    server: ScriptedLLMServer = FakeOpenAIServer() if name == "deepseek" else FakeGeminiServer()
    await server.start()
    if name == "deepseek":
        model = OpenAICompatModel(api_key=SECRET_KEY, base_url=server.base_url)  # type: ignore[attr-defined]
    else:
        model = GeminiModel(api_key=SECRET_KEY, base_url=server.base_url)  # type: ignore[attr-defined]
    sleeps, metrics, budget = Sleeps(), LLMMetrics(), DailyBudget(None)
    client = make_client(model, sleeps=sleeps, metrics=metrics, budget=budget)
    try:
        yield Rig(name, server, client, sleeps, metrics, budget)
    finally:
        await client.aclose()
        await server.close()
