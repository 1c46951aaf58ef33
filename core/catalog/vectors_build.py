"""Build the catalog's sentence vectors (run after the catalog data or the example requests change):

    python -m core.catalog.vectors_build [OUT.npz]   # default: core/catalog/vectors.npz
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.catalog.examples import default_examples_file, example_rows, example_words, read_examples, words_by_record
from core.catalog.records import CatalogRecord
from core.catalog.vectors import default_vectors_file, example_vectors_file, examples_key, record_texts, vectors_key


def groups(owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct owners of rows grouped by owner in ascending order, and where each group starts
    (one more entry: the end of the last)."""
    distinct, starts = np.unique(owners, return_index=True)
    return distinct, np.append(starts, len(owners)).astype(np.int64)


def unit_means(vectors: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The unit mean of each group of rows ``starts[j]:starts[j + 1]``."""
    if len(starts) < 2:
        return np.zeros((0, vectors.shape[1]), dtype=np.float32)
    sums = np.add.reduceat(vectors.astype(np.float32), starts[:-1], axis=0)
    return sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)


def cohesion(vectors: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """For each group of rows ``starts[j]:starts[j + 1]``, the mean cosine of each row to its
    nearest sibling (nan for a group of fewer than two)."""
    out = np.full(max(len(starts) - 1, 0), np.nan, dtype=np.float32)
    for j, (start, stop) in enumerate(zip(starts[:-1], starts[1:])):
        if stop - start < 2:
            continue
        rows = vectors[start:stop].astype(np.float32)
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        siblings = rows @ rows.T
        np.fill_diagonal(siblings, -1.0)
        out[j] = float(siblings.max(axis=1).mean())
    return out


def build(records: Sequence[CatalogRecord], path: Path, examples_file: Path | None = None) -> None:
    """The records' vectors, and their example requests' (the packaged file unless given)."""
    from core.search.embedding import default_encoder

    examples_file = default_examples_file() if examples_file is None else examples_file
    texts = record_texts(records)
    example_texts, owners = example_rows(records, read_examples(examples_file))
    started = time.perf_counter()
    encoder = default_encoder()
    write(path, texts, encoder.encode(texts), example_texts, owners, encoder.encode(example_texts), examples_file)
    print(f"{len(texts)} record and {len(example_texts)} example vectors in {time.perf_counter() - started:.1f} s"
          f" -> {path} ({path.stat().st_size / 1e6:.1f} MB)")


def write(path: Path, texts: Sequence[str], matrix: np.ndarray, example_texts: Sequence[str], owners: np.ndarray,
          example_vectors: np.ndarray, examples_file: Path) -> None:
    """The vectors file and, beside it, the single example requests' (``owners``, ascending, is the
    record id of each). Stored uncompressed: float16 sentence vectors shrink by 7 % compressed, the
    single requests' could not be mapped into memory, and the rest took 0.1 s longer to load."""
    records_with_examples, starts = groups(owners)
    vocabulary = example_words(example_texts)
    word_ids, word_starts = words_by_record(example_texts, starts, vocabulary)
    np.savez(
        path, key=np.array(vectors_key(texts)), vectors=matrix.astype(np.float16),
        example_key=np.array(examples_key(examples_file)), examples=unit_means(example_vectors, starts).astype(np.float16),
        example_records=records_with_examples, example_starts=starts,
        example_words=np.array(vocabulary), example_word_ids=word_ids, example_word_starts=word_starts,
        example_cohesion=cohesion(example_vectors.astype(np.float16), starts),
    )
    np.save(example_vectors_file(path), example_vectors.astype(np.float16))


def main(argv: list[str]) -> int:
    from core.catalog.catalog import Catalog

    path = Path(argv[0]) if argv else default_vectors_file()
    build(Catalog.load().records, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
