"""Query and repository texts as sentence vectors, and how alike they are.

One text recipe for every repository, whether it comes from the catalog (vectors computed at build
time by ``python -m core.catalog.vectors_build``) or from live GitHub (encoded per search): its name, its
description and its topics (plus a README excerpt when one was fetched). Queries lose the chat
filler first ("show me", "I need") so the vector is about the need, not the asking.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from core.search.embedding import default_encoder

EXAMPLE_MARGIN = 0.0  # what example requests' cosine gives up against the repository's own text
# how much the single example request closest to the need counts against the mean of them all: the
# mean alone dilutes a repository with one example that fits ("ops wants our AWS setup in code":
# terraform's closest example 0.56, its mean 0.45); the closest alone lets one loose example fit
# anything near it
CLOSEST_EXAMPLE_SHARE = 0.5
README_EXCERPT = 300  # characters of README (markup stripped) added to a live repository's text
_FILLER = re.compile(
    r"^\s*(?:(?:please|hey|hi|can you|could you|would you|help me|i am looking for|i'm looking for|"
    r"looking for|i need|i want|we need|show me|find me|find|search for|search|give me|list|"
    r"recommend|suggest|what are|what is|whats|what's|is there|are there|any|some|a|an|the)\s+)+",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"(!?\[[^\]]*\]\([^)]*\))|<[^>]+>|[#*_`>|]+")


def query_text(message: str) -> str:
    """The need without the asking: "show me Rust web frameworks" -> "Rust web frameworks"."""
    stripped = _FILLER.sub("", message.strip()).strip(" ?.!")
    return stripped or message.strip()


def repository_text(full_name: str, description: str | None, topics: Sequence[str] = (), readme: str | None = None) -> str:
    name = full_name.split("/", 1)[-1]
    parts = [f"{name}: {(description or '').strip().rstrip('.')}".strip()]
    if topics:
        parts.append("Topics: " + ", ".join(topics))
    if readme:
        parts.append(" ".join(_MARKUP.sub(" ", readme[: README_EXCERPT * 4]).split())[:README_EXCERPT])
    return ". ".join(parts)


class QueryVectors:
    """Unit vectors of queries, the last ``size`` kept: every strategy of one search asks for the
    same. Several are encoded in one pass (``many``) when a search knows it will need them: the
    encoder reads its weights once for all, and each vector is bit for bit the one it gets alone."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.encoded = 0  # queries encoded so far
        self.passes = 0  # encoder passes they took
        self._kept: dict[str, np.ndarray] = {}

    def __call__(self, message: str) -> np.ndarray:
        return self.many([message])[0]

    def many(self, messages: Sequence[str]) -> list[np.ndarray]:
        found = {m: vector for m in messages if (vector := self._kept.get(m)) is not None}
        new = [m for m in dict.fromkeys(messages) if m not in found]
        if new:
            for message, vector in zip(new, default_encoder().encode([query_text(m) for m in new], alone=True)):
                vector.setflags(write=False)
                found[message] = self._kept[message] = vector
            self.encoded += len(new)
            self.passes += 1
            while len(self._kept) > self.size:
                self._kept.pop(next(iter(self._kept)), None)
        return [found[m] for m in messages]

    def clear(self) -> None:
        self._kept.clear()


query_vector = QueryVectors()


def similarities(query: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """Cosine similarity of a unit query vector to unit row vectors."""
    return vectors @ query if len(vectors) else np.zeros(0, dtype=np.float32)


def example_closeness(mean: np.ndarray, closest: np.ndarray) -> np.ndarray:
    """How close repositories' example requests are to the need, from the cosine of their mean vector
    and that of the closest one (-1 where there are none)."""
    blend = CLOSEST_EXAMPLE_SHARE * closest + (1 - CLOSEST_EXAMPLE_SHARE) * mean
    return np.where(mean > -1, blend, -1.0).astype(np.float32)


def meaning(own: np.ndarray, examples: np.ndarray, margin: float | None = None) -> np.ndarray:
    """How close repositories are to the need: the cosine of their own text, or how close their
    example requests are (``core.catalog.examples``, ``example_closeness``; -1 where there are
    none) less ``margin`` (``EXAMPLE_MARGIN`` unless given), whichever is higher."""
    return np.maximum(own, examples - (EXAMPLE_MARGIN if margin is None else margin))
