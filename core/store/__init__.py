"""Persistence behind small async contracts: memory, files under .data/, Redis (REDIS_URL)."""

from core.store.base import ConversationStore, EventDeduper
from core.store.files import FileConversationStore
from core.store.memory import MemoryConversationStore, MemoryEventDeduper

__all__ = [
    "ConversationStore",
    "EventDeduper",
    "FileConversationStore",
    "MemoryConversationStore",
    "MemoryEventDeduper",
]
