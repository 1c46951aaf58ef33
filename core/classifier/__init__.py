"""Intent classification: the offline model, reference resolution, and the composition helper.

    classifier = build_classifier(settings, catalog.names)
    classification = await classifier.classify("analyze the second one", conversation.recent(3))
"""

from __future__ import annotations

from core.classifier.base import IntentClassifier, RepoNameIndex
from core.classifier.context import ThreadContext, build_context
from core.classifier.local import LocalIntentClassifier, LocalVerdict
from core.classifier.names import ChainedNameIndex, StaticNameIndex, shipped_name_index
from core.classifier.references import Problem, ReferenceResolver, Resolution
from core.config import CoreSettings


def build_classifier(settings: CoreSettings, names: RepoNameIndex | None = None) -> LocalIntentClassifier:
    """The default classifier: the local model with the settings' thresholds.

    ``names`` is the catalog's index (bare names such as "zustand" -> "pmndrs/zustand"); the
    names shipped with the classifier are consulted after it.
    """
    return LocalIntentClassifier(
        names=names,
        confidence_threshold=settings.confidence_threshold,
        ambiguity_margin=settings.ambiguity_margin,
    )


__all__ = [
    "ChainedNameIndex",
    "IntentClassifier",
    "LocalIntentClassifier",
    "LocalVerdict",
    "Problem",
    "ReferenceResolver",
    "RepoNameIndex",
    "Resolution",
    "StaticNameIndex",
    "ThreadContext",
    "build_classifier",
    "build_context",
    "shipped_name_index",
]
