"""The offline catalog: the packaged snapshot, its full-text index and its name index."""

from __future__ import annotations

import gc
import threading
import time
from datetime import date
from functools import lru_cache
from importlib import resources
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np

from core.catalog.index import CatalogIndex
from core.catalog.names import CatalogNames
from core.catalog.lists import read_listed
from core.catalog.records import CatalogRecord, merge_lists, read_earlier, read_records
from core.catalog.vectors import CatalogVectors
from core.models import Repository, SearchParams
from core.search.coverage import text_words
from core.search.relevance import unknown_language_fits
from core.search.semantic import example_closeness

SEMANTIC_LIMIT = 30  # nearest records by meaning added to every search with words
RECENT = 8  # nearest-record lists and filtered id sets kept: a turn's strategies share them
RECENT_REPOSITORIES = 128  # records kept as Repository objects: a turn's searches return ~120, ~50 of them different

T = TypeVar("T")
K = TypeVar("K")
_lock = threading.Lock()
_cache: dict[tuple[Path, ...], "Catalog"] = {}
LIST_FILES = ("awesome-lists.csv.gz", "awesome-lists-sharealike.csv.gz")
EARLIER_FILE = "earlier-stars.csv.gz"  # beside the ranking data: list-only repositories older snapshots measured


def default_data_file() -> Path:
    return Path(str(resources.files("core.catalog").joinpath("github-ranking.csv.gz")))


def default_list_files() -> list[Path]:
    """The packaged curated-list files (the share-alike one may be deleted; it is then skipped)."""
    folder = Path(str(resources.files("core.catalog").joinpath("data")))
    return [folder / name for name in LIST_FILES]


@lru_cache(maxsize=1)
def _default_key() -> tuple[Path, ...]:
    return (default_data_file().resolve(), *(p.resolve() for p in default_list_files()))


def read_catalog(path: Path, list_files: Sequence[Path]) -> tuple[list[date], list[CatalogRecord]]:
    dates, records = read_records(path)
    earlier = read_earlier(path.with_name(EARLIER_FILE)) if list_files else {}
    return dates, merge_lists(records, read_listed(list(list_files)), earlier)


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
        self._vectors: CatalogVectors | None = None
        self._vectors_loaded = False
        self._prior: np.ndarray | None = None
        self._recent_nearest: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._allowed: dict[tuple[object, ...], np.ndarray] = {}
        self._recent_repositories: dict[int, Repository] = {}

    @classmethod
    def load(cls, path: Path | None = None, list_files: Sequence[Path] | None = None) -> "Catalog":
        """``list_files``: curated-list files to fold in; the packaged ones when ``path`` is also
        left out, none when only ``path`` is given."""
        if path is None and list_files is None:
            key = _default_key()  # every search asks for the packaged catalog: no file system calls
        else:
            key = ((path or default_data_file()).resolve(), *(p.resolve() for p in list_files or []))
        with _lock:
            cached = _cache.get(key)
            if cached is None:
                started = time.perf_counter()
                dates, records = read_catalog(key[0], key[1:])
                cached = cls(dates, records)
                cached.load_ms = (time.perf_counter() - started) * 1000
                _cache[key] = cached
                # its ~120k objects live as long as the process: out of the collector's way, a
                # full collection no longer walks them (25-120 ms on a 2-core VM, about once every 60 searches)
                gc.freeze()
            return cached

    def __len__(self) -> int:
        return len(self.records)

    def get(self, full_name: str) -> CatalogRecord | None:
        return self._by_full_name.get(full_name.strip().strip("/").lower())

    def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30) -> list[Repository]:
        """Full-text matches, then the records nearest in meaning to the user's words (under the
        same language, star and date filters) that the words alone missed."""
        ids = self._index.search(params, sort=sort, limit=limit, unknown_language=unknown_language_fits(params))
        found = set(ids)
        ids += [i for i in self._nearest(params, min(limit, SEMANTIC_LIMIT)) if i not in found]
        return [self._repository(i) for i in ids]

    def prepare(self, searches: Sequence[SearchParams]) -> None:
        """Embeds in one pass the needs that ``search`` of each of ``searches`` will look up the
        nearest records for, and those the gate will read without the language
        (``core.search.fit.prepare_needs``, ``evidence_query``)."""
        from core.search.fit import evidence_query, prepare_needs, semantic_query

        asked = [params for params in searches if params.text.strip()]
        texts = [semantic_query(params) for params in asked]
        texts += [bare for params in asked if (bare := evidence_query(params)) is not None]
        if texts and self.vectors() is not None:
            prepare_needs(texts)

    def _repository(self, record_id: int) -> Repository:
        """The record as a ``Repository``, the same object for the records asked for last: the
        strategies of a turn return many of the same records, and nothing changes a
        ``Repository`` once it is made."""
        found = self._recent_repositories.get(record_id)
        if found is None:
            found = _keep(self._recent_repositories, record_id, self.records[record_id].to_repository(),
                          RECENT_REPOSITORIES)
        return found

    def find_named(self, name: str, *, limit: int = 10) -> Repository | None:
        """The first repository called ``name`` in ``search`` of the name sorted by stars
        (``core.sources.base.NamedSearch``), looking at the records nearest in meaning (a query
        embedding) only when the matches by words, which come first, have none and some record
        is called that."""
        params = SearchParams(text=name, keywords=[name])
        ids = self._index.search(params, sort="stars", limit=limit)
        by_words = self._called(ids, name)
        if by_words is not None or not self._index.has_name(name, lambda i: self._is_called(i, name)):
            return by_words
        found = set(ids)
        return self._called([i for i in self._nearest(params, min(limit, SEMANTIC_LIMIT)) if i not in found], name)

    def _is_called(self, record_id: int, name: str) -> bool:
        return self.records[record_id].full_name.split("/", 1)[-1].lower() == name.lower()

    def _called(self, ids: Sequence[int], name: str) -> Repository | None:
        return next((self.records[i].to_repository() for i in ids if self._is_called(i, name)), None)

    def vectors(self) -> CatalogVectors | None:
        """The shipped sentence vectors, loaded on first use; None when they do not match."""
        if not self._vectors_loaded:
            self._vectors = CatalogVectors.load(self.records)
            self._vectors_loaded = True
        return self._vectors

    def vector(self, full_name: str, description: str | None) -> np.ndarray | None:
        """The shipped vector of a record, when the description is still the catalog's."""
        record = self.get(full_name)
        vectors = self.vectors()
        if record is None or vectors is None or (description or "") != record.description:
            return None
        return vectors.matrix[record.id]

    def example_cosines(self, query: np.ndarray, full_names: Sequence[str]) -> np.ndarray:
        """For each repository, how close its example requests are to a unit query vector
        (``core.search.semantic.example_closeness``: their mean vector's cosine and the closest
        one's); -1 for one the catalog has none of."""
        return self.example_readings(query, full_names)[0]

    def example_readings(self, query: np.ndarray, full_names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """For each repository, ``example_cosines``, and how typical the query is of its example
        requests (``CatalogVectors.example_typicality``; nan for one with fewer than two): both
        from one read of the requests' rows."""
        vectors = self.vectors()
        mean = np.full(len(full_names), -1.0, dtype=np.float32)
        closest = np.full(len(full_names), -1.0, dtype=np.float32)
        typical = np.full(len(full_names), np.nan, dtype=np.float32)
        if vectors is None:
            return mean, typical
        records = [self.get(name) for name in full_names]
        ids = [r.id for r in records if r is not None]
        known = np.array([r is not None for r in records], dtype=bool)
        mean[known] = vectors.closeness(query, np.asarray(ids, dtype=np.int64))[1]
        closest[known] = vectors.closest_examples(query, ids)
        typical[known] = vectors.typicality_of(closest[known], ids)
        return example_closeness(mean, closest), typical

    def earlier_stars(self, full_name: str) -> int | None:
        """The stars an older snapshot measured for a repository known now only from lists."""
        record = self.get(full_name)
        return record.earlier_stars if record is not None else None

    def listed_only(self, full_name: str) -> bool:
        """Whether the catalog knows a repository only from curated lists (no figures measured)."""
        record = self.get(full_name)
        return record is not None and not record.figures_known

    def knows(self, word: str) -> bool:
        """Whether any record's name, description or curated-list text, or any example request
        (``core.catalog.examples``), uses ``word`` (stemmed)."""
        vectors = self.vectors()
        return self._index.knows(word) or (vectors is not None and vectors.uses(word))

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        """The full names of the records whose name, description or curated-list text uses
        ``word`` (stemmed), when ``most`` or fewer do; None when more do."""
        ids = self._index.users(word, most)
        return None if ids is None else frozenset(self.records[i].full_name for i in ids)

    def records_using(self, word: str) -> int:
        """How many records' name, description or curated-list text use ``word`` (stemmed)."""
        return self._index.count(word)

    def words_of(self, full_name: str) -> frozenset[str] | None:
        """The words (``core.search.coverage.text_words``) of a record's name, description,
        language and curated-list text, and of its example requests; None for one the catalog lacks."""
        record = self.get(full_name)
        if record is None:
            return None
        vectors = self.vectors()
        words = text_words([record.full_name, record.description, record.language or "",
                            *record.categories, *record.list_descriptions])
        return (words | vectors.words_of_examples(record.id)) if vectors is not None else words

    def vectors_named(self, names: Sequence[str]) -> np.ndarray:
        """The shipped vectors of the most-starred snapshot repository called each of ``names``."""
        vectors = self.vectors()
        found = [self.get(full[0]) for full in (self.names.resolve(n) for n in names) if full]
        rows = [vectors.matrix[r.id] for r in found if r is not None] if vectors is not None else []
        return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def _popularity(self) -> np.ndarray:
        """Each record's popularity prior (``core.search.fit.popularity_prior``), by record id."""
        from core.search.fit import popularity_prior

        if self._prior is None:
            self._prior = np.array([popularity_prior(r.stars, r.figures_known, earlier_stars=r.earlier_stars)
                                    for r in self.records], dtype=np.float32)
        return self._prior

    def _nearest(self, params: SearchParams, limit: int) -> list[int]:
        """``_nearest_uncached``, kept for the last few searches: every strategy of a turn asks
        with the same need and filters. The key holds every input of ``_nearest_uncached``."""
        from core.search.fit import semantic_query
        from core.search.shortlist import wants_small

        key = (semantic_query(params), bool(params.text.strip()), *_filters(params), wants_small(params), limit)
        found = self._recent_nearest.get(key)
        if found is None:
            found = _keep(self._recent_nearest, key, tuple(self._nearest_uncached(params, limit)))
        return list(found)

    def _nearest_uncached(self, params: SearchParams, limit: int) -> list[int]:
        from core.search.fit import FLOOR, need_vector, not_the_answer, semantic_query
        from core.search.need import read_need
        from core.search.shortlist import wants_small

        if not params.text.strip() or limit <= 0 or (vectors := self.vectors()) is None:
            return []
        allowed = self._allowed_ids(params)
        text = semantic_query(params)
        need = read_need(text)
        prior = np.zeros(len(self.records), dtype=np.float32) if wants_small(params) else self._popularity()
        # twice as many as needed, then lists, tutorials and add-ons lowered among those: a penalty only
        # lowers a score, so the best ``limit`` after it are among them
        nearest = vectors.nearest(need_vector(text), allowed, 2 * limit + len(need.compared), prior=prior, min_cosine=FLOOR)
        records = self.records
        scored = [(record_id, cosine + float(prior[record_id])
                   - not_the_answer(need, records[record_id].full_name, records[record_id].description))
                  for record_id, cosine in nearest if not need.left_out(records[record_id].full_name)]
        return [record_id for record_id, _ in sorted(scored, key=lambda pair: -pair[1])[:limit]]

    def _allowed_ids(self, params: SearchParams) -> np.ndarray | None:
        """The ids of the records under the language, star and push filters, in the index's
        order (kept for the last few filters); None when there is no filter. Applications of
        unknown language are not among them: by meaning alone they crowd out those known to be
        in the language (the words' search fetches them, ``unknown_language_fits``)."""
        if not (params.language or params.min_stars is not None or params.max_stars is not None or params.pushed_after):
            return None
        key = _filters(params)
        allowed = self._allowed.get(key)
        if allowed is None:
            unfiltered = SearchParams(**params.model_dump(include={"language", "also_languages", "min_stars", "max_stars", "pushed_after"}))
            allowed = np.asarray(self._index.search(unfiltered, limit=len(self.records)), dtype=np.int64)
            allowed.setflags(write=False)
            _keep(self._allowed, key, allowed)
        return allowed

    def source(self) -> "CatalogSource":
        from core.catalog.source import CatalogSource

        return CatalogSource(self)


def _filters(params: SearchParams) -> tuple[object, ...]:
    return (params.languages, params.min_stars, params.max_stars, params.pushed_after)


def _keep(recent: dict[K, T], key: K, value: T, size: int = RECENT) -> T:
    """``recent[key] = value``, the oldest entry dropped past ``size``."""
    if len(recent) >= size:
        recent.pop(next(iter(recent)))
    recent[key] = value
    return value
