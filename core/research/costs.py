"""Research LLM cost, shown and accumulated like a coordinator turn's.

Research calls (analyzer, planner, the ANALYZE step's synthesis, the grounded web search) run
outside a coordinator turn. ``ResearchService`` opens a ``Bill`` (a ``core.usage.UsageMeter`` as
the current meter) around each entry point -- start, a button decision, plan feedback, a resumed
run -- points it at the session's conversation once the session is known, and ``charge`` then:

  * adds every usage record to ``Conversation.cost`` in the conversation store (keyed like the
    coordinator's: ``key.conversation_id``), and
  * puts the footer a normal turn gets on the reply: "LLM cost: $X this answer, $Y this thread",
    then any LLM notes, then the reply's own footer ("Research session <id>").

The daily budget is charged by ``LLMClient`` itself, per workspace (``workspace_scope``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from core.errors import is_expected
from core.models import ConversationKey, Reply
from core.store.base import ConversationStore
from core.usage import UsageMeter, current_meter

log = logging.getLogger("omg.research.costs")


@dataclass
class Bill:
    key: ConversationKey | None  # the conversation to charge (the session's, once known)
    meter: UsageMeter = field(default_factory=UsageMeter)


def cost_footer(meter: UsageMeter, thread_usd: float, footer: str | None) -> str | None:
    parts: list[str] = []
    if meter.records:
        parts.append(f"LLM cost: ${meter.usd:.4f} this answer, ${thread_usd:.4f} this thread")
    parts += [note.rstrip(".") for note in meter.notes]
    if footer:
        parts.append(footer)
    return " · ".join(parts) if parts else None


class ResearchCosts:
    def __init__(self, conversations: ConversationStore | None = None) -> None:
        self.conversations = conversations

    @contextmanager
    def bill(self, key: ConversationKey | None) -> Iterator[Bill]:
        """Meter the LLM use of the block (and of the tasks it starts) into a new ``Bill``."""
        bill = Bill(key)
        token = current_meter.set(bill.meter)
        try:
            yield bill
        finally:
            current_meter.reset(token)

    async def charge(self, bill: Bill, reply: Reply) -> Reply:
        """Add the bill to its conversation's cost and put the cost footer on ``reply``."""
        meter = bill.meter
        if not meter.records and not meter.notes:
            return reply
        thread_usd = await self._record(bill) if meter.records else 0.0
        return reply.model_copy(update={"footer": cost_footer(meter, thread_usd, reply.footer)})

    async def _record(self, bill: Bill) -> float:
        """The conversation's total after this bill (just the bill when it cannot be stored)."""
        if self.conversations is None or bill.key is None:
            return bill.meter.usd
        key = bill.key
        try:
            conversation = await self.conversations.get_or_create(key.conversation_id, key)
            for record in bill.meter.records:
                conversation.cost.add(record.input_tokens, record.output_tokens, record.usd)
            await self.conversations.save(conversation)
        except Exception as exc:  # the edge of the bookkeeping: the answer matters more
            log.warning("could not add research LLM cost to the conversation",
                        extra={"conversation_id": key.conversation_id, "error": repr(exc)},
                        exc_info=not is_expected(exc))
            return bill.meter.usd
        return conversation.cost.usd
