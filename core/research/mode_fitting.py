"""Fitting the local research-mode model with scikit-learn (training only):

    python -m core.research.mode_fitting           # refit and rewrite data/mode_model.npz
    python -m core.research.mode_fitting --check   # exit 1 if the shipped artefact is stale

Run time computes with what this exports (``core.research.mode_model.ModeModel``) and never
imports scikit-learn.
"""

from __future__ import annotations

import sys
from typing import Any

from core.research.analyzer import load_labelled
from core.research.cues import CueFeatures
from core.research.mode_model import (
    CHAR_WEIGHT, CUE_WEIGHT, TRAINING_DATA, WORD_WEIGHT, ModeModel, artefact_path, fingerprint, load_shipped,
    save_artefact,
)
from core.textmodel import LogisticModel, TfidfTerms
from core.textmodel.refit import refit_command


def mode_pipeline() -> Any:
    """The unfitted scikit-learn pipeline (also what ``bench.research`` cross-validates)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import FeatureUnion, Pipeline

    features = FeatureUnion(
        [
            ("words", TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, lowercase=True)),
            ("chars", TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True)),
            ("cues", CueFeatures()),
        ],
        transformer_weights={"words": WORD_WEIGHT, "chars": CHAR_WEIGHT, "cues": CUE_WEIGHT},
    )
    return Pipeline([("features", features), ("clf", LogisticRegression(C=8.0, max_iter=2000))])


def fit_mode_model() -> ModeModel:
    rows = load_labelled(TRAINING_DATA)
    pipeline = mode_pipeline().fit([q for q, _ in rows], [m.value for _, m in rows])
    union = pipeline.named_steps["features"]
    return ModeModel(
        words=TfidfTerms.from_vectorizer(union.transformer_list[0][1]),
        chars=TfidfTerms.from_vectorizer(union.transformer_list[1][1]),
        linear=LogisticModel.from_estimator(pipeline.named_steps["clf"]),
    )


def _refit() -> str:
    path = save_artefact(fit_mode_model(), artefact_path())
    return f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB, fingerprint {fingerprint()})"


def main(argv: list[str] | None = None) -> int:
    return refit_command(argv, prog="python -m core.research.mode_fitting", description=__doc__, model="mode model",
                         fingerprint=fingerprint, is_current=lambda current: load_shipped(current) is not None,
                         refit=_refit)

if __name__ == "__main__":
    sys.exit(main())
