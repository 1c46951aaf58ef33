"""The one object adapters talk to: messages, button clicks, research commands.

Adapters (Slack, Discord, shell, test) translate platform payloads into these calls and render
the ``Reply`` they get back. Everything here is platform-free.
"""

from __future__ import annotations

import logging
from typing import Protocol

from core.coordinator import Coordinator, IncomingMessage
from core.models import ActionKind, ConversationKey, ProgressSink, Reply, WireModel, null_sink
from core.store.base import EventDeduper
from core.store.memory import MemoryEventDeduper
from core.usage import workspace_scope

log = logging.getLogger("omg.service")

DUPLICATE = "duplicate"


class ActionClick(WireModel):
    """A button press, as every adapter reports it."""

    key: ConversationKey
    kind: ActionKind
    value: str
    user: str
    event_id: str | None = None  # the platform's id for this delivery, for de-duplication
    conversation_id: str | None = None


class ResearchHandler(Protocol):
    """What the research orchestrator offers adapters (see core.research)."""

    async def start(
        self, goal: str, *, key: ConversationKey, requester: str, mode: str | None,
        progress: ProgressSink,
    ) -> Reply: ...

    async def decide(self, click: ActionClick, progress: ProgressSink) -> Reply: ...


class BotService:
    def __init__(
        self,
        coordinator: Coordinator,
        *,
        deduper: EventDeduper | None = None,
        research: ResearchHandler | None = None,
    ) -> None:
        self.coordinator = coordinator
        self.deduper = deduper or MemoryEventDeduper()
        self.research = research

    async def handle_message(
        self, incoming: IncomingMessage, progress: ProgressSink = null_sink
    ) -> Reply:
        conversation_id = incoming.conversation_id or incoming.key.conversation_id
        if incoming.event_id and not await self.deduper.first_time(f"msg:{incoming.event_id}"):
            return Reply(conversation_id=conversation_id, markdown="", duplicate=True)
        feedback_reply = await self._research_feedback(incoming, progress)
        if feedback_reply is not None:
            return feedback_reply
        return await self.coordinator.handle(incoming, progress)

    async def _research_feedback(
        self, incoming: IncomingMessage, progress: ProgressSink
    ) -> Reply | None:
        """After a Revise click, the requester's next message in that conversation is the plan
        feedback (core.research ``take_feedback``); every other message returns None here."""
        take = getattr(self.research, "take_feedback", None)
        with workspace_scope(incoming.key.team):  # research LLM calls count against its budget
            return await take(incoming, progress) if take is not None else None

    async def handle_action(self, click: ActionClick, progress: ProgressSink = null_sink) -> Reply:
        conversation_id = click.conversation_id or click.key.conversation_id
        if click.event_id and not await self.deduper.first_time(f"act:{click.event_id}"):
            return Reply(conversation_id=conversation_id, markdown="", duplicate=True)
        if click.kind in (ActionKind.SUGGESTION, ActionKind.OPTION):
            incoming = IncomingMessage(
                key=click.key, text=click.value, author=click.user, conversation_id=conversation_id
            )
            return await self.coordinator.handle(incoming, progress)
        if click.kind is ActionKind.FEEDBACK:
            log.info(
                "feedback",
                extra={"conversation_id": conversation_id, "user": click.user, "value": click.value},
            )
            return Reply(conversation_id=conversation_id, markdown="Thanks for the feedback!")
        if self.research is None:
            return Reply(
                conversation_id=conversation_id,
                markdown="Research isn't enabled on this bot.",
                error="research_disabled",
            )
        with workspace_scope(click.key.team):
            return await self.research.decide(click, progress)

    async def start_research(
        self,
        goal: str,
        *,
        key: ConversationKey,
        requester: str,
        mode: str | None = None,
        progress: ProgressSink = null_sink,
    ) -> Reply:
        if self.research is None:
            return Reply(
                conversation_id=key.conversation_id,
                markdown="Research isn't enabled on this bot.",
                error="research_disabled",
            )
        with workspace_scope(key.team):
            return await self.research.start(
                goal, key=key, requester=requester, mode=mode, progress=progress
            )
