"""Build the catalog's sentence vectors (run after the catalog data or the example requests change):

    python -m core.catalog.vectors_build [OUT.npz]   # default: core/catalog/vectors.npz
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.catalog.examples import default_examples_file, example_rows, example_words, read_examples
from core.catalog.records import CatalogRecord
from core.catalog.vectors import default_vectors_file, examples_key, record_texts, vectors_key


def mean_vectors(vectors: np.ndarray, owners: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct owners, ascending, and the unit mean of each one's rows."""
    distinct, which = np.unique(owners, return_inverse=True)
    sums = np.zeros((len(distinct), width), dtype=np.float32)
    if len(vectors):
        np.add.at(sums, which, vectors)
    return distinct, sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)


def build(records: Sequence[CatalogRecord], path: Path, examples_file: Path | None = None) -> None:
    """The records' vectors, and their example requests' (the packaged file unless given)."""
    from core.search.embedding import default_encoder

    examples_file = default_examples_file() if examples_file is None else examples_file
    texts = record_texts(records)
    example_texts, owners = example_rows(records, read_examples(examples_file))
    started = time.perf_counter()
    encoder = default_encoder()
    matrix = encoder.encode(texts)
    records_with_examples, means = mean_vectors(encoder.encode(example_texts), owners, matrix.shape[1])
    np.savez_compressed(
        path, key=np.array(vectors_key(texts)), vectors=matrix.astype(np.float16),
        example_key=np.array(examples_key(examples_file)), examples=means.astype(np.float16),
        example_records=records_with_examples, example_words=np.array(example_words(example_texts)),
    )
    print(f"{len(texts)} record and {len(example_texts)} example vectors in {time.perf_counter() - started:.1f} s"
          f" -> {path} ({path.stat().st_size / 1e6:.1f} MB)")


def main(argv: list[str]) -> int:
    from core.catalog.catalog import Catalog

    path = Path(argv[0]) if argv else default_vectors_file()
    build(Catalog.load().records, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
