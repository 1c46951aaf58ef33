"""Example requests: shipped for the catalog's repositories and embedded beside each one's own text;
a repository is as close to a request as the closer of its text and its examples, and its examples
as close as the blend of their mean and their closest one."""

from __future__ import annotations

import gzip
import json

from pathlib import Path

import numpy as np

from core.catalog import Catalog
from core.catalog.examples import default_examples_file, example_rows, read_examples
from core.catalog.vectors import CatalogVectors, example_vectors_file
from core.catalog.vectors_build import build
from core.search.embedding import default_encoder
from core.search.semantic import CLOSEST_EXAMPLE_SHARE, EXAMPLE_MARGIN, example_closeness, meaning


def test_the_shipped_examples_cover_the_snapshot() -> None:
    catalog = Catalog.load()
    examples = read_examples()
    snapshot = [r for r in catalog.records if r.figures_known]
    covered = [r for r in snapshot if r.full_name.lower() in examples]
    assert len(covered) >= 0.99 * len(snapshot)
    assert all(1 <= len(examples[r.full_name.lower()]) <= 4 for r in covered)
    assert all(catalog.get(name) is not None for name in examples), "every example belongs to a catalog repository"


def test_the_shipped_vectors_hold_every_repository_with_examples() -> None:
    catalog = Catalog.load()
    vectors = catalog.vectors()
    assert vectors is not None
    _, owners = example_rows(catalog.records, read_examples())
    assert vectors.examples.shape == (len(set(owners.tolist())), 384)
    assert np.array_equal(vectors.example_records, np.unique(owners))
    assert vectors.example_vectors is not None and len(vectors.example_vectors) == len(owners)


def write_examples(path: Path, examples: dict[str, list[str]]) -> Path:
    lines = [json.dumps({"repo": repo, "requests": requests}) for repo, requests in examples.items()]
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    return path


def test_a_record_is_as_close_as_the_mean_of_its_examples(tmp_path: Path) -> None:
    records = Catalog.load().records[:3]
    examples = write_examples(tmp_path / "examples.jsonl.gz", {
        records[0].full_name: ["a tool I need", "another request"], records[2].full_name: ["something else"]})
    path = tmp_path / "vectors.npz"
    build(records, path, examples)
    vectors = CatalogVectors.load(records, path, examples)
    assert vectors is not None and vectors.example_records.tolist() == [0, 2]
    encoded = default_encoder().encode(["a tool I need", "another request", "something else"])
    mean = encoded[:2].sum(axis=0) / np.linalg.norm(encoded[:2].sum(axis=0))
    assert np.allclose(vectors.examples, np.stack([mean, encoded[2]]), atol=1e-3)
    query = encoded[1]
    own, best = vectors.closeness(query)
    assert np.allclose(own, vectors.matrix @ query)
    assert np.isclose(best[0], float(mean @ query), atol=1e-3)
    assert best[1] == -1.0
    assert np.allclose(vectors.cosines(query), np.maximum(own, best - EXAMPLE_MARGIN))


def test_the_closest_example_counts_beside_the_mean(tmp_path: Path) -> None:
    records = Catalog.load().records[:4]
    requests = ["ops wants our cloud setup described in code", "a static site generator", "a tiling window manager"]
    examples = write_examples(tmp_path / "examples.jsonl.gz", {records[1].full_name: requests,
                                                               records[3].full_name: ["a faster grep"]})
    path = tmp_path / "vectors.npz"
    build(records, path, examples)
    vectors = CatalogVectors.load(records, path, examples)
    assert vectors is not None
    encoded = default_encoder().encode([*requests, "a faster grep"])
    query = encoded[0]
    closest = vectors.closest_examples(query, [3, 0, 1, 2])
    assert np.isclose(closest[0], float(encoded[3] @ query), atol=1e-3)
    assert closest[1] == -1.0 and closest[3] == -1.0
    assert np.isclose(closest[2], 1.0, atol=1e-3), "the request itself is record 1's closest example"
    mean = vectors.closeness(query)[1][1]
    assert mean < closest[2] - 0.1, "three unrelated requests dilute their mean"
    both = example_closeness(np.array([mean, -1.0], dtype=np.float32), np.array([closest[2], -1.0], dtype=np.float32))
    assert np.isclose(both[0], CLOSEST_EXAMPLE_SHARE * closest[2] + (1 - CLOSEST_EXAMPLE_SHARE) * mean)
    assert both[1] == -1.0
    assert vectors.closest_examples(query, []).shape == (0,)
    # how typical: the closest request's cosine less the requests' mean cosine to their nearest sibling
    rows = encoded[:3] / np.linalg.norm(encoded[:3], axis=1, keepdims=True)
    siblings = rows @ rows.T
    np.fill_diagonal(siblings, -1.0)
    typical = vectors.example_typicality(query, [1, 3, 0])
    assert np.isclose(typical[0], closest[2] - siblings.max(axis=1).mean(), atol=2e-3)
    assert np.isnan(typical[1]), "one request has no sibling"
    assert np.isnan(typical[2]), "no requests at all"


def test_changed_examples_are_refused_alone(tmp_path: Path) -> None:
    records = Catalog.load().records[:2]
    path = tmp_path / "vectors.npz"
    examples = write_examples(tmp_path / "examples.jsonl.gz", {records[0].full_name: ["a request"]})
    build(records, path, examples)
    write_examples(examples, {records[0].full_name: ["an edited request"]})
    vectors = CatalogVectors.load(records, path, examples)
    assert vectors is not None, "the records' own vectors still serve"
    assert len(vectors.examples) == 0
    assert vectors.closeness(vectors.matrix[0])[1].tolist() == [-1.0, -1.0]


def test_examples_without_their_single_vectors_are_refused_alone(tmp_path: Path) -> None:
    records = Catalog.load().records[:2]
    path = tmp_path / "vectors.npz"
    examples = write_examples(tmp_path / "examples.jsonl.gz", {records[0].full_name: ["a request", "another"]})
    build(records, path, examples)
    np.save(example_vectors_file(path), np.zeros((1, 384), dtype=np.float16))  # one row short
    vectors = CatalogVectors.load(records, path, examples)
    assert vectors is not None and len(vectors.examples) == 0
    example_vectors_file(path).unlink()
    vectors = CatalogVectors.load(records, path, examples)
    assert vectors is not None and len(vectors.examples) == 0


def test_the_words_of_the_examples_are_known_words(tmp_path: Path) -> None:
    records = Catalog.load().records[:1]
    examples = write_examples(tmp_path / "examples.jsonl.gz", {records[0].full_name: ["my boss keeps babysitting cron jobs"]})
    build(records, tmp_path / "vectors.npz", examples)
    vectors = CatalogVectors.load(records, tmp_path / "vectors.npz", examples)
    assert vectors is not None
    assert vectors.uses("babysitting") and vectors.uses("Jobs") and not vectors.uses("kennel")


def test_each_records_example_words_are_kept_apart(tmp_path: Path) -> None:
    records = Catalog.load().records[:3]
    examples = write_examples(tmp_path / "examples.jsonl.gz", {records[0].full_name: ["my boss keeps babysitting cron jobs"],
                                                                records[2].full_name: ["a kanban board", "Boards for teams"]})
    build(records, tmp_path / "vectors.npz", examples)
    vectors = CatalogVectors.load(records, tmp_path / "vectors.npz", examples)
    assert vectors is not None
    assert vectors.words_of_examples(records[0].id) == {"my", "boss", "keep", "babysitting", "cron", "job"}
    assert vectors.words_of_examples(records[1].id) == frozenset()
    assert vectors.words_of_examples(records[2].id) == {"a", "kanban", "board", "for", "team"}


def test_a_records_words_are_those_of_its_texts_and_its_examples() -> None:
    catalog = Catalog.load()
    words = catalog.words_of("BurntSushi/ripgrep")
    assert words is not None and {"burntsushi", "ripgrep", "rust"} <= words
    assert catalog.vectors().words_of_examples(catalog.get("BurntSushi/ripgrep").id) <= words
    assert catalog.words_of("nobody/nothing-here") is None
    assert catalog.records_using("library") > catalog.records_using("ripgrep") > 0 == catalog.records_using("kennel")


def test_a_word_only_people_use_is_known_to_the_catalog() -> None:
    catalog = Catalog.load()
    assert catalog.knows("babysitting"), "an example request uses it, no repository text does"
    assert not catalog.knows("kennel")


def test_meaning_is_the_closer_of_the_two() -> None:
    own = np.array([0.40, 0.40, 0.40], dtype=np.float32)
    examples = np.array([-1.0, 0.35, 0.70], dtype=np.float32)
    assert np.allclose(meaning(own, examples), [0.40, max(0.40, 0.35 - EXAMPLE_MARGIN), 0.70 - EXAMPLE_MARGIN])


def test_the_data_file_is_one_object_a_line() -> None:
    lines = gzip.decompress(default_examples_file().read_bytes()).decode("utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    assert all(set(row) == {"repo", "requests"} for row in rows)
    assert len({row["repo"].lower() for row in rows}) == len(rows)


def test_the_few_repositories_that_use_a_rare_word_are_known_by_name() -> None:
    catalog = Catalog.load()
    users = catalog.word_users("libphonenumber", 30)
    assert users and all("phone" in (catalog.get(name).description or "").lower() + name.lower() for name in users)
    assert catalog.word_users("library", 30) is None  # many use it: not a rare word
    assert catalog.word_users("kennel", 30) == frozenset()
