"""Example requests: what people ask when a catalog repository is the answer.

Descriptions say what a repository *is* ("A modern replacement for Redis and Memcached"); people
ask about their situation ("our Redis pegs one core while the other 15 sit idle"). Between the two
the sentence model often sees little likeness. ``data/example-requests.jsonl.gz`` holds, for 16,416
of the 16,454 catalog repositories (every snapshot repository and all but 38 of the list-only ones,
too vaguely described to tell), three or four requests for which the repository is a good
answer: one the way a search box is typed, the others the way people talk in a team chat, naming the
product they want to leave where there is one, never the repository's own name. They are embedded at
build time and shipped beside each repository's own vector (``core.catalog.vectors``): a request
close to a repository's examples (the blend of their mean and the closest one,
``core.search.semantic.example_closeness``) is close to that repository
(``core.search.semantic.meaning``).

One JSON object a line: ``{"repo": "owner/name", "requests": ["...", ...]}``. How they were written,
and by whom, is in ``data/EXAMPLE_REQUESTS.md``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from core.catalog.records import CatalogRecord

EXAMPLES_FILE = "example-requests.jsonl.gz"


def default_examples_file() -> Path:
    return Path(str(resources.files("core.catalog").joinpath("data", EXAMPLES_FILE)))


def read_examples(path: Path | None = None) -> dict[str, list[str]]:
    """Lower-cased full name -> its example requests; empty when the file is absent."""
    path = default_examples_file() if path is None else path
    if not path.is_file():
        return {}
    found: dict[str, list[str]] = {}
    for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found.setdefault(row["repo"].lower(), []).extend(r for r in row["requests"] if r.strip())
    return found


def example_rows(records: Sequence[CatalogRecord], examples: dict[str, list[str]]) -> tuple[list[str], np.ndarray]:
    """The example texts in record order, and the record id of each (ascending: the shipped rows,
    one mean per record, are in record order too)."""
    texts: list[str] = []
    owners: list[int] = []
    for record in records:
        for text in examples.get(record.full_name.lower(), ()):
            texts.append(text)
            owners.append(record.id)
    return texts, np.asarray(owners, dtype=np.int64)


def example_words(texts: Iterable[str]) -> list[str]:
    """Every word the example requests use (``core.search.coverage.text_words``), sorted. The
    situations people describe ("hogging", "babysitting", "boss") are in them, so a word that
    neither they nor any repository text use names a concept the catalog lacks."""
    from core.search.coverage import text_words

    return sorted(text_words(texts))


def words_by_record(texts: Sequence[str], starts: np.ndarray, vocabulary: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """For each group of example requests ``texts[starts[j]:starts[j + 1]]``, the ids in
    ``vocabulary`` of the words they use (ascending), all groups' one after another, and where
    each group's start (one more entry: the end of the last)."""
    from core.search.coverage import text_words

    position = {word: i for i, word in enumerate(vocabulary)}
    groups = [sorted(position[w] for w in text_words(texts[start:stop])) for start, stop in zip(starts[:-1], starts[1:])]
    ids = np.fromiter((i for group in groups for i in group), dtype=np.int32)
    return ids, np.concatenate([[0], np.cumsum([len(group) for group in groups])]).astype(np.int64)
