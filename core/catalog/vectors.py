"""Sentence vectors of the catalog, computed at build time and shipped next to the data.

    python -m core.catalog.vectors_build  # rebuild core/catalog/vectors.npz for the packaged catalog

The file holds one float16 row per record (name, description and list categories, the recipe of
``core.search.semantic.repository_text``) and a key: the SHA-256 of the model name and every
record's text. A catalog whose texts differ from the ones the vectors were built from (new rows,
edited descriptions) does not match the key, and its vectors are refused rather than misused.

Beside them, for each record that has example requests (``core.catalog.examples``), the unit mean
of its requests' vectors, float16; the record id of each and where its requests start among the
single requests' vectors; the words the requests use, and which of them each record's use; and a key of their own, the SHA-256 of the
model name and the examples file's bytes (checked without parsing the file): examples that no
longer match are refused alone, and the records' vectors still serve. Every query is compared with
all the means (``CatalogVectors.closeness``). The single requests' vectors (float16, grouped by
record in record order) are in a file of their own, ``vectors-examples.npy`` beside it, never held in
memory: only a search's candidates' requests are compared with the query
(``CatalogVectors.closest_examples``), and only their rows are read (``RowFile``).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from core.catalog.examples import default_examples_file
from core.catalog.records import CatalogRecord
from core.search.embedding import MODEL_PACKAGE, ONE_BLAS_THREAD, WORKERS
from core.search.semantic import meaning, repository_text

log = logging.getLogger("omg.catalog.vectors")


def default_vectors_file() -> Path:
    return Path(str(resources.files("core.catalog").joinpath("vectors.npz")))


def example_vectors_file(vectors_file: Path) -> Path:
    """Where the single example requests' vectors are kept beside ``vectors_file``."""
    return vectors_file.with_name(f"{vectors_file.stem}-examples.npy")


def record_texts(records: Sequence[CatalogRecord]) -> list[str]:
    """Name, description, and the curated-list categories as topics ("Web Frameworks")."""
    return [repository_text(r.full_name, r.description, category_topics(r.categories)) for r in records]


def category_topics(categories: Sequence[str]) -> list[str]:
    """The last level of each list category: "awesome-go: Web Frameworks > Routers" -> "Routers"."""
    leaves = (c.split(":", 1)[-1].split(">")[-1].strip() for c in categories)
    return list(dict.fromkeys(leaf for leaf in leaves if leaf))[:3]


def examples_key(path: Path) -> str:
    """The key of an examples file: its bytes under the model's name (empty file: none)."""
    digest = hashlib.sha256(MODEL_PACKAGE.encode())
    digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


def vectors_key(texts: Sequence[str]) -> str:
    digest = hashlib.sha256(MODEL_PACKAGE.encode())
    for text in texts:
        digest.update(b"\x00" + text.encode())
    return digest.hexdigest()


RECENT_QUERIES = 8
# rows OpenBLAS's matrix-vector kernel sums at once: a row is summed alike in whichever group it
# falls, and the rows left over at the end of a matrix are summed another way
GEMV_GROUP = 4


def rows_product(matrix: np.ndarray, rows: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """``(matrix @ vector)[rows]`` bit for bit, multiplying only those rows: they are gathered in
    whole groups (``GEMV_GROUP``, the last filled with repeats), and those among the leftover end
    of ``matrix`` are multiplied as that end, behind one whole group."""
    rows = np.asarray(rows, dtype=np.int64)
    end = len(matrix) - len(matrix) % GEMV_GROUP
    body = rows < end
    out = np.empty(len(rows), dtype=np.float32)
    count = int(body.sum())
    if count:
        gathered = np.resize(rows[body], -(-count // GEMV_GROUP) * GEMV_GROUP)
        out[body] = (matrix[gathered] @ vector)[:count]
    if count < len(rows):
        start = max(0, end - GEMV_GROUP)
        out[~body] = (matrix[start:] @ vector)[rows[~body] - start]
    return out


_ROWS_ALIKE: dict[tuple[int, int], bool] = {}


def rows_alike(matrix: np.ndarray) -> bool:
    """Whether ``rows_product`` gives this matrix's very products (it rests on how OpenBLAS sums),
    checked once for each row count left over and row width, on random rows of the matrix's end."""
    if matrix.ndim != 2 or not len(matrix):
        return False
    key = (len(matrix) % GEMV_GROUP, matrix.shape[1])
    if key not in _ROWS_ALIKE:
        rng = np.random.default_rng(0)
        end = matrix[-(64 * GEMV_GROUP + key[0]):]
        vector = rng.standard_normal(matrix.shape[1]).astype(np.float32)
        with ONE_BLAS_THREAD:  # as every product here runs
            full = end @ vector
            _ROWS_ALIKE[key] = all(
                np.array_equal(rows_product(end, rows, vector), full[rows])
                for rows in (rng.choice(len(end), count) for count in (1, 2, 3, 5, 33, len(end))))
    return _ROWS_ALIKE[key]


@lru_cache(maxsize=1)
def _product_helper() -> ThreadPoolExecutor:
    """The thread that multiplies the other half of a catalog-wide product (``_all_closeness``): one
    of its own, so that it never waits behind a long encoding split over the encoder's threads."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="omg-product")


class RowFile:
    """The rows of a two-dimensional ``.npy`` file, read when asked for. Not memory-mapped: a
    mapping's page faults bring in the pages around each row too, and a few hundred rows scattered
    over the file made most of it resident."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            version = np.lib.format.read_magic(file)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, fortran_order, dtype = read_header(file)
            self._offset = file.tell()
        if len(shape) != 2 or fortran_order:
            raise ValueError(f"{path.name}: expected rows of a C-ordered matrix, got shape {shape}")
        self.path = path
        self.dtype = np.dtype(dtype)
        self.shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        self._row_bytes = self.shape[1] * self.dtype.itemsize

    def __len__(self) -> int:
        return self.shape[0]

    def spans(self, starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
        """Rows ``starts[k]:stops[k]`` for every ``k``, one after the other, as float32."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            chunks = [os.pread(fd, int(stop - start) * self._row_bytes, self._offset + int(start) * self._row_bytes)
                      for start, stop in zip(starts, stops)]
        finally:
            os.close(fd)
        rows = np.frombuffer(b"".join(chunks), dtype=self.dtype).reshape(-1, self.shape[1])
        return rows.astype(np.float32)


class CatalogVectors:
    """Unit vectors of the catalog's records, row ``i`` for the record with id ``i``, and of their
    example requests: ``examples[j]`` is the unit mean of record ``example_records[j]``'s, which
    are ``example_vectors[example_starts[j]:example_starts[j + 1]]``."""

    def __init__(self, matrix: np.ndarray, examples: np.ndarray | None = None,
                 example_records: np.ndarray | None = None, example_starts: np.ndarray | None = None,
                 example_vectors: RowFile | None = None, example_words: Sequence[str] = (),
                 example_cohesion: np.ndarray | None = None, example_word_ids: np.ndarray | None = None,
                 example_word_starts: np.ndarray | None = None) -> None:
        self.matrix = matrix.astype(np.float32)
        width = self.matrix.shape[1] if self.matrix.ndim == 2 else 0
        self.examples = (examples if examples is not None else np.zeros((0, width))).astype(np.float32)
        self.example_records = (example_records if example_records is not None
                                else np.zeros(0, dtype=np.int64)).astype(np.int64)
        self.example_starts = (example_starts if example_starts is not None
                               else np.zeros(1, dtype=np.int64)).astype(np.int64)
        self.example_vectors = example_vectors
        self._example_group = np.full(len(self.matrix), -1, dtype=np.int64)
        self._example_group[self.example_records] = np.arange(len(self.example_records))
        self.example_words = frozenset(example_words)
        # group j's requests use the words example_vocabulary[example_word_ids[example_word_starts[j]:...[j + 1]]]
        self.example_vocabulary = tuple(example_words)
        self.example_word_ids = example_word_ids if example_word_ids is not None else np.zeros(0, dtype=np.int32)
        self.example_word_starts = (example_word_starts if example_word_starts is not None
                                    else np.zeros(len(self.example_records) + 1, dtype=np.int64))
        # per record with example requests, their mean cosine to their nearest sibling (built with the vectors)
        self.example_cohesion = None if example_cohesion is None else example_cohesion.astype(np.float32)
        self._recent: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}
        self._rows_alike = rows_alike(self.matrix) and (not len(self.examples) or rows_alike(self.examples))

    @classmethod
    def load(cls, records: Sequence[CatalogRecord], path: Path | None = None,
             examples_file: Path | None = None) -> "CatalogVectors | None":
        """The shipped vectors when they were built from exactly these records, else None; with
        their examples' when those were built from exactly ``examples_file`` (the packaged one
        unless given)."""
        path = path or default_vectors_file()
        if not path.is_file():
            log.warning("no catalog vectors shipped: semantic retrieval over the catalog is off", extra={"path": str(path)})
            return None
        with np.load(path) as stored:
            key, matrix = str(stored["key"]), stored["vectors"]
            example_key = str(stored["example_key"]) if "example_starts" in stored else None
            example_parts = None
            if example_key is not None:
                example_parts = (stored["examples"], stored["example_records"], stored["example_starts"],
                                 stored["example_words"].tolist(),
                                 stored["example_cohesion"] if "example_cohesion" in stored else None,
                                 stored["example_word_ids"] if "example_word_ids" in stored else None,
                                 stored["example_word_starts"] if "example_word_starts" in stored else None)
        if key != vectors_key(record_texts(records)) or len(matrix) != len(records):
            log.warning("catalog vectors do not match the catalog: rebuild them with python -m core.catalog.vectors_build")
            return None
        examples_file = default_examples_file() if examples_file is None else examples_file
        single = example_vectors_file(path)
        if example_parts is not None and example_key == examples_key(examples_file) and single.is_file():
            means, owners, starts, words, cohesion, word_ids, word_starts = example_parts
            example_vectors = RowFile(single)
            if example_vectors.shape == (int(starts[-1]), matrix.shape[1]) and cohesion is not None \
                    and word_starts is not None and len(word_starts) == len(owners) + 1:
                return cls(matrix, means, owners, starts, example_vectors, words, cohesion, word_ids, word_starts)
        if examples_file.is_file():
            log.warning("example request vectors do not match the examples: rebuild them with "
                        "python -m core.catalog.vectors_build")
        return cls(matrix)

    def uses(self, word: str) -> bool:
        """Whether an example request uses ``word`` (stemmed, see ``core.catalog.examples.example_words``)."""
        from core.search.relevance import stem

        return stem(word.lower()) in self.example_words

    def words_of_examples(self, record_id: int) -> frozenset[str]:
        """The words a record's example requests use (stemmed); none when it has none."""
        group = int(self._example_group[record_id])
        if group < 0:
            return frozenset()
        ids = self.example_word_ids[self.example_word_starts[group]:self.example_word_starts[group + 1]]
        return frozenset(self.example_vocabulary[i] for i in ids)

    def closeness(self, query: np.ndarray, ids: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """For every record (each of ``ids`` when given), the cosine of its own text to a unit
        query vector, and that of its example requests (-1 where it has none). The last few
        queries' for every record are kept, since every search strategy of one turn asks with the
        same query; for ``ids`` alone (a filter's records, a search's candidates) only their rows
        are multiplied, when that gives the very same cosines (``rows_alike``)."""
        key = query.tobytes()
        found = self._recent.get(key)
        if found is None and ids is not None and self._rows_alike:
            return self._closeness_of(query, np.asarray(ids, dtype=np.int64))
        if found is None:
            if len(self._recent) >= RECENT_QUERIES:
                self._recent.pop(next(iter(self._recent)))
            found = self._recent[key] = self._all_closeness(query)
        return found if ids is None else (found[0][ids], found[1][ids])

    def _all_closeness(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``closeness`` of every record. Both products are memory-bound: where the rows can be
        split without changing a cosine (``rows_alike``), a helper thread multiplies half of them
        while this one multiplies the rest (each stream of rows gets a core's bandwidth: ~3.8 ->
        ~2.0 ms on an idle 2-core VM; on a busy one the helper waits for this thread's core, about
        the time of one thread). Each runs on one BLAS thread: BLAS's own threads spin waiting for
        a core on a busy host (2 cores, load ~3: ~16 ms against ~5 ms), and one thread gives the
        same cosines whatever the core count (each BLAS thread's share of rows rounded its own way)."""
        own = np.empty(len(self.matrix), dtype=np.float32)
        best = np.full(len(self.matrix), -1.0, dtype=np.float32)
        cut = len(self.matrix)
        if self._rows_alike and WORKERS > 1:  # whole groups of rows on each side, half of all rows
            cut = min(cut, (len(self.matrix) + len(self.examples)) // 2 // GEMV_GROUP * GEMV_GROUP)

        def rest() -> None:
            np.matmul(self.matrix[cut:], query, out=own[cut:])
            if len(self.examples):
                best[self.example_records] = self.examples @ query

        with ONE_BLAS_THREAD:
            helper = _product_helper().submit(rest) if cut < len(self.matrix) else None
            try:
                np.matmul(self.matrix[:cut], query, out=own[:cut])
            finally:  # the helper writes into ``own`` and ``best``: never return (or raise) before it
                if helper is not None:
                    helper.result()
            if helper is None:
                rest()
        return own, best

    def _closeness_of(self, query: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``closeness`` of the records ``ids``, from their rows alone."""
        best = np.full(len(ids), -1.0, dtype=np.float32)
        groups = self._example_group[ids]
        having = np.flatnonzero(groups >= 0)
        with ONE_BLAS_THREAD:
            if len(having):
                best[having] = rows_product(self.examples, groups[having], query)
            own = rows_product(self.matrix, ids, query)
        return own, best

    def closest_examples(self, query: np.ndarray, ids: Sequence[int]) -> np.ndarray:
        """For each record id, the cosine of its example request closest to a unit query vector
        (-1 where it has none)."""
        groups = self._example_group[np.asarray(ids, dtype=np.int64)] if len(ids) else np.zeros(0, dtype=np.int64)
        best = np.full(len(groups), -1.0, dtype=np.float32)
        having = np.flatnonzero(groups >= 0)
        if self.example_vectors is not None and len(having):
            starts = self.example_starts[groups[having]]
            stops = self.example_starts[groups[having] + 1]
            cosines = self.example_vectors.spans(starts, stops) @ query
            best[having] = np.maximum.reduceat(cosines, np.cumsum(stops - starts) - (stops - starts))
        return best

    def example_typicality(self, query: np.ndarray, ids: Sequence[int]) -> np.ndarray:
        """For each record id, how much closer a unit query vector is to its closest example
        request than those requests are, on average, to their own closest sibling
        (``example_cohesion``; nan where it has fewer than two)."""
        return self.typicality_of(self.closest_examples(query, ids), ids)

    def typicality_of(self, closest: np.ndarray, ids: Sequence[int]) -> np.ndarray:
        """``example_typicality`` from the closest example cosines already read (``closest_examples``)."""
        out = np.full(len(ids), np.nan, dtype=np.float32)
        groups = self._example_group[np.asarray(ids, dtype=np.int64)] if len(ids) else np.zeros(0, dtype=np.int64)
        having = np.flatnonzero(groups >= 0)
        if self.example_cohesion is not None and len(having):
            out[having] = closest[having] - self.example_cohesion[groups[having]]
        return out

    def cosines(self, query: np.ndarray, ids: np.ndarray | None = None) -> np.ndarray:
        """How close in meaning every record (each of ``ids`` when given) is to a unit query
        vector: its own text's cosine, or its example requests', whichever says closer
        (``core.search.semantic.meaning``)."""
        return meaning(*self.closeness(query, ids))

    def nearest(
        self, query: np.ndarray, ids: Sequence[int] | None = None, limit: int = 30, *,
        prior: np.ndarray | None = None, min_cosine: float = -1.0,
    ) -> list[tuple[int, float]]:
        """(record id, cosine) of the ``limit`` best records, among ``ids`` when given: closest in
        meaning, or by cosine + ``prior[id]`` among those at ``min_cosine`` or more when a prior
        (popularity) is given."""
        pool = np.arange(len(self.matrix)) if ids is None else np.asarray(ids, dtype=np.int64)
        if not len(pool):
            return []
        scores = self.cosines(query, None if ids is None else pool)
        keep = scores >= min_cosine
        pool, scores = pool[keep], scores[keep]
        order = scores + prior[pool] if prior is not None else scores
        top = np.argsort(-order)[:limit]
        return [(int(pool[i]), float(scores[i])) for i in top]

