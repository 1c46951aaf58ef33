"""``LLMClient``: ask a ``Model`` for one validated pydantic object, or fail fast and cleanly.

One call, in order: the workspace's daily budget -> the circuit breaker -> the model call under
the retry policy, all inside the request's deadline -> parse and validate -> at most ONE repair
call -> price the real usage, record it (``core.usage``, the budget, the metrics) and log it.

Every failure raises an ``LLMError`` subclass; callers catch ``LLMError`` and take their local
path. Failures the user should know about add a footer note (``core.usage.add_note``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from core.errors import (
    BudgetExceeded,
    CircuitOpen,
    LLMBadOutput,
    LLMError,
    LLMRateLimited,
    LLMRejected,
    LLMTimeout,
    LLMUnavailable,
    log_failure,
)
from core.llm.breaker import CircuitBreaker
from core.llm.budget import DailyBudget
from core.llm.contract import ChatMessage, Model, ModelResponse, StructuredRequest, StructuredResult, TokenUsage
from core.llm.metrics import LLMMetrics
from core.llm.parsing import parse_output, repair_messages, truncate_for_log
from core.llm.pricing import PriceTable
from core.llm.retry import RetryPolicy, Sleep, call_with_retries
from core.logs import Redactor
from core.usage import UsageRecord, add_note, current_workspace, record_usage

log = logging.getLogger("omg.llm")

T = TypeVar("T", bound=BaseModel)

UNAVAILABLE_NOTE = LLMError.default_message
BUDGET_NOTE = BudgetExceeded.default_message
_FAILURE_EVENTS: dict[type[LLMError], str] = {
    LLMTimeout: "timeout",
    LLMRateLimited: "rate_limited",
    LLMUnavailable: "unavailable",
    LLMRejected: "rejected",
}


class LLMClient:
    def __init__(
        self,
        model: Model,
        *,
        prices: PriceTable | None = None,
        budget: DailyBudget | None = None,
        metrics: LLMMetrics | None = None,
        breaker: CircuitBreaker | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        redact: Redactor | None = None,
    ) -> None:
        self.model = model
        self.prices = prices or PriceTable()
        self.budget = budget or DailyBudget(None)
        self.metrics = metrics or LLMMetrics()
        self.breaker = breaker or CircuitBreaker(name=model.provider, clock=clock)
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._clock = clock
        self._redact = redact or Redactor()

    @property
    def provider(self) -> str:
        return self.model.provider

    @property
    def model_name(self) -> str:
        return self.model.model_name

    async def aclose(self) -> None:
        await self.model.aclose()

    async def run(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        task = request.task
        workspace = request.workspace or current_workspace.get()
        self.metrics.incr(task, "requests")
        try:
            self.budget.check(workspace)
        except BudgetExceeded:
            self.metrics.incr(task, "budget_exceeded")
            add_note(BUDGET_NOTE)
            raise
        try:
            self.breaker.before_call()
        except CircuitOpen:
            self.metrics.incr(task, "circuit_open")
            add_note(UNAVAILABLE_NOTE)
            log.info("llm skipped: circuit open",
                     extra={"task": task, "provider": self.provider,
                            "retry_in_s": round(self.breaker.retry_in(), 1)})
            raise
        started = self._clock()
        try:
            async with asyncio.timeout(request.timeout):
                result = await self._structured(request, workspace, started + request.timeout)
        except LLMBadOutput as exc:
            self.breaker.record_success()  # the provider answered; the answer was unusable
            self.metrics.incr(task, "invalid_output")
            add_note(UNAVAILABLE_NOTE)
            log.warning(
                "llm output invalid after one repair; local fallback",
                extra={"task": task, "provider": self.provider, "model": self.model_name,
                       "reason": exc.reason, "output": self._redact(truncate_for_log(exc.raw))},
            )
            raise
        except TimeoutError:
            self._failed(task, "timeout", started)
            raise LLMTimeout() from None
        except LLMError as exc:
            self._failed(task, _FAILURE_EVENTS.get(type(exc), "error"), started, exc)
            raise
        except asyncio.CancelledError:
            self.breaker.release()
            raise
        except Exception as exc:  # an SDK surprise must not take the turn down
            log_failure(log, "llm call crashed", exc, task=task, provider=self.provider)
            self._failed(task, "crashed", started)
            raise LLMUnavailable() from exc
        self.breaker.record_success()
        self.metrics.incr(task, "ok")
        return result

    def _failed(self, task: str, event: str, started: float, exc: Exception | None = None) -> None:
        self.breaker.record_failure()
        self.metrics.incr(task, event)
        add_note(UNAVAILABLE_NOTE)
        extra: dict[str, object] = {
            "task": task, "provider": self.provider, "model": self.model_name, "error": event,
            "elapsed_ms": round((self._clock() - started) * 1000, 1),
            "breaker": self.breaker.state.value,
        }
        if isinstance(exc, LLMRejected) and exc.status:
            extra["status"] = exc.status
            extra["reason"] = self._redact(exc.reason[:200])
        log.warning("llm call failed; local fallback", extra=extra)

    async def _structured(
        self, request: StructuredRequest[T], workspace: str | None, deadline: float
    ) -> StructuredResult[T]:
        response, attempts, usd = await self._call(request, request.messages, workspace, deadline)
        usage, raw, repaired = response.usage, response.text, False
        try:
            output = parse_output(response.text, request.schema)
        except LLMBadOutput as bad:
            self.metrics.incr(request.task, "bad_output")
            log.info(
                "llm output invalid; one repair retry",
                extra={"task": request.task, "reason": bad.reason,
                       "output": self._redact(truncate_for_log(bad.raw))},
            )
            messages = repair_messages(request.messages, response.text, bad.reason, request.schema)
            second, more, more_usd = await self._call(request, messages, workspace, deadline)
            attempts, usd = attempts + more, usd + more_usd
            usage, raw, repaired = usage + second.usage, second.text, True
            output = parse_output(second.text, request.schema)
            self.metrics.incr(request.task, "repaired")
        return StructuredResult(
            output=output,
            usage=usage,
            usd=usd,
            provider=self.provider,
            model=response.model,
            attempts=attempts,
            repaired=repaired,
            raw=raw,
        )

    async def _call(
        self,
        request: StructuredRequest[T],
        messages: list[ChatMessage],
        workspace: str | None,
        deadline: float,
    ) -> tuple[ModelResponse, int, float]:
        def remaining() -> float:
            return deadline - self._clock()

        async def attempt() -> ModelResponse:
            self.metrics.incr(request.task, "http_calls")
            return await self.model.request(
                messages,
                schema=request.schema,
                timeout=max(0.05, remaining()),
                max_output_tokens=request.max_output_tokens,
                temperature=request.temperature,
            )

        started = self._clock()
        response, attempts = await call_with_retries(
            attempt, policy=self.retry, remaining=remaining, sleep=self._sleep,
            label=f"{self.provider}:{request.task}",
        )
        usd = await self._account(request.task, response, workspace, started)
        return response, attempts, usd

    async def _account(
        self, task: str, response: ModelResponse, workspace: str | None, started: float
    ) -> float:
        usage: TokenUsage = response.usage
        usd = self.prices.cost(response.model, usage.input_tokens, usage.output_tokens)
        record_usage(UsageRecord(self.provider, response.model, task,
                                 usage.input_tokens, usage.output_tokens, usd))
        self.metrics.add_usage(usage.input_tokens, usage.output_tokens, usd)
        await self.budget.add(workspace, usd)
        log.info(
            "llm call",
            extra={"task": task, "provider": self.provider, "model": response.model,
                   "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens,
                   "usd": round(usd, 8), "workspace": workspace,
                   "latency_ms": round((self._clock() - started) * 1000, 1)},
        )
        return usd
