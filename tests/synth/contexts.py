"""Building AgentContexts for the Companion and Clarifier tests."""

from __future__ import annotations

from core.agents.base import AgentContext
from core.models import Classification, Conversation, ConversationKey, Intent, StructuredData


def agent_context(
    message: str,
    *,
    intent: Intent = Intent.CHAT,
    previous: StructuredData | None = None,
    platform: str = "slack",
    **classification: object,
) -> AgentContext:
    key = ConversationKey(platform=platform, channel="C1", thread="T1")
    return AgentContext(
        message=message,
        classification=Classification(intent=intent, confidence=0.9, **classification),
        conversation=Conversation(id=key.conversation_id, key=key),
        previous=previous,
    )
