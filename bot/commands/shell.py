"""``omg shell``: chat with the bot in the terminal (scriptable: one message per stdin line)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.app import open_app
from bot.shell import ShellBackend


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("shell", help="chat in the terminal")
    parser.add_argument("--conversation", default="default",
                        help="conversation name to continue (default: 'default')")
    parser.set_defaults(func=lambda args: asyncio.run(_shell(args.conversation)))


async def _shell(conversation: str) -> int:
    app = await open_app(log_to_file=sys.stdin.isatty())
    try:
        await ShellBackend(app.ports, conversation=conversation).serve()
    finally:
        await app.aclose()
    return 0
