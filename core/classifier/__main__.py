"""``python -m core.classifier``: retrain the local model and refresh the shipped artefact.

Run it after editing the utterance set (``data/train/*.jsonl``, ``data/slots.json``) or the
feature code; ``--check`` only reports whether the shipped artefact is current.
"""

from __future__ import annotations

import sys
import time

from core.classifier.training import fingerprint, load_shipped, save_artefact, train
from core.textmodel.refit import refit_command


def _retrain() -> str:
    started = time.perf_counter()
    trained = train()
    path = save_artefact(trained)
    return (f"trained on {trained.samples} samples in {time.perf_counter() - started:.1f} s; "
            f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB, fingerprint {trained.fingerprint})")


def main(argv: list[str] | None = None) -> int:
    return refit_command(argv, prog="python -m core.classifier", description=__doc__, model="model",
                         fingerprint=fingerprint, is_current=lambda current: load_shipped(current) is not None,
                         refit=_retrain)

if __name__ == "__main__":
    sys.exit(main())
