"""In-process LLM counters: calls, failures by kind, fallbacks, cache hits, cascade routing.

One ``LLMMetrics`` per app, shared by every client and task; ``snapshot()`` is what logs, the
``stats`` view and the cascade benchmark read. Keys are ``"<task>.<event>"`` plus a total per
event (``"*.<event>"``), e.g. ``classify.bad_output`` and ``*.bad_output``.
"""

from __future__ import annotations

from collections import Counter


class LLMMetrics:
    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self.usd = 0.0
        self.input_tokens = 0
        self.output_tokens = 0

    def incr(self, task: str, event: str, n: int = 1) -> None:
        self._counts[f"{task}.{event}"] += n
        self._counts[f"*.{event}"] += n

    def count(self, task: str, event: str) -> int:
        return self._counts[f"{task}.{event}"]

    def total(self, event: str) -> int:
        return self._counts[f"*.{event}"]

    def add_usage(self, input_tokens: int, output_tokens: int, usd: float) -> None:
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        self.usd += usd

    def snapshot(self) -> dict[str, float]:
        data: dict[str, float] = dict(sorted(self._counts.items()))
        data.update(usd=round(self.usd, 6), input_tokens=self.input_tokens,
                    output_tokens=self.output_tokens)
        return data

    def llm_share(self, task: str = "classify") -> float:
        """Share of ``task`` decisions that went to the LLM (the cascade's escalation rate)."""
        local, escalated = self.count(task, "local"), self.count(task, "escalated")
        return escalated / (local + escalated) if local + escalated else 0.0
