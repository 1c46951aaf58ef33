import numpy as np

from core.search.embedding import EMBEDDING_DIMENSIONS, default_encoder


def test_vectors_are_normalised_rows_of_384_floats() -> None:
    vectors = default_encoder().encode(["a faster grep", "static site generator", ""])
    assert vectors.shape == (3, EMBEDDING_DIMENSIONS)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_similar_meanings_are_closer_than_unrelated_ones() -> None:
    query, near, far = default_encoder().encode(
        ["open source alternative to Firebase", "The open source Firebase alternative: Postgres backend", "A video downloader"]
    )
    assert float(query @ near) > float(query @ far) + 0.2


def test_the_encoder_is_created_once_per_process() -> None:
    assert default_encoder() is default_encoder()


def test_batching_does_not_change_a_vector() -> None:
    texts = [f"repository number {index}" for index in range(70)]
    together = default_encoder().encode(texts)
    alone = default_encoder().encode(texts[-1:])
    assert np.allclose(together[-1], alone[0], atol=1e-5)
