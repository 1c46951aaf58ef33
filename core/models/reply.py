"""What the core hands back to an adapter for one user message."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, computed_field, model_validator

from core.models.base import WireModel
from core.models.document import ChoicesSection, Document, text_document, to_markdown
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


def text_as_document(data: Any) -> Any:
    """``markdown="..."`` on input is a one-section text document (a plain-text reply)."""
    if isinstance(data, dict) and "markdown" in data:
        data = dict(data)
        markdown = data.pop("markdown")
        if not data.get("document"):
            data["document"] = text_document(markdown or "")
    return data


class Reply(WireModel):
    """One answer: its document (what adapters draw) and the buttons under it.

    ``markdown`` is the document's one Markdown rendering (shell, JSON interface, fallbacks);
    ``Reply(markdown=...)`` builds a plain-text document.
    """

    conversation_id: str
    document: Document = Field(default_factory=list)
    intent: Intent | None = None
    confidence: float | None = None
    classification: Classification | None = None
    structured_data: StructuredData | None = None
    suggestions: list[str] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    footer: str | None = None  # e.g. "Data: offline snapshot of 2026-08-22 · LLM cost $0.0003"
    error: str | None = None  # an error code when the turn failed (the markdown says it kindly)
    duplicate: bool = False  # the platform event was already handled; adapters send nothing

    _text_input = model_validator(mode="before")(text_as_document)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def markdown(self) -> str:
        return to_markdown(self.document)


def follow_up_actions(document: Document, suggestions: list[str]) -> list[Action]:
    """The one place suggestions become buttons: a document's choices first, then the suggestions
    not already offered."""
    actions = [
        Action(kind=ActionKind.OPTION, label=option, value=option)
        for section in document if isinstance(section, ChoicesSection) for option in section.options
    ]
    chosen = {a.value for a in actions}
    actions += [Action(kind=ActionKind.SUGGESTION, label=s, value=s) for s in suggestions if s not in chosen]
    return actions
