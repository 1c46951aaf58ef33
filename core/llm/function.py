"""``FunctionModel``: a scriptable fake ``Model`` for unit tests and benchmarks (no network).

Like pydantic-ai's FunctionModel: answer with a function of the messages, or from a queue of
scripted steps, each a reply text, a pydantic object / dict (sent as JSON), an exception to
raise (``LLMRateLimited(2.0)``, ``LLMUnavailable(503)``...) or a ``Delay`` before the next step::

    model = FunctionModel.script(
        LLMUnavailable(500),
        {"intent": "search", "confidence": 0.9, "reasoning": "find"},
    )
    client = LLMClient(model, sleep=no_sleep)

Every call is recorded (``model.calls``) so a test can assert on the prompt that was sent.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Union

from pydantic import BaseModel

from core.llm.contract import ChatMessage, ModelResponse, TokenUsage


@dataclass(frozen=True, slots=True)
class Delay:
    """Sleep this long, then take the next scripted step (a slow model)."""

    seconds: float


Step = Union[str, dict, BaseModel, BaseException, Delay, ModelResponse]
Responder = Callable[[list[ChatMessage], type[BaseModel]], Union[Step, Awaitable[Step]]]


@dataclass(frozen=True, slots=True)
class Call:
    messages: list[ChatMessage]
    schema: type[BaseModel]
    timeout: float


class FunctionModel:
    def __init__(
        self,
        responder: Responder | None = None,
        *,
        provider: str = "function",
        model_name: str = "function",
        usage: TokenUsage = TokenUsage(10, 5),
    ) -> None:
        self.provider = provider
        self.model_name = model_name
        self.usage = usage
        self.steps: deque[Step] = deque()
        self.responder = responder
        self.calls: list[Call] = []
        self.closed = False

    @classmethod
    def script(cls, *steps: Step, **kwargs: Any) -> "FunctionModel":
        model = cls(**kwargs)
        model.steps.extend(steps)
        return model

    def push(self, *steps: Step) -> "FunctionModel":
        self.steps.extend(steps)
        return self

    async def request(
        self,
        messages: list[ChatMessage],
        *,
        schema: type[BaseModel],
        timeout: float,
        max_output_tokens: int | None = None,
        temperature: float = 0.0,
    ) -> ModelResponse:
        self.calls.append(Call(list(messages), schema, timeout))
        step = await self._next(messages, schema)
        while isinstance(step, Delay):
            await asyncio.sleep(step.seconds)
            step = await self._next(messages, schema)
        if isinstance(step, BaseException):
            raise step
        if isinstance(step, ModelResponse):
            return step
        return ModelResponse(text=_as_text(step), usage=self.usage, model=self.model_name)

    async def _next(self, messages: list[ChatMessage], schema: type[BaseModel]) -> Step:
        if self.steps:
            return self.steps.popleft()
        if self.responder is None:
            raise AssertionError("FunctionModel: no scripted step left and no responder")
        step = self.responder(messages, schema)
        return await step if inspect.isawaitable(step) else step

    async def aclose(self) -> None:
        self.closed = True


def _as_text(step: Step) -> str:
    if isinstance(step, str):
        return step
    if isinstance(step, BaseModel):
        return step.model_dump_json()
    return json.dumps(step)
