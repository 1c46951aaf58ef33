"""The offline catalog: the packaged snapshot, its full-text index and its name index."""

from __future__ import annotations

import threading
import time
from datetime import date
from importlib import resources
from pathlib import Path

from core.catalog.index import CatalogIndex
from core.catalog.names import CatalogNames
from core.catalog.records import CatalogRecord, read_records
from core.models import Repository, SearchParams

_lock = threading.Lock()
_cache: dict[Path, "Catalog"] = {}


def default_data_file() -> Path:
    return Path(str(resources.files("core.catalog").joinpath("github-ranking.csv.gz")))


class Catalog:
    """~3,450 of the most-starred GitHub repositories, searchable offline.

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
    def load(cls, path: Path | None = None) -> "Catalog":
        path = (path or default_data_file()).resolve()
        with _lock:
            cached = _cache.get(path)
            if cached is None:
                started = time.perf_counter()
                dates, records = read_records(path)
                cached = cls(dates, records)
                cached.load_ms = (time.perf_counter() - started) * 1000
                _cache[path] = cached
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
