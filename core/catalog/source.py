"""``RepoSource`` over the offline catalog (the fallback when GitHub is unreachable or disabled)."""

from __future__ import annotations

import asyncio

from core.catalog.catalog import Catalog
from core.errors import RepoNotFound
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import SearchResults, SignalDepth, SourceInfo

OFFLINE_SIGNALS_NOTE = (
    "The offline snapshot has no release, commit, contributor, issue-response or community-profile "
    "data, so those were not measured."
)


class CatalogSource:
    """Answers from the snapshot. Only what the snapshot measures is returned: stars, forks, open
    issues+PRs, last push and star growth live on ``Repository``; ``get_signals`` therefore has
    nothing measured to add (every field ``None``), and there are no READMEs offline."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._waiting: list[SearchParams] = []  # searches started, not yet run (see ``search``)
        self._info = SourceInfo(
            kind="catalog",
            snapshot_date=catalog.snapshot_date,
            label=f"offline snapshot of {catalog.snapshot_date.isoformat()}",
        )

    @property
    def info(self) -> SourceInfo:
        return self._info

    async def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30) -> SearchResults:
        # the searches started together (a turn's strategies) first give their needs, embedded in
        # one pass by whichever runs first: one reading of the encoder's weights for all of them
        self._waiting.append(params)
        await asyncio.sleep(0)
        if self._waiting:
            waiting, self._waiting = self._waiting, []
            self.catalog.prepare(waiting)
        return SearchResults(self.catalog.search(params, sort=sort, limit=limit))

    async def find_named(self, name: str, *, limit: int = 10) -> Repository | None:
        return self.catalog.find_named(name, limit=limit)

    async def get_repo(self, full_name: str) -> Repository:
        record = self.catalog.get(full_name)
        if record is None:
            raise RepoNotFound(full_name)
        return record.to_repository()

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        """Nothing to measure offline at any depth (see the class docstring)."""
        if self.catalog.get(full_name) is None:
            raise RepoNotFound(full_name)
        return RepoSignals(notes=[OFFLINE_SIGNALS_NOTE])

    async def get_readme(self, full_name: str) -> str | None:
        return None

    def knows_word(self, word: str) -> bool | None:
        return self.catalog.knows(word)

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        return self.catalog.word_users(word, most)

    async def ping(self) -> None:
        """Nothing to reach: the snapshot is on disk, so this never raises."""

    async def aclose(self) -> None:
        """Nothing to close: the snapshot holds no connection."""
