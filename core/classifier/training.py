"""Train the local model, and load the shipped artefact only when it provably matches.

The artefact (``data/model.pkl.gz``) is a pickle, which is fragile across scikit-learn
versions and stale after any change to the utterance set or the feature code. So it carries a
fingerprint of all of those; on any mismatch we retrain in memory (~1-2 s) instead of loading
it. Regenerate it with ``python -m core.classifier``. Only our own package file is unpickled.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import pickle
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy
import sklearn

from core.classifier.dataset import Sample, data_root, training_samples, training_vocabulary
from core.classifier.features import Featurizer, ModelInput
from core.classifier.mentions import MentionFinder
from core.classifier.model import IntentModel, ModelConfig
from core.classifier.names import shipped_name_index
from core.classifier.vocabulary import Vocabulary

log = logging.getLogger("omg.classifier")

ARTEFACT = "model.pkl.gz"
FORMAT_VERSION = 1
# Source files whose behaviour is baked into a trained model.
_CODE = ("context.py", "dataset.py", "features.py", "mentions.py", "model.py", "names.py", "patterns.py",
         "vocabulary.py")


@dataclass
class TrainedModel:
    model: IntentModel
    vocabulary: Vocabulary
    fingerprint: str
    samples: int


def fingerprint() -> str:
    """Changes whenever the data, the feature code or the library versions change."""
    digest = hashlib.sha256(f"{FORMAT_VERSION}|{sklearn.__version__}|{numpy.__version__}".encode())
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
    model = IntentModel(config).fit(featurize(samples, finder), [s.intent for s in samples])
    return TrainedModel(model=model, vocabulary=vocabulary, fingerprint=fingerprint(), samples=len(samples))


def artefact_path() -> Path:
    return Path(str(data_root().joinpath(ARTEFACT)))


def load_shipped(expected: str | None = None) -> TrainedModel | None:
    """The shipped model if its fingerprint matches the code and data we run with, else None."""
    path = artefact_path()
    if not path.is_file():
        return None
    try:
        with gzip.open(path, "rb") as fh:
            header = pickle.load(fh)
            if header != (expected or fingerprint()):
                log.warning("shipped classifier model is stale; retraining in memory "
                            "(run `python -m core.classifier` to refresh it)")
                return None
            trained = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError,
            TypeError, LookupError) as exc:
        # corrupt, truncated or incompatible pickle (a class moved or renamed): retrain
        log.warning("could not load the shipped classifier model (%s); retraining", type(exc).__name__)
        return None
    return trained if isinstance(trained, TrainedModel) else None


def save_artefact(trained: TrainedModel, path: Path | None = None) -> Path:
    path = path or artefact_path()
    tmp = path.with_suffix(".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as fh:
        pickle.dump(trained.fingerprint, fh, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.dump(trained, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)
    return path


_cached: TrainedModel | None = None


def load_or_train() -> TrainedModel:
    """The model for this process: the shipped artefact when valid, else trained now (once)."""
    global _cached
    if _cached is None:
        _cached = load_shipped() or train()
    return _cached
