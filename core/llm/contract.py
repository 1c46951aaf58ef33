"""The provider contract: one small request/response pair and the ``Model`` protocol.

A ``Model`` (one module per vendor: ``openai_compat``, ``gemini``, ``function``) turns a list of
chat messages plus a pydantic output schema into raw text and real token usage. Everything
provider-independent (timeouts, retries, the circuit breaker, parsing and validating the JSON,
one repair retry, pricing, the daily budget) lives in ``core.llm.client.LLMClient``, so adding a
vendor means writing one ``request`` method and mapping its errors onto ``core.errors``:

    LLMTimeout       the call ran out of time
    LLMRateLimited   429 (``retry_after`` from ``Retry-After`` or the vendor's retry hint)
    LLMUnavailable   5xx or a connection error
    LLMRejected      any other 4xx (bad key, unknown model, refused request)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

OutputT = TypeVar("OutputT", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Literal["system", "user", "assistant"]
    content: str


def system(content: str) -> ChatMessage:
    return ChatMessage("system", content)


def user(content: str) -> ChatMessage:
    return ChatMessage("user", content)


def assistant(content: str) -> ChatMessage:
    return ChatMessage("assistant", content)


@dataclass(frozen=True, slots=True)
class TokenUsage:
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: "TokenUsage") -> "TokenUsage":
        return TokenUsage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )


@dataclass(frozen=True, slots=True)
class ModelResponse:
    """What a vendor returned: the raw text (not yet parsed) and the tokens it billed."""

    text: str
    usage: TokenUsage
    model: str  # the model that answered (vendors may report a dated version)


@dataclass(slots=True)
class StructuredRequest(Generic[OutputT]):
    """Ask for one ``schema`` object.

    ``task`` names the use ("classify", "translate", "readme", ...) for metrics, logs and cost
    records; ``timeout`` bounds the whole call (retries and the repair retry included);
    ``workspace`` overrides the current workspace (``core.usage.current_workspace``) for the
    daily budget.
    """

    task: str
    messages: list[ChatMessage]
    schema: type[OutputT]
    timeout: float = 10.0
    max_output_tokens: int | None = 800
    temperature: float = 0.0
    workspace: str | None = None


@dataclass(slots=True)
class StructuredResult(Generic[OutputT]):
    """The parsed, validated object plus what it cost (all attempts included)."""

    output: OutputT
    usage: TokenUsage
    usd: float
    provider: str
    model: str
    attempts: int = 1  # HTTP calls made, retries and the repair retry included
    repaired: bool = False
    raw: str = field(default="", repr=False)


class Model(Protocol):
    """A vendor adapter. ``provider`` is the configured name ("deepseek", "gemini", ...)."""

    provider: str
    model_name: str

    async def request(
        self,
        messages: list[ChatMessage],
        *,
        schema: type[BaseModel],
        timeout: float,
        max_output_tokens: int | None,
        temperature: float,
    ) -> ModelResponse:
        """One HTTP call, no retries. Raise the ``core.errors`` LLM errors listed above."""
        ...

    async def aclose(self) -> None: ...


class GroundedSource(BaseModel):
    """A web page a grounded search answer rests on (``core.llm.grounding``)."""

    url: str
    title: str
    claims: list[str] = Field(default_factory=list)  # answer sentences this page supports best


class GroundedAnswer(BaseModel):
    """A grounded web search's answer: the text, what the search engine was asked, the pages."""

    answer: str = ""
    queries: list[str] = Field(default_factory=list)  # what Google was asked
    sources: list[GroundedSource] = Field(default_factory=list)  # grounding order, unique URLs
