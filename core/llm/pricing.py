"""Prices per model (USD per million tokens) and the cost of one call.

The defaults are list prices as of late 2025 (cache-miss input prices); override or extend them
with ``LLM_PRICES`` (JSON: ``{"model": [input_per_million, output_per_million]}``). Dated model
versions match by prefix ("gemini-2.5-flash-preview-09-2025" is priced as "gemini-2.5-flash").
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger("omg.llm.pricing")


@dataclass(frozen=True, slots=True)
class Price:
    input_per_million: float
    output_per_million: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (
            input_tokens * self.input_per_million + output_tokens * self.output_per_million
        ) / 1_000_000


DEFAULT_PRICES: dict[str, Price] = {
    # DeepSeek V3 (deepseek-chat) and the reasoner
    "deepseek-chat": Price(0.28, 0.42),
    "deepseek-reasoner": Price(0.28, 0.42),
    # Gemini Flash family
    "gemini-2.5-flash": Price(0.30, 2.50),
    "gemini-2.5-flash-lite": Price(0.10, 0.40),
    "gemini-2.0-flash": Price(0.10, 0.40),
    "gemini-2.0-flash-lite": Price(0.075, 0.30),
    "gemini-flash-latest": Price(0.30, 2.50),
    # OpenAI
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-5-mini": Price(0.25, 2.00),
    "gpt-5-nano": Price(0.05, 0.40),
}


class PriceTable:
    def __init__(self, prices: Mapping[str, Price] | None = None) -> None:
        self._prices = dict(DEFAULT_PRICES if prices is None else prices)
        self._warned: set[str] = set()

    @classmethod
    def from_json(cls, raw: str | None) -> "PriceTable":
        """The defaults, updated from an ``LLM_PRICES`` JSON object (bad JSON is logged, ignored)."""
        table = cls()
        if not raw or not raw.strip():
            return table
        try:
            data = json.loads(raw)
            for model, pair in dict(data).items():
                table._prices[str(model)] = Price(float(pair[0]), float(pair[1]))
        except (ValueError, TypeError, IndexError, KeyError):
            log.warning("LLM_PRICES is not a JSON object of [input, output] pairs; ignored")
        return table

    def price(self, model: str) -> Price | None:
        if model in self._prices:
            return self._prices[model]
        name = model.rsplit("/", 1)[-1]  # "models/gemini-2.5-flash", "deepseek/deepseek-chat"
        matches = [m for m in self._prices if name == m or name.startswith(m + "-")]
        return self._prices[max(matches, key=len)] if matches else None

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float:
        price = self.price(model)
        if price is None:
            if model not in self._warned:
                self._warned.add(model)
                log.warning("no price for model; its cost counts as $0 (set LLM_PRICES)",
                            extra={"model": model})
            return 0.0
        return price.cost(input_tokens, output_tokens)

    def items(self) -> list[tuple[str, Price]]:
        return sorted(self._prices.items())
