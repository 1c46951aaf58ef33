"""The synthesizer contract: validated structured data -> Markdown + follow-up suggestions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pydantic import Field

from core.agents.base import AgentResult
from core.models import Intent, StructuredData, WireModel


@dataclass(slots=True, frozen=True)
class SynthesisContext:
    intent: Intent
    message: str  # the user's message this answers
    previous: StructuredData | None = None  # the thread's previous structured result
    previous_query: str | None = None  # for "Following up on the React libraries we found..."


class Synthesis(WireModel):
    markdown: str
    suggestions: list[str] = Field(default_factory=list)
    data: StructuredData | None = None  # validated (None when invalid or absent)
    error_code: str | None = None  # "invalid_data" | agent error codes


class Synthesizer(Protocol):
    def synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        """Pure, fast, no LLM, never raises."""
        ...
