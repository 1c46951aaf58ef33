"""The small LLM seams research uses, and scriptable fakes for tests and benchmarks.

``StructuredLLM`` is "messages + a pydantic schema -> a validated object"; errors are
``core.errors.LLMError`` subclasses, and every caller falls back to its local path on them.
``WebSearch`` is the optional web search: Gemini grounded on Google Search
(``core.research.web_search``) in the app. The project's provider layer (core.llm) plugs in
through ``core.research.llm_client`` and ``core.research.web_search``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from core.errors import LLMBadOutput, LLMTimeout
from core.models import WireModel

T = TypeVar("T", bound=BaseModel)


class ChatMessage(WireModel):
    role: Literal["system", "user", "assistant"]
    content: str


class StructuredLLM(Protocol):
    name: str

    async def structured(
        self, messages: Sequence[ChatMessage], schema: type[T], *, timeout: float, task: str
    ) -> T:
        """A ``schema`` instance, or raise an LLMError (timeout, bad output, rate limit...)."""
        ...


class WebResult(WireModel):
    title: str
    url: str
    snippet: str = ""


class WebSearch(Protocol):
    async def search(self, query: str, *, limit: int = 5, context: str = "") -> list[WebResult]:
        """Pages for ``query`` (``context``: the research goal and step, for a better search);
        raise an OmgError (LLMError) on failure."""
        ...


Script = Callable[[str, Sequence[ChatMessage]], Any]


class ScriptedLLM:
    """A fake model: answers from a script after ``latency`` seconds, recording every call.

    ``script(task, messages)`` returns a dict / model instance / JSON string for the schema,
    or an exception instance to raise. ``latency`` beyond the call's timeout raises LLMTimeout,
    just as a real provider would.
    """

    name = "scripted"

    def __init__(self, script: Script | dict[str, Any], *, latency: float = 0.0) -> None:
        self._script = script
        self.latency = latency
        self.calls: list[tuple[str, list[ChatMessage]]] = []

    async def structured(
        self, messages: Sequence[ChatMessage], schema: type[T], *, timeout: float, task: str
    ) -> T:
        self.calls.append((task, list(messages)))
        if self.latency > timeout:
            await asyncio.sleep(timeout)
            raise LLMTimeout()
        if self.latency:
            await asyncio.sleep(self.latency)
        answer = self._script(task, messages) if callable(self._script) else self._script.get(task)
        if isinstance(answer, BaseException):
            raise answer
        try:
            if isinstance(answer, schema):
                return answer
            if isinstance(answer, str):
                return schema.model_validate_json(answer)
            return schema.model_validate(answer)
        except ValidationError as exc:
            raise LLMBadOutput(raw=str(answer)[:500], reason=str(exc)[:500]) from exc


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
