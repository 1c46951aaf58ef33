"""Sentence vectors of the catalog, computed at build time and shipped next to the data.

    python -m core.catalog.vectors_build  # rebuild core/catalog/vectors.npz for the packaged catalog

The file holds one float16 row per record (name, description and list categories, the recipe of
``core.search.semantic.repository_text``) and a key: the SHA-256 of the model name and every
record's text. A catalog whose texts differ from the ones the vectors were built from (new rows,
edited descriptions) does not match the key, and its vectors are refused rather than misused.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from core.catalog.records import CatalogRecord
from core.search.embedding import MODEL_PACKAGE
from core.search.semantic import repository_text

log = logging.getLogger("omg.catalog.vectors")


def default_vectors_file() -> Path:
    return Path(str(resources.files("core.catalog").joinpath("vectors.npz")))


def record_texts(records: Sequence[CatalogRecord]) -> list[str]:
    """Name, description, and the curated-list categories as topics ("Web Frameworks")."""
    return [repository_text(r.full_name, r.description, category_topics(r.categories)) for r in records]


def category_topics(categories: Sequence[str]) -> list[str]:
    """The last level of each list category: "awesome-go: Web Frameworks > Routers" -> "Routers"."""
    leaves = (c.split(":", 1)[-1].split(">")[-1].strip() for c in categories)
    return list(dict.fromkeys(leaf for leaf in leaves if leaf))[:3]


def vectors_key(texts: Sequence[str]) -> str:
    digest = hashlib.sha256(MODEL_PACKAGE.encode())
    for text in texts:
        digest.update(b"\x00" + text.encode())
    return digest.hexdigest()


RECENT_QUERIES = 8


class CatalogVectors:
    """Unit vectors of the catalog's records, row ``i`` for the record with id ``i``."""

    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix.astype(np.float32)
        self._recent: dict[bytes, np.ndarray] = {}

    @classmethod
    def load(cls, records: Sequence[CatalogRecord], path: Path | None = None) -> "CatalogVectors | None":
        """The shipped vectors when they were built from exactly these records, else None."""
        path = path or default_vectors_file()
        if not path.is_file():
            log.warning("no catalog vectors shipped: semantic retrieval over the catalog is off", extra={"path": str(path)})
            return None
        with np.load(path) as stored:
            key, matrix = str(stored["key"]), stored["vectors"]
        if key != vectors_key(record_texts(records)) or len(matrix) != len(records):
            log.warning("catalog vectors do not match the catalog: rebuild them with python -m core.catalog.vectors_build")
            return None
        return cls(matrix)

    def cosines(self, query: np.ndarray) -> np.ndarray:
        """The cosine of every record to a unit query vector; the last few queries' are kept,
        since every search strategy of one turn asks with the same query."""
        key = query.tobytes()
        if key not in self._recent:
            if len(self._recent) >= RECENT_QUERIES:
                self._recent.pop(next(iter(self._recent)))
            self._recent[key] = self.matrix @ query
        return self._recent[key]

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
        scores = self.cosines(query)[pool]
        keep = scores >= min_cosine
        pool, scores = pool[keep], scores[keep]
        order = scores + prior[pool] if prior is not None else scores
        top = np.argsort(-order)[:limit]
        return [(int(pool[i]), float(scores[i])) for i in top]
