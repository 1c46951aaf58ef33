"""The local research-mode model at run time: word and character TF-IDF plus cue features ->
logistic regression (quick scan or deep probe), computed with numpy (``core.textmodel``) from the
weights scikit-learn fitted (``core.research.mode_fitting``), to the same probabilities.

The fitted model ships as plain arrays (``data/mode_model.npz``) with a fingerprint of the
labelled goals, the code that fits and reads it, and the scikit-learn and numpy versions; when the
fingerprint does not match, the model is fitted again at first use (with scikit-learn, well under
a second). ``python -m core.research.mode_fitting`` rewrites the artefact.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

import numpy as np

from core.research.cues import cue_vector
from core.textmodel import LogisticModel, SparseRow, TfidfTerms, load_current, write_archive

ARTEFACT = "mode_model.npz"
FORMAT_VERSION = 1
TRAINING_DATA = "mode_train.jsonl"
# the weight of each block of features, in column order (scikit-learn's FeatureUnion weights)
WORD_WEIGHT, CHAR_WEIGHT, CUE_WEIGHT = 1.0, 1.0, 1.5
# source files whose behaviour is baked into the fitted model
_CODE = ("cues.py", "mode_fitting.py", "mode_model.py")


@dataclass(frozen=True)
class ModeModel:
    """``probabilities(goals)`` -> rows over ``classes`` ("deep_probe", "quick_scan")."""

    words: TfidfTerms
    chars: TfidfTerms
    linear: LogisticModel

    @property
    def classes(self) -> tuple[str, ...]:
        return self.linear.classes

    def row(self, goal: str) -> SparseRow:
        words, chars = self.words.row(goal), self.chars.row(goal)
        cues = np.array(cue_vector(goal), dtype=np.float64) * CUE_WEIGHT
        set_cues = np.flatnonzero(cues)  # a dense block joins the sparse ones without its zeros
        return SparseRow.joined([
            (SparseRow(words.columns, words.values * WORD_WEIGHT), 0),
            (SparseRow(chars.columns, chars.values * CHAR_WEIGHT), self.words.width),
            (SparseRow(set_cues.astype(np.int64), cues[set_cues]), self.words.width + self.chars.width),
        ])

    def probabilities(self, goals: list[str]) -> np.ndarray:
        return self.linear.probabilities([self.row(goal) for goal in goals])

    def arrays(self) -> dict[str, np.ndarray]:
        return {**self.words.arrays("words"), **self.chars.arrays("chars"), **self.linear.arrays("linear")}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> "ModeModel":
        return cls(words=TfidfTerms.from_arrays(arrays, "words"), chars=TfidfTerms.from_arrays(arrays, "chars"),
                   linear=LogisticModel.from_arrays(arrays, "linear"))


def fingerprint() -> str:
    """Changes whenever the labelled goals, the model's code or the library versions change."""
    digest = hashlib.sha256(
        f"{FORMAT_VERSION}|{metadata.version('scikit-learn')}|{np.__version__}".encode())
    package = resources.files("core.research")
    for name in _CODE:
        digest.update(package.joinpath(name).read_bytes())
    digest.update(package.joinpath("data", TRAINING_DATA).read_bytes())
    return digest.hexdigest()[:16]


def artefact_path() -> Path:
    return Path(str(resources.files("core.research").joinpath("data", ARTEFACT)))


def save_artefact(model: ModeModel, path: Path | None = None) -> Path:
    return write_archive(path or artefact_path(), {**model.arrays(), "fingerprint": np.array(fingerprint())})


def load_shipped(expected: str | None = None) -> ModeModel | None:
    """The shipped model if its fingerprint matches the code and data we run with, else None."""
    return load_current(artefact_path(), expected or fingerprint(), ModeModel.from_arrays,
                        name="research mode model", refresh="python -m core.research.mode_fitting")


_lock = threading.Lock()
_cached: ModeModel | None = None


def mode_model() -> ModeModel:
    """The model for this process: the shipped artefact when current, else fitted now (once)."""
    global _cached
    with _lock:
        if _cached is None:
            from core.research.mode_fitting import fit_mode_model

            _cached = load_shipped() or fit_mode_model()
        return _cached
