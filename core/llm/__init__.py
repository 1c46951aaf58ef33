"""LLM providers behind one small contract, with local fallbacks everywhere.

    build_llm(env) -> LLMServices      what serves classification, general tasks and research
    LLMClient.run(StructuredRequest)   -> StructuredResult (parsed object + real usage + cost)
    Model                              vendor adapters: OpenAICompatModel (DeepSeek / OpenAI /
                                       gateways), GeminiModel, FunctionModel (scripted, tests)

No key (or ``LLM_PROVIDER=none``) -> every client is ``None`` and callers use their local paths.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from core.llm.breaker import CircuitBreaker
from core.llm.budget import DailyBudget
from core.llm.client import LLMClient
from core.llm.contract import (
    ChatMessage,
    Model,
    ModelResponse,
    StructuredRequest,
    StructuredResult,
    TokenUsage,
    assistant,
    system,
    user,
)
from core.llm.function import Delay, FunctionModel
from core.llm.metrics import LLMMetrics
from core.llm.pricing import Price, PriceTable
from core.llm.retry import RetryPolicy, Sleep
from core.llm.settings import NONE, LLMSettings, ProviderConfig
from core.logs import Redactor, secret_values

log = logging.getLogger("omg.llm")

__all__ = [
    "ChatMessage", "CircuitBreaker", "DailyBudget", "Delay", "FunctionModel", "LLMClient",
    "LLMMetrics", "LLMServices", "LLMSettings", "Model", "ModelResponse", "Price", "PriceTable",
    "RetryPolicy", "StructuredRequest", "StructuredResult", "TokenUsage", "assistant", "build_llm",
    "make_model", "system", "user",
]


@dataclass
class LLMServices:
    """The app's LLM clients: ``None`` where no provider is configured (local paths serve)."""

    settings: LLMSettings
    metrics: LLMMetrics
    budget: DailyBudget
    prices: PriceTable
    classifier: LLMClient | None = None
    general: LLMClient | None = None
    research: LLMClient | None = None
    clients: dict[str, LLMClient] = field(default_factory=dict)

    @property
    def enabled(self) -> bool:
        return bool(self.clients)

    async def aclose(self) -> None:
        for client in self.clients.values():
            try:
                await client.aclose()
            except Exception as exc:  # closing must never fail shutdown; a dropped connection is expected here
                log.debug("closing an LLM client failed: %r", exc)


def make_model(config: ProviderConfig, *, json_mode: bool = True) -> Model:
    """The vendor adapter for one configured provider (imports the SDK lazily)."""
    if config.name == "gemini":
        from core.llm.gemini import GeminiModel

        return GeminiModel(api_key=config.api_key, model=config.model, base_url=config.base_url)
    from core.llm.openai_compat import OpenAICompatModel

    return OpenAICompatModel(
        api_key=config.api_key, base_url=config.base_url or "", model=config.model,
        provider=config.name, json_mode=json_mode,
    )


def build_llm(
    env: Mapping[str, str],
    *,
    data_dir: Path | None = None,
    models: Mapping[str, Model] | None = None,
    sleep: Sleep = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    metrics: LLMMetrics | None = None,
) -> LLMServices:
    """Build the clients ``env`` asks for. ``models`` replaces vendor adapters by provider name
    (tests inject a ``FunctionModel``); ``sleep`` / ``clock`` are injectable for the retry waits and
    the breaker; with ``data_dir`` the daily spend is kept under ``<data_dir>/llm/``."""
    settings = LLMSettings.from_env(env, data_dir=data_dir)
    prices = PriceTable.from_json(settings.prices_json)
    budget = DailyBudget(settings.daily_budget_usd, path=settings.budget_dir)
    services = LLMServices(settings=settings, metrics=metrics or LLMMetrics(),
                           budget=budget, prices=prices)
    redact = Redactor(secret_values(env))
    retry = RetryPolicy(attempts=settings.retry_attempts, base_delay=settings.retry_base_delay,
                        max_delay=settings.retry_max_delay)
    for name in {settings.classifier_provider, settings.general_provider, settings.research_provider}:
        if name == NONE:
            continue
        injected = (models or {}).get(name)
        model = injected or make_model(settings.providers[name], json_mode=settings.json_mode)
        breaker = CircuitBreaker(name=name, failure_threshold=settings.breaker_failures,
                                 cooldown_seconds=settings.breaker_cooldown, clock=clock)
        services.clients[name] = LLMClient(
            model, prices=prices, budget=budget, metrics=services.metrics, breaker=breaker,
            retry=retry, sleep=sleep, clock=clock, redact=redact,
        )
    services.classifier = services.clients.get(settings.classifier_provider)
    services.general = services.clients.get(settings.general_provider)
    services.research = services.clients.get(settings.research_provider)
    log.info("llm configured", extra=settings.describe())
    return services
