"""``python -m core.classifier``: retrain the local model and refresh the shipped artefact.

Run it after editing the utterance set (``data/train/*.jsonl``, ``data/slots.json``) or the
feature code; ``--check`` only reports whether the shipped artefact is current.
"""

from __future__ import annotations

import argparse
import sys
import time

from core.classifier.training import artefact_path, fingerprint, load_shipped, save_artefact, train


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.classifier", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped model is stale")
    args = parser.parse_args(argv)
    current = fingerprint()
    if args.check:
        fresh = load_shipped(current) is not None
        print(f"shipped model {'is current' if fresh else 'is STALE or missing'} (fingerprint {current})")
        return 0 if fresh else 1
    started = time.perf_counter()
    trained = train()
    path = save_artefact(trained)
    print(f"trained on {trained.samples} samples in {time.perf_counter() - started:.1f} s; "
          f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB, fingerprint {trained.fingerprint})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
