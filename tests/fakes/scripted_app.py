"""A ``BotApp`` around a scripted core, for the platform scenarios and their benchmarks.

The real ``BotService`` and ``Coordinator`` with in-memory stores; the classifier, the agents,
the synthesizer and the research handler are the caller's scripts (injected, no ``mock.patch``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.app import BotApp
from core.agents.base import Agent
from core.classifier.base import IntentClassifier
from core.config import CoreSettings
from core.coordinator import Coordinator
from core.models import Intent
from core.service import BotService, ResearchHandler
from core.store import MemoryConversationStore, MemoryEventDeduper
from core.synth.base import Synthesizer


def scripted_bot_app(
    *, classifier: IntentClassifier, agents: Mapping[Intent, Agent], synthesizer: Synthesizer,
    research: ResearchHandler,
) -> BotApp:
    settings = CoreSettings()
    store = MemoryConversationStore()
    deduper = MemoryEventDeduper()
    coordinator = Coordinator(store=store, classifier=classifier, agents=agents,
                              synthesizer=synthesizer, settings=settings)
    service = BotService(coordinator, deduper=deduper, research=research)
    return BotApp(env={}, settings=settings, service=service, store=store, deduper=deduper,
                  source=None)  # type: ignore[arg-type]
