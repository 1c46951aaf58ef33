"""The coordinator: message -> classify -> route to an agent -> synthesize -> reply.

Platform-free: adapters call ``Coordinator.handle`` with an ``IncomingMessage`` and render
the ``Reply``. One turn per conversation at a time (turns in one thread are serialized),
any number of conversations concurrently.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import unicodedata
import uuid
import weakref
from collections.abc import Mapping

from pydantic import Field

from core.agents.base import Agent, AgentContext, AgentResult
from core.classifier.base import IntentClassifier
from core.config import CoreSettings
from core.errors import ConversationDamaged, OmgError, log_failure
from core.metrics import metrics
from core.models import (
    Conversation,
    DoneEvent,
    ErrorEvent,
    IncomingMessage,
    Intent,
    LogEvent,
    Message,
    ProgressSink,
    RepoList,
    Reply,
    TextSection,
    WireModel,
    follow_up_actions,
    null_sink,
    to_markdown,
)
from core.store.base import ConversationStore
from core.synth.base import SynthesisContext, Synthesizer
from core.usage import UsageMeter, add_note, current_meter, current_workspace

log = logging.getLogger("omg.coordinator")

EMPTY_MESSAGE_REPLY = (
    "I didn't catch a question there. Try something like *find React state management "
    "libraries* or *what can you do?*"
)


class TurnStats(WireModel):
    classify_ms: float = 0.0
    agent_ms: float = 0.0
    synth_ms: float = 0.0
    total_ms: float = 0.0
    extra: dict[str, float] = Field(default_factory=dict)


_ANSI_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


def clean_text(text: str, max_chars: int) -> tuple[str, bool]:
    """Strip terminal escape sequences and control characters, bound the length;
    returns (text, was_truncated)."""
    text = _ANSI_ESCAPE.sub("", text)
    cleaned = "".join(
        ch if ch in "\n\t" or unicodedata.category(ch)[0] != "C" else " " for ch in text
    ).strip()
    if len(cleaned) > max_chars:
        return cleaned[:max_chars], True
    return cleaned, False


class Coordinator:
    def __init__(
        self,
        *,
        store: ConversationStore,
        classifier: IntentClassifier,
        agents: Mapping[Intent, Agent],
        synthesizer: Synthesizer,
        settings: CoreSettings | None = None,
    ) -> None:
        missing = set(Intent) - set(agents)
        if missing:
            raise ValueError(f"no agent for intents: {sorted(missing)}")
        self.store = store
        self.classifier = classifier
        self.agents = dict(agents)
        self.synthesizer = synthesizer
        self.settings = settings or CoreSettings()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, conversation_id: str) -> asyncio.Lock:
        lock = self._locks.get(conversation_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[conversation_id] = lock
        return lock

    async def handle(self, incoming: IncomingMessage, progress: ProgressSink = null_sink) -> Reply:
        conversation_id = incoming.conversation_id or incoming.key.conversation_id
        lock = self._lock(conversation_id)
        meter = UsageMeter()
        token = current_meter.set(meter)
        workspace_token = current_workspace.set(incoming.key.team)
        try:
            async with lock:
                return await self._turn(conversation_id, incoming, progress, meter)
        finally:
            current_workspace.reset(workspace_token)
            current_meter.reset(token)

    async def _turn(
        self,
        conversation_id: str,
        incoming: IncomingMessage,
        progress: ProgressSink,
        meter: UsageMeter,
    ) -> Reply:
        started = time.perf_counter()
        stats = TurnStats()
        text, truncated = clean_text(incoming.text, self.settings.max_message_chars)
        if not text:
            return Reply(conversation_id=conversation_id, markdown=EMPTY_MESSAGE_REPLY,
                         error="empty_message", suggestions=["What can you do?"])

        try:
            conversation = await self.store.get_or_create(conversation_id, incoming.key)
        except ConversationDamaged as exc:  # the store set the damaged copy aside and logged it
            add_note(exc.user_message)
            conversation = Conversation(id=conversation_id, key=incoming.key)
        history = conversation.recent(3)
        previous = conversation.last_structured()

        t0 = time.perf_counter()
        classification = await self.classifier.classify(text, history)
        stats.classify_ms = (time.perf_counter() - t0) * 1000
        log.info(
            "intent classified",
            extra={
                "conversation_id": conversation_id,
                "user_message": text[:500],
                "intent": classification.intent.value,
                "confidence": round(classification.confidence, 3),
                "original_intent": classification.original_intent,
                "reasoning": classification.reasoning,
                "repos": classification.repos,
                "latency_ms": round(stats.classify_ms, 2),
            },
        )

        agent = self.agents[classification.intent]
        ctx = AgentContext(
            message=text,
            classification=classification,
            conversation=conversation,
            previous=previous,
            progress=progress,
        )
        t0 = time.perf_counter()
        result = await self._run_agent(agent, ctx, conversation_id)
        stats.agent_ms = (time.perf_counter() - t0) * 1000

        t0 = time.perf_counter()
        synthesis = self.synthesizer.synthesize(
            result,
            SynthesisContext(
                intent=classification.intent,
                message=text,
                previous=previous,
                previous_query=_previous_query(previous),
            ),
        )
        stats.synth_ms = (time.perf_counter() - t0) * 1000

        document = synthesis.document
        if truncated:
            document = [TextSection(markdown=(
                f"_(Your message was long, so I read the first "
                f"{self.settings.max_message_chars:,} characters.)_"
            )), *document]
        markdown = to_markdown(document)
        limit = self.settings.max_messages_per_conversation
        conversation.append(
            Message(role="user", content=text, author=incoming.author, intent=classification.intent),
            max_messages=limit,
        )
        conversation.append(
            Message(role="assistant", content=markdown, structured_data=synthesis.data),
            max_messages=limit,
        )
        for record in meter.records:
            conversation.cost.add(record.input_tokens, record.output_tokens, record.usd)
        await self.store.save(conversation)

        stats.total_ms = (time.perf_counter() - started) * 1000
        metrics().turn(intent=classification.intent.value, platform=incoming.key.platform,
                       seconds=stats.total_ms / 1000, confidence=classification.confidence,
                       clarified=classification.intent == Intent.CLARIFY)
        if synthesis.error_code:
            metrics().error(synthesis.error_code)
        await progress(DoneEvent(stats=stats.model_dump()))
        return Reply(
            conversation_id=conversation_id,
            document=document,
            intent=classification.intent,
            confidence=classification.confidence,
            classification=classification,
            structured_data=synthesis.data,
            suggestions=synthesis.suggestions,
            actions=follow_up_actions(document, synthesis.suggestions),
            footer=_footer(meter, conversation.cost.usd),
            error=synthesis.error_code,
        )

    async def _run_agent(self, agent: Agent, ctx: AgentContext, conversation_id: str) -> AgentResult:
        try:
            return await asyncio.wait_for(agent.run(ctx), self.settings.agent_timeout_seconds)
        except TimeoutError:
            log.warning("agent timed out", extra={"agent": agent.name, "conversation_id": conversation_id})
            await ctx.progress(ErrorEvent(code="timeout", message="The search took too long."))
            return AgentResult(
                error="That took longer than I allow myself, so I stopped. Try a narrower question?",
                error_code="timeout",
            )
        except OmgError as exc:
            log.warning("agent error", extra={"agent": agent.name, "error": repr(exc)})
            await ctx.progress(ErrorEvent(code=exc.code, message=exc.user_message))
            return AgentResult(error=exc.user_message, error_code=exc.code)
        except Exception as exc:  # the edge of an agent's run: a bug becomes an "internal" answer
            log_failure(log, "agent crashed", exc, agent=agent.name, conversation_id=conversation_id)
            await ctx.progress(ErrorEvent(code="internal", message="internal error"))
            return AgentResult(
                error="Something went wrong on my side while working on that. Please try again.",
                error_code="internal",
            )


def _previous_query(previous: object) -> str | None:
    if isinstance(previous, RepoList) and previous.meta is not None:
        return previous.meta.query
    return None


def _footer(meter: UsageMeter, conversation_usd: float) -> str | None:
    """Cost of this answer and of the thread (the synthesizer already names the data source)."""
    parts: list[str] = []
    if meter.records:
        parts.append(f"LLM cost: ${meter.usd:.4f} this answer, ${conversation_usd:.4f} this thread")
    parts += [note.rstrip(".") for note in meter.notes]
    return " · ".join(parts) + "." if parts else None


def new_conversation_id() -> str:
    return f"cli:{uuid.uuid4().hex[:12]}"


__all__ = ["Coordinator", "LogEvent", "new_conversation_id", "clean_text"]
