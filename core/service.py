"""The one object adapters talk to: messages, button clicks, research commands.

Adapters (Slack, Discord, shell, test) translate platform payloads into these calls and render
the ``Reply`` they get back. Everything here is platform-free.

De-duplication lives here and nowhere else. A delivery the platform repeats (a Slack retry, the
twin ``app_mention`` / ``message`` events of one mention, a Discord gateway replay) carries the
same ``delivery_id`` and is answered once. A suggestion clicked twice by the same person within
``REPEAT_WINDOW`` seconds (a double click: two deliveries, two ids) is answered once too.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Protocol

from core.coordinator import Coordinator
from core.models import (
    ActionClick,
    ActionKind,
    ConversationKey,
    IncomingMessage,
    ProgressSink,
    Reply,
    null_sink,
)
from core.store.base import EventDeduper
from core.store.memory import MemoryEventDeduper
from core.usage import workspace_scope

log = logging.getLogger("omg.service")

DELIVERY_TTL = 3600.0  # Slack retries within minutes, Discord replays after a RESUME
REPEAT_WINDOW = 5.0  # seconds within which the same person's same suggestion is one click
CHOICES = (ActionKind.SUGGESTION, ActionKind.OPTION)


class ResearchHandler(Protocol):
    """What the research orchestrator offers adapters (``core.research.ResearchService``)."""

    async def start(
        self, goal: str, *, key: ConversationKey, requester: str, mode: str | None,
        progress: ProgressSink,
    ) -> Reply: ...

    async def decide(self, click: ActionClick, progress: ProgressSink) -> Reply: ...

    async def take_feedback(self, incoming: IncomingMessage, progress: ProgressSink) -> Reply | None:
        """After a Revise click, the requester's next message in that conversation is the plan
        feedback; every other message: None."""
        ...


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
        if not await self._first_delivery("msg", incoming.key, incoming.delivery_id):
            return _duplicate(conversation_id)
        if self.research is not None:
            with workspace_scope(incoming.key.team):  # research LLM calls count against its budget
                feedback_reply = await self.research.take_feedback(incoming, progress)
            if feedback_reply is not None:
                return feedback_reply
        return await self.coordinator.handle(incoming, progress)

    async def handle_action(self, click: ActionClick, progress: ProgressSink = null_sink) -> Reply:
        conversation_id = click.conversation_id or click.key.conversation_id
        if not await self._first_delivery("act", click.key, click.delivery_id):
            return _duplicate(conversation_id)
        if click.kind in CHOICES:
            if not await self._first_choice(click, conversation_id):
                return _duplicate(conversation_id)
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
            return _research_disabled(conversation_id)
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
        delivery_id: str | None = None,
    ) -> Reply:
        if not await self._first_delivery("research", key, delivery_id):
            return _duplicate(key.conversation_id)
        if self.research is None:
            return _research_disabled(key.conversation_id)
        with workspace_scope(key.team):
            return await self.research.start(
                goal, key=key, requester=requester, mode=mode, progress=progress
            )

    async def _first_delivery(self, kind: str, key: ConversationKey, delivery_id: str | None) -> bool:
        if not delivery_id:
            return True
        return await self.deduper.first_time(f"{kind}:{key.platform}:{delivery_id}", DELIVERY_TTL)

    async def _first_choice(self, click: ActionClick, conversation_id: str) -> bool:
        value = hashlib.sha256(click.value.encode("utf-8")).hexdigest()[:16]
        first = await self.deduper.first_time(
            f"choice:{conversation_id}:{click.user}:{value}", REPEAT_WINDOW
        )
        if not first:
            log.info("repeated click dropped", extra={"conversation_id": conversation_id})
        return first


def _duplicate(conversation_id: str) -> Reply:
    return Reply(conversation_id=conversation_id, markdown="", duplicate=True)


def _research_disabled(conversation_id: str) -> Reply:
    return Reply(
        conversation_id=conversation_id,
        markdown="Research isn't enabled on this bot.",
        error="research_disabled",
    )
