"""Conversations: one per Slack thread, Discord thread, DM thread or shell session."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal

from pydantic import Field, PrivateAttr

from core.models.base import WireModel
from core.models.intent import Intent
from core.models.structured import StructuredData

SAFE_ID = re.compile(r"^[A-Za-z0-9._:@-]{1,200}$")


def utcnow() -> datetime:
    return datetime.now(UTC)


class ConversationKey(WireModel):
    """platform / channel / thread; ``team`` disambiguates Slack workspaces and Discord guilds."""

    platform: str
    channel: str
    thread: str
    team: str | None = None

    @property
    def conversation_id(self) -> str:
        parts = [self.platform, *( [self.team] if self.team else [] ), self.channel, self.thread]
        return ":".join(re.sub(r"[^A-Za-z0-9._@-]", "_", p) for p in parts)


class Message(WireModel):
    role: Literal["user", "assistant"]
    content: str
    structured_data: StructuredData | None = None
    author: str | None = None  # platform user id of the sender (user messages)
    intent: Intent | None = None
    created_at: datetime = Field(default_factory=utcnow)


class CostTotals(WireModel):
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0

    def add(self, input_tokens: int, output_tokens: int, usd: float) -> None:
        self.calls += 1
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        self.usd += usd


class Conversation(WireModel):
    id: str
    key: ConversationKey
    messages: list[Message] = Field(default_factory=list)
    cost: CostTotals = Field(default_factory=CostTotals)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    # the cost already in the store when this copy was loaded or saved (never serialised);
    # a save adds only the difference, so concurrent saves count each cost once
    _saved_cost: CostTotals | None = PrivateAttr(default=None)

    @property
    def saved_cost(self) -> CostTotals | None:
        return self._saved_cost

    @saved_cost.setter
    def saved_cost(self, value: CostTotals | None) -> None:
        self._saved_cost = value

    def recent(self, n: int = 3) -> list[Message]:
        """The last ``n`` messages (the classifier's context is never more than 3)."""
        return self.messages[-n:] if n > 0 else []

    def last_structured(self) -> StructuredData | None:
        for message in reversed(self.messages):
            if message.structured_data is not None:
                return message.structured_data
        return None

    def append(self, message: Message, *, max_messages: int) -> None:
        self.messages.append(message)
        if len(self.messages) > max_messages:
            del self.messages[: len(self.messages) - max_messages]
        self.updated_at = message.created_at
