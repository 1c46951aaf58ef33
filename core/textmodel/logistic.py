"""A fitted logistic regression's probabilities over sparse rows.

It mirrors scikit-learn's ``LogisticRegression.predict_proba`` (1.x): the decision is each row's
terms summed one after the other in column order from zero (SciPy's sparse product), plus the
intercept; then a softmax over three classes or more, or the logistic function for two, computed
as SciPy's ``expit`` does (``1 / (1 + exp(-x))`` with the C library's ``exp``, which
``math.exp`` is and numpy's vectorised ``exp`` is not always, to the last bit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class SparseRow:
    """One row of features: the columns that are set (ascending) and their values."""

    columns: np.ndarray
    values: np.ndarray

    @staticmethod
    def joined(parts: Sequence[tuple["SparseRow", int]]) -> "SparseRow":
        """Rows of blocks side by side: each ``(row, first column of its block)`` in block order."""
        return SparseRow(
            np.concatenate([row.columns + offset for row, offset in parts]).astype(np.int64),
            np.concatenate([row.values for row, _ in parts]).astype(np.float64),
        )


@dataclass(frozen=True)
class LogisticModel:
    """``weights[feature, k]``: class ``k``'s coefficient (one column for two classes, the second
    class's); ``intercept[k]``; ``classes`` as scikit-learn ordered them."""

    weights: np.ndarray
    intercept: np.ndarray
    classes: tuple[str, ...]

    @classmethod
    def from_estimator(cls, estimator: Any) -> "LogisticModel":
        """The coefficients of a fitted scikit-learn ``LogisticRegression``."""
        return cls(
            weights=np.ascontiguousarray(np.asarray(estimator.coef_, dtype=np.float64).T),
            intercept=np.asarray(estimator.intercept_, dtype=np.float64),
            classes=tuple(str(c) for c in estimator.classes_),
        )

    def decision(self, rows: Sequence[SparseRow]) -> np.ndarray:
        scores = np.zeros((len(rows), self.weights.shape[1]), dtype=np.float64)
        for index, row in enumerate(rows):
            terms = np.zeros((len(row.columns) + 1, self.weights.shape[1]), dtype=np.float64)
            np.multiply(row.values[:, None], self.weights[row.columns], out=terms[1:])
            scores[index] = np.cumsum(terms, axis=0)[-1]  # 0 + t0 + t1 + ..., in column order
        return scores + self.intercept

    def probabilities(self, rows: Sequence[SparseRow]) -> np.ndarray:
        """One row of probabilities per input row, columns in ``classes`` order."""
        decision = self.decision(rows)
        if len(self.classes) <= 2:
            positive = np.array([_expit(x) for x in decision.reshape(-1).tolist()], dtype=np.float64)
            return np.stack([1 - positive, positive], axis=1)
        decision -= decision.max(axis=1).reshape(-1, 1)
        np.exp(decision, out=decision)
        decision /= decision.sum(axis=1).reshape(-1, 1)
        return decision

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}.weights": self.weights, f"{prefix}.intercept": self.intercept,
                f"{prefix}.classes": np.array(self.classes, dtype=str)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str) -> "LogisticModel":
        return cls(
            weights=np.ascontiguousarray(arrays[f"{prefix}.weights"], dtype=np.float64),
            intercept=np.asarray(arrays[f"{prefix}.intercept"], dtype=np.float64),
            classes=tuple(str(c) for c in arrays[f"{prefix}.classes"].tolist()),
        )


def _expit(x: float) -> float:
    try:
        return 1.0 / (1.0 + math.exp(-x))
    except OverflowError:  # exp(-x) past the largest float: SciPy's gives 1 / inf
        return 0.0
