"""A timed coordinator turn over the fake GitHub, for the benchmarks of the GitHub-backed agents.

The classifier is scripted (it has its own benchmark): every message gets the benchmark's
``Classification``. The Auditor and the Comparator run on the given source; the search intent
runs ``search`` (an agent that must not be reached by default), chat and clarify must not be
reached.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from core.agents.auditor import Auditor
from core.agents.base import Agent, AgentContext, AgentResult
from core.agents.comparator import Comparator
from core.coordinator import Coordinator
from core.models import Classification, ConversationKey, IncomingMessage, Intent, Message, Reply
from core.sources.base import RepoSource
from core.store import MemoryConversationStore
from core.synth import DefaultSynthesizer
from tests.fakes.github import FakeGitHub


class FixedClassifier:
    def __init__(self, classification: Classification) -> None:
        self.classification = classification

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        return self.classification


class Unexpected:
    """An agent the benchmark never routes to."""

    name = "idle"

    async def run(self, ctx: AgentContext) -> AgentResult:
        raise AssertionError("unexpected intent")


def coordinator(
    source: RepoSource, classification: Classification, *, search: Agent | None = None
) -> Coordinator:
    return Coordinator(
        store=MemoryConversationStore(),
        classifier=FixedClassifier(classification),
        agents={Intent.SEARCH: search or Unexpected(), Intent.ANALYZE: Auditor(source),
                Intent.COMPARE: Comparator(source), Intent.CHAT: Unexpected(),
                Intent.CLARIFY: Unexpected()},
        synthesizer=DefaultSynthesizer(),
    )


async def timed_turn(gh: FakeGitHub, coordinator: Coordinator, text: str) -> tuple[float, int, Reply]:
    """(milliseconds, GitHub calls, reply) of one turn in a fresh conversation."""
    before = len(gh.calls)
    started = time.perf_counter()
    reply = await coordinator.handle(IncomingMessage(
        key=ConversationKey(platform="bench", channel="c", thread=str(time.perf_counter_ns())),
        text=text,
    ))
    return (time.perf_counter() - started) * 1000, len(gh.calls) - before, reply
