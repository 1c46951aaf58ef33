"""Build the catalog's sentence vectors (run after the catalog data changes):

    python -m core.catalog.vectors_build [OUT.npz]   # default: core/catalog/vectors.npz
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.catalog.records import CatalogRecord
from core.catalog.vectors import default_vectors_file, record_texts, vectors_key


def build(records: Sequence[CatalogRecord], path: Path) -> None:
    from core.search.embedding import default_encoder

    texts = record_texts(records)
    started = time.perf_counter()
    matrix = default_encoder().encode(texts)
    np.savez_compressed(path, key=np.array(vectors_key(texts)), vectors=matrix.astype(np.float16))
    print(f"{len(texts)} vectors in {time.perf_counter() - started:.1f} s -> {path} ({path.stat().st_size / 1e6:.1f} MB)")


def main(argv: list[str]) -> int:
    from core.catalog.catalog import Catalog

    path = Path(argv[0]) if argv else default_vectors_file()
    build(Catalog.load().records, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
