"""The command that refits a shipped, fingerprinted model (``python -m core.classifier``,
``python -m core.research.mode_fitting``): ``--check`` only reports whether the shipped one is
current."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def refit_command(argv: list[str] | None, *, prog: str, description: str | None, model: str,
                  fingerprint: Callable[[], str], is_current: Callable[[str], bool],
                  refit: Callable[[], str]) -> int:
    """Parses ``argv``; with ``--check`` prints whether the shipped ``model`` matches the current
    fingerprint (exit 1 when not), otherwise runs ``refit`` and prints what it reports."""
    parser = argparse.ArgumentParser(prog=prog, description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped model is stale")
    args = parser.parse_args(argv)
    if args.check:
        current = fingerprint()
        fresh = is_current(current)
        print(f"shipped {model} {'is current' if fresh else 'is STALE or missing'} (fingerprint {current})")
        return 0 if fresh else 1
    print(refit())
    return 0
