"""The offline catalog: the packaged snapshot, its full-text index and its name index."""

from __future__ import annotations

import threading
import time
from datetime import date
from importlib import resources
from collections.abc import Sequence
from pathlib import Path

from core.catalog.index import CatalogIndex
from core.catalog.names import CatalogNames
from core.catalog.lists import read_listed
from core.catalog.records import CatalogRecord, merge_lists, read_records
from core.models import Repository, SearchParams

_lock = threading.Lock()
_cache: dict[tuple[Path, ...], "Catalog"] = {}
LIST_FILES = ("awesome-lists.csv.gz", "awesome-lists-sharealike.csv.gz")


def default_data_file() -> Path:
    return Path(str(resources.files("core.catalog").joinpath("github-ranking.csv.gz")))


def default_list_files() -> list[Path]:
    """The packaged curated-list files (the share-alike one may be deleted; it is then skipped)."""
    folder = Path(str(resources.files("core.catalog").joinpath("data")))
    return [folder / name for name in LIST_FILES]


def read_catalog(path: Path, list_files: Sequence[Path]) -> tuple[list[date], list[CatalogRecord]]:
    dates, records = read_records(path)
    return dates, merge_lists(records, read_listed(list(list_files)))


class Catalog:
    """~3,450 of the most-starred GitHub repositories (with stars, forks, activity and growth) plus
    ~13,000 repositories known only from curated awesome lists (categories and descriptions, no
    figures: ``CatalogRecord.figures_known`` is False), searchable offline.

    Build it with ``Catalog.load()`` (parsed and indexed once per process, then cached).
    """

    def __init__(self, dates: list[date], records: list[CatalogRecord], load_ms: float = 0.0) -> None:
        self.snapshot_dates = dates
        self.snapshot_date: date = max(dates)
        self.records = records
        self.load_ms = load_ms
        self._by_full_name = {r.full_name.lower(): r for r in records}
        self.names = CatalogNames(records)
        self._index = CatalogIndex(records)

    @classmethod
    def load(cls, path: Path | None = None, list_files: Sequence[Path] | None = None) -> "Catalog":
        """``list_files``: curated-list files to fold in; the packaged ones when ``path`` is also
        left out, none when only ``path`` is given."""
        if list_files is None:
            list_files = default_list_files() if path is None else []
        path = (path or default_data_file()).resolve()
        key = (path, *(p.resolve() for p in list_files))
        with _lock:
            cached = _cache.get(key)
            if cached is None:
                started = time.perf_counter()
                dates, records = read_catalog(path, list_files)
                cached = cls(dates, records)
                cached.load_ms = (time.perf_counter() - started) * 1000
                _cache[key] = cached
            return cached

    def __len__(self) -> int:
        return len(self.records)

    def get(self, full_name: str) -> CatalogRecord | None:
        return self._by_full_name.get(full_name.strip().strip("/").lower())

    def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30) -> list[Repository]:
        return [self.records[i].to_repository() for i in self._index.search(params, sort=sort, limit=limit)]

    def source(self) -> "CatalogSource":
        from core.catalog.source import CatalogSource

        return CatalogSource(self)
