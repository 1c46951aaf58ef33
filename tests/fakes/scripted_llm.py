"""A scripted LLM behind the real ``LLMClient``: research tests answer each call from a function.

    llm = scripted_llm({"mode": "deep_probe", "rationale": "r."})          # every call, this answer
    llm = scripted_llm(lambda messages, schema: ..., latency=5)             # a slow, scripted model
    llm.model.calls                                                          # the prompts sent

The answer is what ``FunctionModel`` accepts (a dict, a JSON string, a pydantic object, or an
exception to raise); the client does the rest as in production (deadline, retries, validation,
one repair retry), without real waits between retries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from core.llm.client import LLMClient
from core.llm.contract import ChatMessage
from core.llm.function import FunctionModel, Step
from core.llm.retry import RetryPolicy
from core.research.web_search import WebResult

Script = Callable[[list[ChatMessage], type[BaseModel]], Any]


async def _no_wait(seconds: float) -> None:
    return None


def scripted_llm(answer: Script | Step, *, latency: float = 0.0) -> LLMClient:
    async def respond(messages: list[ChatMessage], schema: type[BaseModel]) -> Step:
        if latency:
            await asyncio.sleep(latency)
        if callable(answer) and not isinstance(answer, BaseModel | BaseException):
            return answer(messages, schema)  # type: ignore[no-any-return]
        return answer  # type: ignore[return-value]

    model = FunctionModel(respond, provider="scripted", model_name="scripted")
    return LLMClient(model, retry=RetryPolicy(attempts=1), sleep=_no_wait)


def asks_for(schema: type[BaseModel], field: str) -> bool:
    """True when the requested schema has ``field`` (tells the research tasks apart)."""
    return field in schema.model_fields


def calls_with(client: LLMClient, field: str) -> list[list[ChatMessage]]:
    """The prompts of the calls whose schema has ``field``."""
    model = client.model
    assert isinstance(model, FunctionModel)
    return [call.messages for call in model.calls if asks_for(call.schema, field)]


class StaticWebSearch:
    """A fake web search: fixed results per query (or for every query)."""

    def __init__(self, results: dict[str, list[WebResult]] | list[WebResult]) -> None:
        self._results = results
        self.queries: list[str] = []
        self.contexts: list[str] = []

    async def search(self, query: str, *, limit: int = 5, context: str = "") -> list[WebResult]:
        self.queries.append(query)
        self.contexts.append(context)
        found = self._results if isinstance(self._results, list) else self._results.get(query, [])
        return found[:limit]

