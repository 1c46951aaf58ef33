"""Storage contracts. Implementations: memory (tests, benchmarks), files (the default), Redis."""

from __future__ import annotations

from typing import Protocol

from core.models import Conversation, ConversationKey


class ConversationStore(Protocol):
    """Conversations by id. An unknown id is a new, empty conversation -- never an error."""

    async def get_or_create(self, conversation_id: str, key: ConversationKey) -> Conversation: ...

    async def get(self, conversation_id: str) -> Conversation | None: ...

    async def save(self, conversation: Conversation) -> None: ...

    async def delete(self, conversation_id: str) -> None: ...

    async def close(self) -> None: ...


class EventDeduper(Protocol):
    """Remembers platform event ids for a while, so a retried delivery is handled once."""

    async def first_time(self, event_key: str, ttl_seconds: float = 600.0) -> bool:
        """True the first time ``event_key`` is seen within ``ttl_seconds``; False after."""
        ...
