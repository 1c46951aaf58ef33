"""What the Slack and Discord renderers decide the same way, whatever each platform draws.

Plan decisions (the buttons a research plan awaiting review carries), whether a Markdown chunk
is the synthesizer's own listing of repositories that cards will replace, and star counts in
card-sized form.
"""

from __future__ import annotations

import re

from core.models import ActionKind, Reply

DECISIONS = (ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL)
_LIST_LINE = re.compile(r"^\s*(\d+[.)]|[-*+•])\s+")


def is_plan(reply: Reply) -> bool:
    """A research plan awaiting its requester's decision (no feedback buttons on it)."""
    return any(a.kind in DECISIONS for a in reply.actions)


def lists_repos(chunk: str, names: list[str]) -> bool:
    """The chunk is a list at least half of whose items name one of ``names`` (lower case)."""
    items = [line.lower() for line in chunk.splitlines() if _LIST_LINE.match(line)]
    hits = sum(1 for line in items if any(name in line for name in names))
    return bool(items) and hits * 2 >= len(items)


def compact(n: int) -> str:
    """45_300 -> '45.3k', 1_200_000 -> '1.2M', 842 -> '842'."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1_000:
        return f"{n / 1_000:.1f}k"
    return str(n)
