"""An in-memory ``RepoSource`` for tests and benchmarks: scripted repos, signals, READMEs, failures.

    source = MemorySource(kind="github")
    source.add(Repository(full_name="a/b", stars=10), RepoSignals(commits_90d=5), readme="# b")
    source.fail("get_signals", "a/b", RateLimited())   # that call raises
    source.latency = 0.15                               # every call sleeps first (benchmarks)

It records every call (``calls``) and the highest number of calls in flight at once
(``max_in_flight``) so tests can check that work ran concurrently without timing anything.
"""

from __future__ import annotations

import asyncio
from datetime import date

from core.errors import RepoNotFound
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import SignalDepth, SourceInfo


class MemorySource:
    def __init__(
        self, *, kind: str = "github", snapshot_date: date | None = None, latency: float = 0.0
    ) -> None:
        label = f"offline snapshot of {snapshot_date}" if kind == "catalog" else "GitHub (fake)"
        self._info = SourceInfo(kind=kind, snapshot_date=snapshot_date, label=label)  # type: ignore[arg-type]
        self.latency = latency
        self.repos: dict[str, Repository] = {}
        self.signals: dict[str, RepoSignals] = {}
        self.readmes: dict[str, str] = {}
        self.failures: dict[tuple[str, str], Exception] = {}
        self.calls: list[tuple[str, str]] = []
        self.depths: list[tuple[str, SignalDepth]] = []  # (full name, depth) of each get_signals
        self.in_flight = 0
        self.max_in_flight = 0

    @property
    def info(self) -> SourceInfo:
        return self._info

    def add(
        self, repo: Repository, signals: RepoSignals | None = None, readme: str | None = None
    ) -> "MemorySource":
        key = repo.full_name.lower()
        self.repos[key] = repo
        if signals is not None:
            self.signals[key] = signals
        if readme is not None:
            self.readmes[key] = readme
        return self

    def fail(self, method: str, full_name: str, exc: Exception) -> "MemorySource":
        self.failures[(method, full_name.lower())] = exc
        return self

    async def _enter(self, method: str, full_name: str) -> None:
        self.calls.append((method, full_name))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.latency:
                await asyncio.sleep(self.latency)
            else:
                await asyncio.sleep(0)  # let concurrent calls start before this one finishes
        finally:
            self.in_flight -= 1
        failure = self.failures.get((method, full_name.lower()))
        if failure is not None:
            raise failure

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> list[Repository]:
        await self._enter("search", params.text)
        words = {w.lower() for group in params.synonym_groups for w in group} | {
            w.lower() for w in params.keywords
        }
        found = [
            r for r in self.repos.values()
            if (not params.language or (r.language or "").lower() == params.language.lower())
            and (not words or any(w in f"{r.full_name} {r.description}".lower() for w in words))
        ]
        return sorted(found, key=lambda r: r.stars, reverse=True)[:limit]

    async def get_repo(self, full_name: str) -> Repository:
        await self._enter("get_repo", full_name)
        repo = self.repos.get(full_name.lower())
        if repo is None:
            raise RepoNotFound(full_name)
        return repo

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        self.depths.append((full_name, depth))
        await self._enter("get_signals", full_name)
        if full_name.lower() not in self.repos:
            raise RepoNotFound(full_name)
        return self.signals.get(full_name.lower(), RepoSignals())

    async def get_readme(self, full_name: str) -> str | None:
        await self._enter("get_readme", full_name)
        return self.readmes.get(full_name.lower())
