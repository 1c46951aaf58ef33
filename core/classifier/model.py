"""The local intent model at run time: TF-IDF word + character n-grams and context features ->
multinomial logistic regression, computed with numpy (``core.textmodel``) from the weights
scikit-learn fitted (``core.classifier.fitting``), to the same probabilities.

Why logistic regression: its probabilities come from minimising log-loss, so they are
calibrated by construction; measured on held-out *templates* (phrasings the model never saw,
``bench.classifier``) the expected calibration error is ~0.03. We compared a linear SVM with
Platt scaling over grouped folds: same accuracy, but less confident where it was right, so more
correct answers fell under the 0.7 threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.classifier.features import ModelInput
from core.models import Intent
from core.textmodel import LogisticModel, SparseRow, TfidfTerms

# Plain word tokens plus our placeholders and symbols people use as words ("#", "vs.", "?").
TOKEN_PATTERN = r"(?u)\b\w+\b|[?#]"
CONTEXT_WEIGHT = 0.6


@dataclass(frozen=True)
class IntentModel:
    """``predict_proba(inputs)`` -> rows of probabilities over ``classes``. Its columns: the
    words' TF-IDF, then the characters', then the context features (weighted ``CONTEXT_WEIGHT``)."""

    words: TfidfTerms
    chars: TfidfTerms
    context: dict[str, int]  # feature name -> column within the context block
    linear: LogisticModel

    @property
    def classes(self) -> list[Intent]:
        return [Intent(c) for c in self.linear.classes]

    def row(self, item: ModelInput) -> SparseRow:
        set_features = sorted(
            (column, float(value)) for name, value in item.features.items()
            if (column := self.context.get(name)) is not None
        )
        context = SparseRow(np.array([c for c, _ in set_features], dtype=np.int64),
                            np.array([v for _, v in set_features], dtype=np.float64) * CONTEXT_WEIGHT)
        return SparseRow.joined([(self.words.row(item.text), 0), (self.chars.row(item.text), self.words.width),
                                 (context, self.words.width + self.chars.width)])

    def predict_proba(self, inputs: Sequence[ModelInput]) -> np.ndarray:
        return self.linear.probabilities([self.row(item) for item in inputs])

    def arrays(self) -> dict[str, np.ndarray]:
        ordered = sorted(self.context, key=self.context.__getitem__)
        return {**self.words.arrays("words"), **self.chars.arrays("chars"),
                "context.names": np.array(ordered, dtype=str), **self.linear.arrays("linear")}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> "IntentModel":
        names = arrays["context.names"].tolist()
        return cls(
            words=TfidfTerms.from_arrays(arrays, "words"),
            chars=TfidfTerms.from_arrays(arrays, "chars"),
            context=dict(zip(names, range(len(names)))),
            linear=LogisticModel.from_arrays(arrays, "linear"),
        )
