"""Fitting the local intent model with scikit-learn (training only: ``python -m core.classifier``,
or in memory when the shipped model is stale). Run time computes with what this exports
(``core.classifier.model.IntentModel``) and never imports scikit-learn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.classifier.features import ModelInput
from core.classifier.model import CONTEXT_WEIGHT, TOKEN_PATTERN, IntentModel
from core.models import Intent
from core.textmodel import LogisticModel, TfidfTerms


@dataclass(frozen=True)
class ModelConfig:
    word_ngrams: tuple[int, int] = (1, 2)
    char_ngrams: tuple[int, int] = (2, 5)
    c: float = 30.0  # inverse regularisation strength
    max_iter: int = 3000


def fit_intent_model(inputs: Sequence[ModelInput], labels: Sequence[Intent],
                     config: ModelConfig | None = None) -> IntentModel:
    from scipy import sparse
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from threadpoolctl import threadpool_limits

    c = config or ModelConfig()
    words = TfidfVectorizer(ngram_range=c.word_ngrams, token_pattern=TOKEN_PATTERN, sublinear_tf=True, min_df=1,
                            lowercase=False)
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=c.char_ngrams, sublinear_tf=True, min_df=2,
                            lowercase=False)
    context = DictVectorizer()
    texts = [i.text for i in inputs]
    x = sparse.hstack([words.fit_transform(texts), chars.fit_transform(texts),
                       context.fit_transform([i.features for i in inputs]) * CONTEXT_WEIGHT], format="csr")
    classifier = LogisticRegression(C=c.c, max_iter=c.max_iter)
    # One BLAS thread: on a busy machine, threads fighting over cores made fitting 15x slower.
    with threadpool_limits(limits=1):
        classifier.fit(x, np.array([label.value for label in labels]))
    return IntentModel(
        words=TfidfTerms.from_vectorizer(words),
        chars=TfidfTerms.from_vectorizer(chars),
        context={str(name): int(column) for name, column in context.vocabulary_.items()},
        linear=LogisticModel.from_estimator(classifier),
    )
