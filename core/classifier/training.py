"""Train the local model, and load the shipped artefact only when it provably matches.

The artefact (``data/model.npz``) holds the fitted model as plain arrays (vocabularies, idf,
coefficients; read without pickle and computed with numpy, ``core.classifier.model``) and a
fingerprint of the utterance set, the feature code and the scikit-learn and numpy versions; on
any mismatch we retrain in memory (~1-2 s, with scikit-learn) instead of loading it. Regenerate
it with ``python -m core.classifier``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

import numpy as np

from core.classifier.dataset import Sample, data_root, training_samples, training_vocabulary
from core.classifier.features import Featurizer, ModelInput
from core.classifier.fitting import ModelConfig, fit_intent_model
from core.classifier.mentions import MentionFinder
from core.classifier.model import IntentModel
from core.classifier.names import shipped_name_index
from core.classifier.vocabulary import Vocabulary
from core.textmodel import load_current, write_archive

ARTEFACT = "model.npz"
FORMAT_VERSION = 2
# Source files whose behaviour is baked into a trained model.
_CODE = ("context.py", "dataset.py", "features.py", "fitting.py", "mentions.py", "model.py", "names.py",
         "patterns.py", "stop_words.py", "vocabulary.py")


@dataclass
class TrainedModel:
    model: IntentModel
    vocabulary: Vocabulary
    fingerprint: str
    samples: int


def fingerprint() -> str:
    """Changes whenever the data, the feature code or the library versions change."""
    versions = f"{metadata.version('scikit-learn')}|{np.__version__}"
    digest = hashlib.sha256(f"{FORMAT_VERSION}|{versions}".encode())
    package = resources.files("core.classifier")
    for name in _CODE:
        digest.update(package.joinpath(name).read_bytes())
    root = data_root()
    data_files = [root.joinpath(n) for n in ("slots.json", "repo_names.txt", "extra_repos.txt", "common_words.txt")]
    data_files += sorted(root.joinpath("train").iterdir(), key=lambda p: p.name)
    for path in data_files:
        if path.name.endswith((".jsonl", ".json", ".txt")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def featurize(samples: tuple[Sample, ...] | list[Sample], finder: MentionFinder) -> list[ModelInput]:
    featurizer = Featurizer(finder)
    return [featurizer.prepare(s.text, s.history).input for s in samples]


def train(samples: tuple[Sample, ...] | None = None, config: ModelConfig | None = None) -> TrainedModel:
    samples = samples if samples is not None else training_samples()
    vocabulary = training_vocabulary(training_samples())
    finder = MentionFinder(vocabulary, shipped_name_index())
    model = fit_intent_model(featurize(samples, finder), [s.intent for s in samples], config)
    return TrainedModel(model=model, vocabulary=vocabulary, fingerprint=fingerprint(), samples=len(samples))


def artefact_path() -> Path:
    return Path(str(data_root().joinpath(ARTEFACT)))


def _arrays(trained: TrainedModel) -> dict[str, np.ndarray]:
    return {
        **trained.model.arrays(),
        "vocabulary.common": np.array(sorted(trained.vocabulary.common), dtype=str),
        "vocabulary.platforms": np.array(sorted(trained.vocabulary.platforms), dtype=str),
        "fingerprint": np.array(trained.fingerprint),
        "samples": np.array(trained.samples, dtype=np.int64),
    }


def stored_fingerprint(path: Path | None = None) -> str | None:
    """The fingerprint an artefact was written with (None: missing or unreadable)."""
    try:
        with np.load(path or artefact_path(), allow_pickle=False) as stored:
            return str(stored["fingerprint"])
    except (OSError, KeyError, ValueError):
        return None


def load_shipped(expected: str | None = None) -> TrainedModel | None:
    """The shipped model if its fingerprint matches the code and data we run with, else None."""
    return load_current(artefact_path(), expected or fingerprint(), _trained,
                        name="classifier model", refresh="python -m core.classifier")


def _trained(arrays: dict[str, np.ndarray]) -> TrainedModel:
    vocabulary = Vocabulary(common=frozenset(arrays["vocabulary.common"].tolist()),
                            platforms=frozenset(arrays["vocabulary.platforms"].tolist()))
    return TrainedModel(model=IntentModel.from_arrays(arrays), vocabulary=vocabulary,
                        fingerprint=str(arrays["fingerprint"]), samples=int(arrays["samples"]))


def save_artefact(trained: TrainedModel, path: Path | None = None) -> Path:
    return write_archive(path or artefact_path(), _arrays(trained))


_cached: TrainedModel | None = None


def load_or_train() -> TrainedModel:
    """The model for this process: the shipped artefact when valid, else trained now (once)."""
    global _cached
    if _cached is None:
        _cached = load_shipped() or train()
    return _cached
