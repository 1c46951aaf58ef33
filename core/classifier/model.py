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
from sklearn.model_selection import GroupKFold
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
        self.classifier: CalibratedClassifierCV | None = None
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

    def fit(
        self, inputs: Sequence[ModelInput], labels: Sequence[Intent], groups: Sequence[str] | None = None
    ) -> "IntentModel":
        """Fit; ``groups`` (the source line of each sample) make the calibration folds grouped,
        so confidence reflects how the model does on phrasings it has not seen."""
        x = self._matrix(inputs, fit=True)
        y = np.array([label.value for label in labels])
        folds = self.config.folds
        cv = list(GroupKFold(n_splits=folds).split(x, y, groups)) if groups is not None else folds
        self.classifier = CalibratedClassifierCV(
            LinearSVC(C=self.config.svm_c), method=self.config.calibration, cv=cv, ensemble=False,
        )
        self.classifier.fit(x, y)
        self.classes = [Intent(c) for c in self.classifier.classes_]
        return self

    def predict_proba(self, inputs: Sequence[ModelInput]) -> np.ndarray:
        if self.classifier is None:
            raise RuntimeError("IntentModel.predict_proba called before fit")
        return self.classifier.predict_proba(self._matrix(inputs, fit=False))
