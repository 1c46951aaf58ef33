"""Per-turn LLM usage accounting.

The coordinator opens a ``UsageMeter`` for each turn (a context variable), LLM providers call
``record_usage`` after each response with the real token counts and the priced cost, and the
coordinator adds the turn's total to the conversation's accumulated cost.

``current_workspace`` (a Slack workspace / Discord guild id, set by the coordinator from
``ConversationKey.team``) is what the LLM daily budget is kept per. ``add_note`` lets a component
say something the user should see in the reply's footer ("LLM budget spent, answering locally").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from core.metrics import metrics


@dataclass(slots=True)
class UsageRecord:
    provider: str
    model: str
    task: str
    input_tokens: int
    output_tokens: int
    usd: float


@dataclass(slots=True)
class UsageMeter:
    records: list[UsageRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def input_tokens(self) -> int:
        return sum(r.input_tokens for r in self.records)

    @property
    def output_tokens(self) -> int:
        return sum(r.output_tokens for r in self.records)

    @property
    def usd(self) -> float:
        return sum(r.usd for r in self.records)


current_meter: ContextVar[UsageMeter | None] = ContextVar("omg_usage_meter", default=None)
current_workspace: ContextVar[str | None] = ContextVar("omg_workspace", default=None)


def record_usage(record: UsageRecord) -> None:
    metrics().llm_call(provider=record.provider, input_tokens=record.input_tokens,
                       output_tokens=record.output_tokens, usd=record.usd)
    meter = current_meter.get()
    if meter is not None:
        meter.records.append(record)


def add_note(note: str) -> None:
    """A sentence for this turn's footer (each distinct note once)."""
    meter = current_meter.get()
    if meter is not None and note not in meter.notes:
        meter.notes.append(note)


@contextmanager
def workspace_scope(team: str | None) -> Iterator[None]:
    """Run a block (and the tasks it starts) on behalf of workspace ``team``."""
    token = current_workspace.set(team)
    try:
        yield
    finally:
        current_workspace.reset(token)
