"""The research analyzer's and planner's model: ``core.research.llm.StructuredLLM`` on an
``LLMClient`` (Gemini Flash by default when ``GEMINI_API_KEY`` is set).

Research defines the prompts, schemas and local fallbacks (``LLMModeAnalyzer``, ``LLMPlanner``);
this adapter gives them the provider layer: retries, the breaker, the repair retry, cost and the
daily budget. Errors stay ``LLMError`` subclasses, which research answers with its local path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from pydantic import BaseModel

from core.llm.client import LLMClient
from core.llm.contract import ChatMessage, StructuredRequest

T = TypeVar("T", bound=BaseModel)


class _Message(Protocol):
    role: str
    content: str


class ClientStructuredLLM:
    """``structured(messages, schema, timeout=, task=)`` -> a validated ``schema`` instance."""

    def __init__(self, client: LLMClient, *, max_output_tokens: int = 1200) -> None:
        self.client = client
        self.name = f"{client.provider}:{client.model_name}"
        self.max_output_tokens = max_output_tokens

    async def structured(
        self, messages: Sequence[_Message], schema: type[T], *, timeout: float, task: str
    ) -> T:
        request = StructuredRequest(
            task=task,
            messages=[ChatMessage(m.role, m.content) for m in messages],  # type: ignore[arg-type]
            schema=schema,
            timeout=timeout,
            max_output_tokens=self.max_output_tokens,
        )
        return (await self.client.run(request)).output
