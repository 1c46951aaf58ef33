"""The intent classifier contract (local model, LLM cascade, or a scripted function in tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.models import Classification, Message


class IntentClassifier(Protocol):
    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        """Classify ``message`` given at most the last 3 messages of the thread.

        Implementations resolve references ("the second one", "zustand") into
        ``Classification.repos`` and apply the confidence threshold (low -> clarify,
        keeping ``original_intent``).
        """
        ...


class RepoNameIndex(Protocol):
    """Fast, synchronous name lookups the classifier uses for bare names ("zustand")."""

    def resolve(self, token: str) -> list[str]:
        """Full names whose repo name (or full name) equals ``token``, most-starred first."""
        ...
