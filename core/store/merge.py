"""Merging a conversation into the stored copy, so concurrent saves lose nothing.

Two turns (two processes, or a chat turn and a research run) may each load a conversation, add
to it and save it. Every store saves ``merge(ours, stored)`` under its own exclusion (a Redis
WATCH/MULTI transaction, an OS file lock, the event loop for the memory store):

  * messages: the union, identified by role, time, author and text, in time order, trimmed to
    the newest ``max_messages`` (so messages trimmed on purpose stay trimmed);
  * cost: the stored totals plus what *this* copy added since it was loaded or last saved
    (``mark_saved`` records that point), so each turn's cost is counted exactly once.
"""

from __future__ import annotations

from core.models import Conversation, Message
from core.models.conversation import CostTotals


def _identity(message: Message) -> tuple[str, str, str | None, str]:
    return (message.role, message.created_at.isoformat(), message.author, message.content)


def mark_saved(conversation: Conversation) -> Conversation:
    """Remember the cost ``conversation`` holds now as already stored (after a load or a save)."""
    conversation.saved_cost = conversation.cost.model_copy()
    return conversation


def _added_since_saved(conversation: Conversation) -> CostTotals:
    base = conversation.saved_cost or CostTotals()
    now = conversation.cost
    return CostTotals(
        calls=now.calls - base.calls,
        input_tokens=now.input_tokens - base.input_tokens,
        output_tokens=now.output_tokens - base.output_tokens,
        usd=now.usd - base.usd,
    )


def merge(ours: Conversation, stored: Conversation | None, max_messages: int) -> Conversation:
    """What to store: ``stored`` with ``ours``'s new messages and new cost (see the module doc)."""
    if stored is None:
        return ours
    known = {_identity(m) for m in ours.messages}
    missing = [m for m in stored.messages if _identity(m) not in known]
    messages = sorted([*ours.messages, *missing], key=lambda m: m.created_at)[-max_messages:]
    added = _added_since_saved(ours)
    cost = CostTotals(
        calls=stored.cost.calls + added.calls,
        input_tokens=stored.cost.input_tokens + added.input_tokens,
        output_tokens=stored.cost.output_tokens + added.output_tokens,
        usd=stored.cost.usd + added.usd,
    )
    return ours.model_copy(update={
        "messages": messages,
        "cost": cost,
        "created_at": min(ours.created_at, stored.created_at),
        "updated_at": max(ours.updated_at, stored.updated_at),
    })


def saved(ours: Conversation, merged: Conversation) -> None:
    """After a save: ``ours`` now holds what was stored, and its cost counts as stored."""
    ours.messages = list(merged.messages)
    ours.cost = merged.cost.model_copy()
    mark_saved(ours)
