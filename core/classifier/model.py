"""The local intent model: TF-IDF word + character n-grams and context features -> a calibrated
linear classifier (scikit-learn). Trained from the shipped utterance set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction import DictVectorizer
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

from core.classifier.features import ModelInput
from core.models import Intent

# Plain word tokens plus our placeholders and symbols people use as words ("#", "vs.", "?").
_TOKEN_PATTERN = r"(?u)\b\w+\b|[?#]"
CONTEXT_WEIGHT = 0.6


@dataclass(frozen=True)
class ModelConfig:
    word_ngrams: tuple[int, int] = (1, 2)
    char_ngrams: tuple[int, int] = (2, 5)
    svm_c: float = 0.5
    calibration: str = "sigmoid"
    folds: int = 3


class IntentModel:
    """fit(inputs, labels) once; predict_proba(inputs) -> rows of probabilities over ``classes``."""

    def __init__(self, config: ModelConfig | None = None) -> None:
        self.config = config or ModelConfig()
        c = self.config
        self.words = TfidfVectorizer(
            ngram_range=c.word_ngrams, token_pattern=_TOKEN_PATTERN, sublinear_tf=True, min_df=1,
            lowercase=False,
        )
        self.chars = TfidfVectorizer(
            analyzer="char_wb", ngram_range=c.char_ngrams, sublinear_tf=True, min_df=2, lowercase=False,
        )
        self.context = DictVectorizer()
        self.classifier = CalibratedClassifierCV(
            LinearSVC(C=c.svm_c), method=c.calibration, cv=c.folds, ensemble=False,
        )
        self.classes: list[Intent] = []

    def _matrix(self, inputs: Sequence[ModelInput], *, fit: bool) -> sparse.csr_matrix:
        texts = [i.text for i in inputs]
        feats = [i.features for i in inputs]
        if fit:
            parts = [self.words.fit_transform(texts), self.chars.fit_transform(texts),
                     self.context.fit_transform(feats) * CONTEXT_WEIGHT]
        else:
            parts = [self.words.transform(texts), self.chars.transform(texts),
                     self.context.transform(feats) * CONTEXT_WEIGHT]
        return sparse.hstack(parts, format="csr")

    def fit(self, inputs: Sequence[ModelInput], labels: Sequence[Intent]) -> "IntentModel":
        x = self._matrix(inputs, fit=True)
        y = np.array([label.value for label in labels])
        self.classifier.fit(x, y)
        self.classes = [Intent(c) for c in self.classifier.classes_]
        return self

    def predict_proba(self, inputs: Sequence[ModelInput]) -> np.ndarray:
        return self.classifier.predict_proba(self._matrix(inputs, fit=False))
