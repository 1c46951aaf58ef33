"""The synthesizer contract: validated structured data -> a document + follow-up suggestions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pydantic import Field, computed_field, model_validator

from core.agents.base import AgentResult
from core.models import Document, Intent, StructuredData, WireModel, to_markdown
from core.models.reply import text_as_document


@dataclass(slots=True, frozen=True)
class SynthesisContext:
    intent: Intent
    message: str  # the user's message this answers
    previous: StructuredData | None = None  # the thread's previous structured result
    previous_query: str | None = None  # for "Following up on the React libraries we found..."


class Synthesis(WireModel):
    """The answer as a document; ``Synthesis(markdown=...)`` is a plain-text one."""

    document: Document = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    data: StructuredData | None = None  # validated (None when invalid or absent)
    error_code: str | None = None  # "invalid_data" | agent error codes

    _text_input = model_validator(mode="before")(text_as_document)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def markdown(self) -> str:
        return to_markdown(self.document)


class Synthesizer(Protocol):
    def synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        """Pure, fast, no LLM, never raises."""
        ...
