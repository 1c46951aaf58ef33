import json
from pathlib import Path

import numpy as np
import pytest

from core.search.embedding import EMBEDDING_DIMENSIONS, EmbeddingModelMissing, StoredRows, _WeightsFile, default_encoder


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


def test_the_forward_pass_stays_float32() -> None:
    # a float64 scalar anywhere (np.sqrt(2.0)) silently promotes whole layers to float64: ~5x slower
    from core.search.embedding import _gelu

    assert _gelu(np.ones((2, 3), dtype=np.float32)).dtype == np.float32


def test_the_gelu_is_the_exact_erf_form_to_float32_precision() -> None:
    from scipy.special import erf

    from core.search.embedding import _gelu

    x = np.linspace(-12, 12, 200_001, dtype=np.float32)
    exact = 0.5 * x.astype(np.float64) * (1 + erf(x.astype(np.float64) / np.sqrt(2.0)))
    assert np.abs(_gelu(x.copy()) - exact).max() < 1e-6 * 12


def test_a_long_encoding_split_over_workers_gives_the_vectors_each_text_gets_alone() -> None:
    from core.search.embedding import PARALLEL_TOKENS

    texts = [f"a {'fast ' * (index % 7)}router number {index} for the web" for index in range(80)]
    assert len(" ".join(texts).split()) > PARALLEL_TOKENS
    together = default_encoder().encode(texts)
    for index in (0, 1, 41, 79):
        assert np.allclose(together[index], default_encoder().encode([texts[index]])[0], atol=1e-6)


def test_dense_layers_take_at_most_a_chunk_of_tokens_at_once() -> None:
    from core.search.embedding import CHUNK_TOKENS, _chunks

    lengths = sorted([30] * 200 + [250] * 20 + [5000])
    chunks = _chunks(lengths)
    assert [p for c in chunks for p in c] == list(range(len(lengths)))
    assert all(sum(lengths[p] for p in c) <= CHUNK_TOKENS or len(c) == 1 for c in chunks)


def test_texts_are_batched_by_token_count_with_little_padding() -> None:
    from core.search.embedding import BATCH_SIZE, PADDING_SLACK, _batches

    lengths = sorted([8] * 5 + [40] * 3 + [41] + [150] * 2 + [12] * 100)
    batches = _batches(lengths)
    assert sorted(p for b in batches for p in b) == list(range(len(lengths)))
    for batch in batches:
        real = sum(lengths[p] for p in batch)
        assert len(batch) <= BATCH_SIZE and len(batch) * lengths[batch[-1]] <= PADDING_SLACK * real


def test_short_and_long_texts_together_give_the_vectors_they_give_alone() -> None:
    texts = ["grep", "a static site generator written in Go with themes and live reload " * 6, "cli"]
    together = default_encoder().encode(texts)
    for index, text in enumerate(texts):
        assert np.allclose(together[index], default_encoder().encode([text])[0], atol=1e-6)


def test_the_word_table_stays_on_disk_and_only_the_rows_asked_for_are_read() -> None:
    words = default_encoder()._words
    assert isinstance(words, StoredRows)
    assert words.shape == (30522, EMBEDDING_DIMENSIONS) and words.dtype == np.float32


def test_stored_rows_are_the_rows_of_the_matrix_in_the_order_asked(tmp_path: Path) -> None:
    matrix = np.arange(5 * 3, dtype="<f4").reshape(5, 3)
    path = tmp_path / "rows.bin"
    path.write_bytes(b"header" + matrix.tobytes())
    rows = StoredRows(path, len(b"header"), (5, 3))
    ids = np.array([4, 0, 4, 2])
    assert np.array_equal(rows.take(ids), matrix[ids]) and rows.take(ids).dtype == np.float32
    assert rows.take(np.zeros(0, dtype=np.int64)).shape == (0, 3)
    with pytest.raises(IndexError):
        rows.take(np.array([5]))


def test_a_weights_file_whose_table_is_not_float32_is_refused(tmp_path: Path) -> None:
    header = json.dumps({"table": {"dtype": "F16", "shape": [2, 2], "data_offsets": [0, 8]}}).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(len(header).to_bytes(8, "little") + header + bytes(8))
    with pytest.raises(EmbeddingModelMissing):
        _WeightsFile(path).rows("table", (2, 2))


@pytest.mark.parametrize(("inputs", "outputs"), [
    (EMBEDDING_DIMENSIONS, 3 * EMBEDDING_DIMENSIONS), (EMBEDDING_DIMENSIONS, EMBEDDING_DIMENSIONS),
    (EMBEDDING_DIMENSIONS, 4 * EMBEDDING_DIMENSIONS), (4 * EMBEDDING_DIMENSIONS, EMBEDDING_DIMENSIONS),
])
def test_a_panelled_dense_layer_gives_every_output_the_plain_products_sum(inputs: int, outputs: int) -> None:
    from core.search.embedding import ONE_BLAS_THREAD, PANEL_TOKENS, _Panels

    rng = np.random.default_rng(1)
    weight = rng.standard_normal((outputs, inputs)).astype(np.float32)  # as the model file keeps it
    bias = rng.standard_normal(outputs).astype(np.float32)
    dense = _Panels(weight, bias)
    # where OpenBLAS sums as ``blas_runs`` says (its SkylakeX kernel) the layer goes panel by panel;
    # where it sums otherwise (its Haswell kernel, on an AMD EPYC) it multiplies the plain matrix:
    # either way every output is the very sum the plain product makes
    plain = np.ascontiguousarray(weight.T)
    with ONE_BLAS_THREAD:  # as every encoding runs
        for tokens in (*range(2, PANEL_TOKENS + 2), 300):
            rows = rng.standard_normal((tokens, inputs)).astype(np.float32)
            expected = rows @ plain
            expected += bias
            assert np.array_equal(dense(rows), expected), tokens


def test_products_by_panel_are_the_plain_products_up_to_the_order_of_their_sums() -> None:
    from core.search.embedding import _Panels

    rng = np.random.default_rng(2)
    weight = rng.standard_normal((3 * EMBEDDING_DIMENSIONS, EMBEDDING_DIMENSIONS)).astype(np.float32)
    rows = rng.standard_normal((9, EMBEDDING_DIMENSIONS)).astype(np.float32)
    dense = _Panels(weight, np.zeros(3 * EMBEDDING_DIMENSIONS, dtype=np.float32))
    np.testing.assert_allclose(dense.panel_product(rows), rows @ weight.T, rtol=1e-5, atol=1e-4)


def test_the_panels_hold_the_weight_and_nothing_more() -> None:
    from core.search.embedding import PANEL_WIDTH, _Panels

    weight = np.arange(2 * PANEL_WIDTH * EMBEDDING_DIMENSIONS, dtype=np.float32).reshape(2 * PANEL_WIDTH, -1)
    dense = _Panels(weight, np.zeros(2 * PANEL_WIDTH, dtype=np.float32))
    assert dense.panels.shape == (2, EMBEDDING_DIMENSIONS, PANEL_WIDTH) and dense.panels.flags.c_contiguous
    assert np.array_equal(np.concatenate(list(dense.panels), axis=1), weight.T)
    assert np.array_equal(dense.plain(), weight.T)


def test_openblas_runs_of_inputs() -> None:
    from core.search.embedding import BLAS_RUN, blas_runs

    assert blas_runs(EMBEDDING_DIMENSIONS) == [(0, EMBEDDING_DIMENSIONS)]  # fewer than a run: one chain
    assert blas_runs(1536) == [(0, 448), (448, 896), (896, 1216), (1216, 1536)]
    assert blas_runs(2 * BLAS_RUN) == [(0, BLAS_RUN), (BLAS_RUN, 2 * BLAS_RUN)]


def test_a_shape_whose_sums_differ_is_multiplied_as_the_plain_matrix() -> None:
    from core.search.embedding import ONE_BLAS_THREAD, PANEL_WIDTH, _Panels

    weight = np.random.default_rng(2).standard_normal((2 * PANEL_WIDTH, 1536)).astype(np.float32)
    dense = _Panels(weight, np.zeros(2 * PANEL_WIDTH, dtype=np.float32), run=256)  # runs OpenBLAS does not make here
    assert not dense.by_panel
    rows = np.random.default_rng(3).standard_normal((9, 1536)).astype(np.float32)
    with ONE_BLAS_THREAD:
        assert np.array_equal(dense(rows), rows @ np.ascontiguousarray(weight.T))


def test_one_text_is_tokenized_as_it_is_in_a_batch() -> None:
    tokenizer = default_encoder()._tokenizer
    texts = ["a faster grep", "", "x " * 400, "Ünïcödé text — with an emoji 🚀", "C++ / C# / F#: .NET"]
    assert [tokenizer.encode(text).ids for text in texts] == [e.ids for e in tokenizer.encode_batch(texts)]


def test_one_blas_thread_holds_in_whichever_thread_comes_in() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from threadpoolctl import threadpool_info

    from core.search.embedding import ONE_BLAS_THREAD

    def blas_threads() -> set[int]:
        """The threads of numpy's BLAS (the one the encodings use) within ``ONE_BLAS_THREAD``."""
        with ONE_BLAS_THREAD:
            return {lib["num_threads"] for lib in threadpool_info()
                    if lib["user_api"] == "blas" and "numpy" in Path(lib["filepath"]).parts[-2]}

    with ThreadPoolExecutor(max_workers=1) as other:
        # the loop's thread first, then a worker thread, then the loop's again
        assert [blas_threads(), other.submit(blas_threads).result(), blas_threads()] == [{1}, {1}, {1}]


def test_texts_encoded_alone_together_get_the_very_vectors_each_gets_by_itself() -> None:
    texts = ["library to make charts", "library to make charts in javascript", "a faster grep",
             "system monitor for the terminal like top but prettier. top: interactive process viewer and system monitor"]
    together = default_encoder().encode(texts, alone=True)  # 4-25 tokens each, 58 in all: past the panels' 48
    for index, text in enumerate(texts):
        assert np.array_equal(together[index], default_encoder().encode([text])[0])


def test_where_blas_sums_a_row_by_its_company_texts_encoded_together_still_get_their_own_vectors() -> None:
    from core.search.embedding import SentenceEncoder

    encoder = SentenceEncoder()
    encoder._rows_alike = False  # as on a machine whose BLAS sums a row differently beside others
    texts = ["library to make charts", "a faster grep", "system monitor for the terminal like top but prettier"]
    together = encoder.encode(texts, alone=True)
    for index, text in enumerate(texts):
        assert np.array_equal(together[index], encoder.encode([text])[0])
