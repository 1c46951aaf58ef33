"""A tiny in-memory ``RepoSource`` with real search semantics, for the Search Team's tests and bench.

Search behaves like GitHub's: concepts ANDed, synonyms ORed, language / star / push-date
filters, sorted by stars, last push, or best match. Each sort can be scripted to fail or to be
slow, per-repo signal/README calls can fail, and every call is recorded
(``tests.fakes.recording_source``, shared with ``MemorySource``).

    source = SearchSource([repo("a/tiny-state", 40, "state management")])
    source.fail_sort["updated"] = SourceUnavailable()
    source.delay_sort["stars"] = 5.0
    source.incomplete_sorts.add("best")            # that search says it may be incomplete
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import SearchResults, SignalDepth, SourceInfo
from tests.fakes.recording_source import RecordingSource


def repo(full_name: str, stars: int, description: str = "", language: str | None = "Python", **kw) -> Repository:
    kw.setdefault("pushed_at", datetime(2026, 8, 1, tzinfo=UTC))
    return Repository(full_name=full_name, stars=stars, description=description, language=language, **kw)


def _concepts(params: SearchParams) -> list[list[str]]:
    grouped = {w.lower() for g in params.synonym_groups for w in g}
    out = [[p] for p in params.phrases] + [list(g) for g in params.synonym_groups]
    out += [[k] for k in params.keywords if k.lower() not in grouped]
    out += [[t] for t in params.topics if t.lower() not in grouped]
    return out


class SearchSource(RecordingSource):
    def __init__(
        self,
        repos: Iterable[Repository] = (),
        *,
        kind: str = "github",
        snapshot_date: date | None = None,
        latency: float = 0.0,
        calls_per_hour: int | None = None,
    ) -> None:
        info = SourceInfo(kind=kind, snapshot_date=snapshot_date, label=kind,  # type: ignore[arg-type]
                          calls_per_hour=calls_per_hour)
        super().__init__(info, repos=repos, latency=latency)
        self.fail_sort: dict[str, Exception] = {}
        self.delay_sort: dict[str, float] = {}
        self.fail_repo: dict[str, Exception] = {}
        self.incomplete_sorts: set[str] = set()  # searches answered with incomplete=True
        self.searches: list[tuple[SearchParams, str]] = []

    async def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30) -> SearchResults:
        self.searches.append((params, sort))
        await self._enter("search", sort, self.delay_sort.get(sort, 0.0))
        if sort in self.fail_sort:
            raise self.fail_sort[sort]
        concepts = _concepts(params)

        def hits(r: Repository) -> int:
            text = f"{r.full_name} {r.description} {' '.join(r.topics)}".lower()
            return sum(any(t.lower() in text for t in group) for group in concepts)

        found = [
            r for r in self.repos.values()
            if hits(r) == len(concepts)
            and (not params.language or (r.language or "").lower() == params.language.lower())
            and (params.min_stars is None or r.stars >= params.min_stars)
            and (params.max_stars is None or r.stars <= params.max_stars)
            and (params.pushed_after is None or (r.pushed_at and r.pushed_at.date() >= params.pushed_after))
        ]
        if sort == "updated":
            found.sort(key=lambda r: r.pushed_at or datetime.min.replace(tzinfo=UTC), reverse=True)
        else:
            found.sort(key=lambda r: r.stars, reverse=True)
        return SearchResults(found[:limit], incomplete=sort in self.incomplete_sorts)

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        self.depths.append((full_name, depth))
        await self._enter("get_signals", full_name)
        if full_name.lower() in self.fail_repo:
            raise self.fail_repo[full_name.lower()]
        return self.signals.get(full_name.lower(), RepoSignals())
