"""A fitted TF-IDF vectorizer's transform: sublinear term frequency, smooth idf, L2 norm.

It mirrors scikit-learn's ``TfidfVectorizer.transform`` (1.x) step by step -- the analyzer, the
counts, ``log(tf) + 1``, the idf, and the row's L2 norm summed term by term in column order as
its Cython routine does -- so a row's values are bit-identical to scikit-learn's.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from core.textmodel.logistic import SparseRow

_WHITE_SPACES = re.compile(r"\s\s+")  # scikit-learn's, for character n-grams

Analyzer = Literal["word", "char_wb"]


@dataclass(frozen=True)
class TfidfTerms:
    """The vocabulary (term -> column) and idf of a fitted vectorizer, and how it reads text."""

    analyzer: Analyzer
    ngram_range: tuple[int, int]
    lowercase: bool
    token_pattern: str
    terms: dict[str, int]
    idf: np.ndarray

    @property
    def width(self) -> int:
        return len(self.terms)

    @classmethod
    def from_vectorizer(cls, vectorizer: Any) -> "TfidfTerms":
        """The parts of a fitted scikit-learn ``TfidfVectorizer`` this class computes with;
        settings it does not mirror are refused."""
        supported = (
            vectorizer.analyzer in ("word", "char_wb") and vectorizer.sublinear_tf and vectorizer.use_idf
            and vectorizer.norm == "l2" and not vectorizer.binary and vectorizer.strip_accents is None
            and vectorizer.stop_words is None and vectorizer.preprocessor is None
            and vectorizer.tokenizer is None and vectorizer.input == "content"
        )
        if not supported:
            raise ValueError("only sublinear, l2-normalised word or char_wb TF-IDF without stop words is mirrored")
        return cls(
            analyzer=vectorizer.analyzer,
            ngram_range=tuple(vectorizer.ngram_range),
            lowercase=bool(vectorizer.lowercase),
            token_pattern=vectorizer.token_pattern if vectorizer.analyzer == "word" else "",
            terms={str(term): int(column) for term, column in vectorizer.vocabulary_.items()},
            idf=np.asarray(vectorizer.idf_, dtype=np.float64),
        )

    def ngrams(self, text: str) -> list[str]:
        """The terms scikit-learn's analyzer reads in ``text``, in its order."""
        if self.lowercase:
            text = text.lower()
        if self.analyzer == "word":
            return _word_ngrams(re.findall(self.token_pattern, text), self.ngram_range)
        return _char_wb_ngrams(text, self.ngram_range)

    def row(self, text: str) -> SparseRow:
        """``text``'s TF-IDF row: its known terms' columns, ascending, and their values."""
        counts = Counter(map(self.terms.get, self.ngrams(text)))
        counts.pop(None, None)  # terms the vectorizer never saw
        known = sorted(counts)
        columns = np.fromiter(known, dtype=np.int64, count=len(known))
        values = np.fromiter(map(counts.__getitem__, known), dtype=np.float64, count=len(known))
        np.log(values, out=values)
        values += 1.0
        values *= self.idf[columns]
        if len(values):
            # summed one term after the other, in column order: scikit-learn's loop
            total = float(np.cumsum(values * values)[-1])
            if total != 0.0:
                values /= math.sqrt(total)
        return SparseRow(columns, values)

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """What ``from_arrays`` reads back, under keys starting with ``prefix``."""
        ordered = sorted(self.terms, key=self.terms.__getitem__)
        return {
            f"{prefix}.terms": np.array(ordered, dtype=str),
            f"{prefix}.idf": self.idf,
            f"{prefix}.settings": np.array([self.analyzer, str(self.ngram_range[0]), str(self.ngram_range[1]),
                                            str(int(self.lowercase)), self.token_pattern]),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str) -> "TfidfTerms":
        analyzer, low, high, lowercase, pattern = (str(v) for v in arrays[f"{prefix}.settings"].tolist())
        if analyzer not in ("word", "char_wb"):
            raise ValueError(f"unknown analyzer {analyzer!r}")
        terms = arrays[f"{prefix}.terms"].tolist()
        return cls(
            analyzer="word" if analyzer == "word" else "char_wb",
            ngram_range=(int(low), int(high)),
            lowercase=lowercase == "1",
            token_pattern=pattern,
            terms=dict(zip(terms, range(len(terms)))),
            idf=np.asarray(arrays[f"{prefix}.idf"], dtype=np.float64),
        )


def _word_ngrams(tokens: list[str], ngram_range: tuple[int, int]) -> list[str]:
    low, high = ngram_range
    grams = list(tokens) if low == 1 else []
    for n in range(max(low, 2), min(high, len(tokens)) + 1):
        grams.extend(" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    return grams


def _char_wb_ngrams(text: str, ngram_range: tuple[int, int]) -> list[str]:
    """Character n-grams inside words, each word padded with a space on both sides; a word
    shorter than n counts once, whole."""
    low, high = ngram_range
    grams: list[str] = []
    for word in _WHITE_SPACES.sub(" ", text).split():
        word = f" {word} "
        for n in range(low, high + 1):
            offset = 0
            grams.append(word[offset:offset + n])
            while offset + n < len(word):
                offset += 1
                grams.append(word[offset:offset + n])
            if offset == 0:
                break
    return grams
