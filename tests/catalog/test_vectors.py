"""Catalog vectors: shipped for the packaged catalog, keyed so that a changed catalog is detected."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.catalog import Catalog
from core.catalog.vectors import CatalogVectors, record_texts, vectors_key
from core.catalog.vectors_build import build


def test_the_shipped_vectors_match_the_packaged_catalog() -> None:
    catalog = Catalog.load()
    vectors = catalog.vectors()
    assert vectors is not None, "rebuild with python -m core.catalog.vectors_build"
    assert vectors.matrix.shape == (len(catalog), 384)
    assert np.allclose(np.linalg.norm(vectors.matrix[:50], axis=1), 1.0, atol=1e-2)


def test_vectors_of_other_texts_are_refused(tmp_path) -> None:
    records = Catalog.load().records[:3]
    path = tmp_path / "vectors.npz"
    build(records, path)
    assert CatalogVectors.load(records, path) is not None
    edited = [replace(records[0], description="something else entirely"), *records[1:]]
    assert CatalogVectors.load(edited, path) is None
    assert CatalogVectors.load(records[:2], path) is None
    assert CatalogVectors.load(records, tmp_path / "missing.npz") is None


def test_the_key_covers_every_text_in_order() -> None:
    texts = record_texts(Catalog.load().records[:2])
    assert vectors_key(texts) != vectors_key(texts[::-1])


def test_the_cosines_of_some_records_are_those_of_every_record() -> None:
    from core.search.embedding import default_encoder

    vectors = Catalog.load().vectors()
    assert vectors is not None
    rng = np.random.default_rng(4)
    ends = np.array([0, 1, len(vectors.matrix) - 2, len(vectors.matrix) - 1])  # the matrix's leftover end too
    for query in default_encoder().encode(["a faster grep", "charts for the web", "something to block ads"]):
        every = vectors.cosines(query)
        for ids in (ends, ends[2:], rng.choice(len(vectors.matrix), 3), rng.choice(len(vectors.matrix), 2001)):
            fresh = CatalogVectors(vectors.matrix, vectors.examples, vectors.example_records, vectors.example_starts)
            assert np.array_equal(fresh.cosines(query, ids), every[ids])  # bit for bit, from their rows alone
            assert np.array_equal(vectors.cosines(query, ids), every[ids])  # from the kept cosines of every record


def test_every_records_closeness_is_that_of_one_product_on_one_thread() -> None:
    from core.search.embedding import ONE_BLAS_THREAD, default_encoder

    vectors = Catalog.load().vectors()
    assert vectors is not None
    for query in default_encoder().encode(["a faster grep", "self-hosted feature flags"]):
        with ONE_BLAS_THREAD:
            own = vectors.matrix @ query
            examples = vectors.examples @ query
        fresh = CatalogVectors(vectors.matrix, vectors.examples, vectors.example_records, vectors.example_starts)
        found_own, found_examples = fresh.closeness(query)  # split over two threads where rows allow
        assert np.array_equal(found_own, own)
        assert np.array_equal(found_examples[vectors.example_records], examples)
        assert (np.delete(found_examples, vectors.example_records) == -1).all()
