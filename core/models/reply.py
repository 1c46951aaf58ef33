"""What the core hands back to an adapter for one user message."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from core.models.base import WireModel
from core.models.intent import Classification, Intent
from core.models.structured import StructuredData


class ActionKind(StrEnum):
    """A button. Adapters render these; the core never knows about blocks or embeds."""

    SUGGESTION = "suggestion"  # value: text sent as if the clicker typed it
    OPTION = "option"  # a clarification option; value: text to send
    APPROVE = "approve"  # research plan decision; value: "<session_id>:<plan_version>"
    REVISE = "revise"
    CANCEL = "cancel"
    FEEDBACK = "feedback"  # value: "helpful" | "wrong"


class Action(WireModel):
    kind: ActionKind
    label: str
    value: str
    style: str | None = None  # "primary" | "danger" | None


class Reply(WireModel):
    conversation_id: str
    markdown: str
    intent: Intent | None = None
    confidence: float | None = None
    classification: Classification | None = None
    structured_data: StructuredData | None = None
    suggestions: list[str] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    footer: str | None = None  # e.g. "Data: offline snapshot of 2026-08-22 · LLM cost $0.0003"
    error: str | None = None  # an error code when the turn failed (the markdown says it kindly)
    duplicate: bool = False  # the platform event was already handled; adapters send nothing
