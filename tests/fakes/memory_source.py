"""An in-memory ``RepoSource`` for tests and benchmarks: scripted repos, signals, READMEs, failures.

    source = MemorySource(kind="github")
    source.add(Repository(full_name="a/b", stars=10), RepoSignals(commits_90d=5), readme="# b")
    source.fail("get_signals", "a/b", RateLimited())   # that call raises
    source.latency = 0.15                               # every call sleeps first (benchmarks)

It records every call (``calls``) and the highest number of calls in flight at once
(``max_in_flight``) so tests can check that work ran concurrently without timing anything
(``tests.fakes.recording_source``, shared with ``SearchSource``).
"""

from __future__ import annotations

from datetime import date

from core.errors import RepoNotFound
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import SearchResults, SignalDepth, SourceInfo
from tests.fakes.recording_source import RecordingSource


class MemorySource(RecordingSource):
    def __init__(
        self, *, kind: str = "github", snapshot_date: date | None = None, latency: float = 0.0
    ) -> None:
        label = f"offline snapshot of {snapshot_date}" if kind == "catalog" else "GitHub (fake)"
        info = SourceInfo(kind=kind, snapshot_date=snapshot_date, label=label)  # type: ignore[arg-type]
        super().__init__(info, latency=latency)
        self.failures: dict[tuple[str, str], Exception] = {}

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

    async def _enter(self, method: str, key: str, delay: float = 0.0) -> None:
        await super()._enter(method, key, delay)
        failure = self.failures.get((method, key.lower()))
        if failure is not None:
            raise failure

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> SearchResults:
        await self._enter("search", params.text)
        words = {w.lower() for group in params.synonym_groups for w in group} | {
            w.lower() for w in params.keywords
        }
        found = [
            r for r in self.repos.values()
            if (not params.language or (r.language or "").lower() == params.language.lower())
            and (not words or any(w in f"{r.full_name} {r.description}".lower() for w in words))
        ]
        return SearchResults(sorted(found, key=lambda r: r.stars, reverse=True)[:limit])

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        self.depths.append((full_name, depth))
        await self._enter("get_signals", full_name)
        if full_name.lower() not in self.repos:
            raise RepoNotFound(full_name)
        return self.signals.get(full_name.lower(), RepoSignals())
