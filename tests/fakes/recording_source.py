"""What the in-memory ``RepoSource`` fakes share: repositories, signals and READMEs by lower-case
name, and every call recorded.

``calls`` lists (method, key) in order, ``depths`` the (full name, depth) of each
``get_signals``, ``max_in_flight`` the most calls in flight at once, so tests can check that
work ran concurrently without timing anything. Each call sleeps its delay or ``latency`` first
(at least a zero sleep, so concurrent calls start before one finishes). Subclasses add search
semantics and failures (``MemorySource``, ``SearchSource``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from core.errors import RepoNotFound
from core.models import Repository, RepoSignals
from core.sources.base import SignalDepth, SourceInfo


class RecordingSource:
    def __init__(
        self, info: SourceInfo, *, repos: Iterable[Repository] = (), latency: float = 0.0
    ) -> None:
        self._info = info
        self.latency = latency
        self.repos = {r.full_name.lower(): r for r in repos}
        self.signals: dict[str, RepoSignals] = {}
        self.readmes: dict[str, str] = {}
        self.calls: list[tuple[str, str]] = []
        self.depths: list[tuple[str, SignalDepth]] = []  # (full name, depth) of each get_signals
        self.in_flight = 0
        self.max_in_flight = 0

    @property
    def info(self) -> SourceInfo:
        return self._info

    async def _enter(self, method: str, key: str, delay: float = 0.0) -> None:
        self.calls.append((method, key))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(delay or self.latency)
        finally:
            self.in_flight -= 1

    async def get_repo(self, full_name: str) -> Repository:
        await self._enter("get_repo", full_name)
        found = self.repos.get(full_name.lower())
        if found is None:
            raise RepoNotFound(full_name)
        return found

    def knows_word(self, word: str) -> bool | None:
        return None

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        return None

    async def get_readme(self, full_name: str) -> str | None:
        await self._enter("get_readme", full_name)
        return self.readmes.get(full_name.lower())

    async def ping(self) -> None:
        """Nothing to reach: in memory."""

    async def aclose(self) -> None:
        """Nothing to close: in memory."""
