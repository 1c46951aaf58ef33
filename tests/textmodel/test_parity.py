"""The numpy models compute scikit-learn's probabilities to the last bit, and round-trip through
their archive."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from core.textmodel import LogisticModel, SparseRow, TfidfTerms, read_archive, write_archive

TEXTS = [
    "find react state management libraries", "analyze pmndrs/zustand", "compare zustand vs redux",
    "what about Python?", "thanks a lot!", "is fastapi well maintained?", "show me more",
    "a faster grep", "static site generator in go", "Should we migrate from Redux to Zustand?",
    "latest version of React", "Impact of AI on medical ethics", "which one is the most popular?",
    "ünïcödé   text\twith\t\ttabs", "x", "   ", "",
]
LABELS = ["search", "analyze", "compare", "search", "chat", "analyze", "search", "search", "search",
          "compare", "search", "chat", "compare", "chat", "chat", "chat", "chat"]
PROBES = TEXTS + ["react vs vue for a small team", "GREP but FASTER", "#1 library?", "a" * 300, "zz zz zz zz"]

VECTORIZERS = [
    lambda: TfidfVectorizer(ngram_range=(1, 2), token_pattern=r"(?u)\b\w+\b|[?#]", sublinear_tf=True,
                            lowercase=False),
    lambda: TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2, lowercase=False),
    lambda: TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
    lambda: TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True),
]


def _rows_of(matrix: sparse.csr_matrix) -> list[SparseRow]:
    matrix = sparse.csr_matrix(matrix)
    return [SparseRow(matrix.indices[a:b].astype(np.int64), matrix.data[a:b])
            for a, b in zip(matrix.indptr[:-1], matrix.indptr[1:])]


@pytest.mark.parametrize("make", VECTORIZERS)
def test_a_tfidf_row_is_scikit_learns_bit_for_bit(make) -> None:
    vectorizer = make().fit(TEXTS)
    terms = TfidfTerms.from_vectorizer(vectorizer)
    for expected, text in zip(_rows_of(vectorizer.transform(PROBES)), PROBES):
        found = terms.row(text)
        assert np.array_equal(found.columns, expected.columns) and np.array_equal(found.values, expected.values)


def test_settings_it_does_not_mirror_are_refused() -> None:
    with pytest.raises(ValueError):
        TfidfTerms.from_vectorizer(TfidfVectorizer(stop_words="english").fit(TEXTS))
    with pytest.raises(ValueError):
        TfidfTerms.from_vectorizer(TfidfVectorizer(sublinear_tf=False).fit(TEXTS))


@pytest.mark.parametrize("labels", [LABELS, ["quick" if label == "search" else "deep" for label in LABELS]])
def test_probabilities_are_scikit_learns_bit_for_bit(labels: list[str]) -> None:
    words = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True).fit(TEXTS)
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True).fit(TEXTS)

    def matrix(texts: list[str]) -> sparse.csr_matrix:
        return sparse.hstack([words.transform(texts), chars.transform(texts)], format="csr")

    estimator = LogisticRegression(C=8.0, max_iter=2000).fit(matrix(TEXTS), labels)
    model = LogisticModel.from_estimator(estimator)
    word_terms, char_terms = TfidfTerms.from_vectorizer(words), TfidfTerms.from_vectorizer(chars)
    rows = [SparseRow.joined([(word_terms.row(t), 0), (char_terms.row(t), word_terms.width)]) for t in PROBES]
    assert model.classes == tuple(estimator.classes_)
    assert np.array_equal(model.probabilities(rows), estimator.predict_proba(matrix(PROBES)))
    assert np.array_equal(model.probabilities(rows[:1]), estimator.predict_proba(matrix(PROBES[:1])))


def test_the_archive_round_trips_and_is_written_the_same_every_time(tmp_path: Path) -> None:
    vectorizer = VECTORIZERS[1]().fit(TEXTS)
    terms = TfidfTerms.from_vectorizer(vectorizer)
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    write_archive(first, terms.arrays("chars"))
    write_archive(second, terms.arrays("chars"))
    assert first.read_bytes() == second.read_bytes()
    again = TfidfTerms.from_arrays(read_archive(first), "chars")
    assert again.terms == terms.terms and np.array_equal(again.idf, terms.idf)
    assert (again.analyzer, again.ngram_range, again.lowercase) == (terms.analyzer, terms.ngram_range, terms.lowercase)
