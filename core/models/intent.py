"""Intents and the classifier's verdict."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from core.models.base import WireModel
from core.models.search import SearchParams


class Intent(StrEnum):
    SEARCH = "search"
    ANALYZE = "analyze"
    COMPARE = "compare"
    CHAT = "chat"
    CLARIFY = "clarify"


class Classification(WireModel):
    """What the user wants, how sure we are, and what the message refers to.

    ``original_intent`` is set when a low-confidence (or ambiguous) verdict was routed to
    ``clarify``; ``repos`` are the full names the message targets (resolved references);
    ``search_params`` is set for follow-ups that modify the previous search ("what about Python?").
    """

    intent: Intent
    confidence: float = Field(ge=0.0, le=1.0)
    reasoning: str = ""
    original_intent: Intent | None = None
    repos: list[str] = Field(default_factory=list)
    search_params: SearchParams | None = None
    clarify_question: str | None = None
    clarify_options: list[str] = Field(default_factory=list)
    source: str = "local"  # "local", "llm", "cache", "fallback"
