"""``omg``: the command line. Each sub-command lives in its own module under bot/commands/."""

from __future__ import annotations

import argparse
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


def main(argv: Sequence[str] | None = None) -> int:
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
