"""The agent contract: one async ``run`` per intent's specialist."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from core.models import (
    Classification,
    Conversation,
    ProgressSink,
    StructuredData,
    WireModel,
    null_sink,
)


@dataclass(slots=True)
class AgentContext:
    """Everything an agent may look at for one turn."""

    message: str
    classification: Classification
    conversation: Conversation
    previous: StructuredData | None = None  # the latest structured result in the thread
    progress: ProgressSink = field(default=null_sink)


class AgentResult(WireModel):
    """An agent's answer: structured data, or conversational text, or an error (maybe partial)."""

    data: StructuredData | None = None
    text: str | None = None  # conversational reply (Companion) or a lead-in sentence
    error: str | None = None  # a friendly sentence (OmgError.user_message), never a traceback
    error_code: str | None = None
    partial: bool = False


class Agent(Protocol):
    name: str

    async def run(self, ctx: AgentContext) -> AgentResult: ...
