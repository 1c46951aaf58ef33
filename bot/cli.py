"""``omg``: the command line. Each sub-command lives in its own module under bot/commands/."""

from __future__ import annotations

import argparse
import ctypes
import importlib
import sys
from collections.abc import Sequence

# Each module defines ``register(subparsers)`` and sets ``func`` (args -> exit code).
COMMAND_MODULES: tuple[str, ...] = (
    "bot.commands.run",
    "bot.commands.shell",
    "bot.commands.ask",
    "bot.commands.stats",
    "bot.commands.plan",
    "bot.commands.research",
    "bot.commands.classify",
    "bot.commands.health",
    "bot.commands.discord_sync",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="omg",
        description="oh-my-github: discover, analyze and compare GitHub repositories from chat.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD_BYTES = 128 * 1024  # glibc's initial threshold


def return_freed_memory() -> None:
    """Keeps glibc serving every allocation over 128 KiB from a mapping of its own, given back to
    the system when freed. By default the threshold rises to the largest block freed so far, so
    once the catalog's and the model's loading buffers (megabytes each) are freed, blocks that size
    come from the heap and stay resident after they are freed: ~7 MiB of the bot's peak. Nothing
    happens where the C library has no ``mallopt``."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)


def main(argv: Sequence[str] | None = None) -> int:
    return_freed_memory()
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        args = parser.parse_args(["run", *(argv or [])])
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
