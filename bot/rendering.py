"""What the Slack and Discord renderers decide the same way, whatever each platform draws.

Plan decisions (the buttons a research plan awaiting review carries) and star counts in
card-sized form.
"""

from __future__ import annotations

from core.models import ActionKind, Reply

DECISIONS = (ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL)


def is_plan(reply: Reply) -> bool:
    """A research plan awaiting its requester's decision (no feedback buttons on it)."""
    return any(a.kind in DECISIONS for a in reply.actions)


def compact(n: int) -> str:
    """45_300 -> '45.3k', 1_200_000 -> '1.2M', 842 -> '842'."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1_000:
        return f"{n / 1_000:.1f}k"
    return str(n)
