"""The composition root: reads settings, builds every component, injects dependencies.

Nothing else in the project constructs long-lived components; tests build a ``BotApp`` with
``build_app(env=..., **overrides)`` and swap any piece (store, source, classifier, LLM).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.agents.auditor import Auditor
from core.agents.clarifier import Clarifier
from core.agents.companion import Companion
from core.agents.comparator import Comparator
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.classifier import build_classifier
from core.classifier.base import IntentClassifier
from core.config import CoreSettings, load_environment
from core.coordinator import Coordinator
from core.llm.wiring import LLMComponents, build_llm_components
from core.models import Intent
from core.research import ResearchService, ResearchSettings, build_research_service
from core.research.llm import StructuredLLM
from core.service import BotService
from core.sources.base import RepoSource
from core.store import FileConversationStore, MemoryConversationStore, MemoryEventDeduper
from core.store.base import ConversationStore, EventDeduper
from core.synth import DefaultSynthesizer


@dataclass
class BotApp:
    env: dict[str, str]
    settings: CoreSettings
    service: BotService
    store: ConversationStore
    deduper: EventDeduper
    source: RepoSource
    catalog: Catalog
    classifier: IntentClassifier
    closers: list[Any] = field(default_factory=list)
    research: ResearchService | None = None
    llm: LLMComponents | None = None

    @property
    def coordinator(self) -> Coordinator:
        return self.service.coordinator

    async def resume_research(self) -> list[str]:
        """Continue research runs a restart interrupted (call once backends can post replies;
        a backend sets ``research.notifier`` to deliver their reports into the conversation)."""
        return await self.research.resume_incomplete() if self.research is not None else []

    async def aclose(self) -> None:
        for closer in reversed(self.closers):
            await closer()
        await self.store.close()


async def build_app(
    env: Mapping[str, str] | None = None,
    *,
    store: ConversationStore | None = None,
    deduper: EventDeduper | None = None,
    source: RepoSource | None = None,
    classifier: IntentClassifier | None = None,
    memory: bool = False,
    research_llm: StructuredLLM | None = None,
) -> BotApp:
    """Build the bot from ``env`` (default: the process environment over ``.env``).

    ``memory=True`` keeps conversations in memory instead of files under ``OMG_DATA_DIR``.
    """
    env = dict(env) if env is not None else load_environment()
    settings = CoreSettings.from_env(env)
    catalog = Catalog.load()
    if store is None:
        store = (
            MemoryConversationStore(
                ttl_seconds=settings.conversation_ttl_seconds,
                max_conversations=settings.max_conversations_in_memory,
            )
            if memory
            else FileConversationStore(settings.data_dir)
        )
    deduper = deduper or MemoryEventDeduper()
    source_closers: list[Any] = []
    if source is None:
        source = await _repo_source(env, catalog, source_closers)
    llm = build_llm_components(env, settings)  # every part None without a provider: local paths
    classifier = classifier or llm.cascade(build_classifier(settings, catalog.names))
    agents = {
        Intent.SEARCH: SearchTeam(source, llm.translator, text_scorer=llm.text_scorer,
                                  budget_seconds=settings.agent_timeout_seconds),
        Intent.ANALYZE: Auditor(source, compressor=llm.compressor, narrator=llm.narrator,
                                text_scorer=llm.text_scorer),
        Intent.COMPARE: Comparator(source, text_scorer=llm.text_scorer),
        Intent.CHAT: Companion(),
        Intent.CLARIFY: Clarifier(),
    }
    coordinator = Coordinator(
        store=store,
        classifier=classifier,
        agents=agents,
        synthesizer=DefaultSynthesizer(),
        settings=settings,
    )
    closers: list[Any] = []
    research = build_research_service(
        ResearchSettings.from_env(env),
        source,
        llm=research_llm or llm.research,
    )
    service = BotService(coordinator, deduper=deduper, research=research)
    app = BotApp(
        env=env,
        settings=settings,
        service=service,
        store=store,
        deduper=deduper,
        source=source,
        catalog=catalog,
        classifier=classifier,
        research=research,
        llm=llm,
        closers=[*source_closers, *closers, llm.aclose, research.aclose],
    )
    return app


async def _repo_source(env: Mapping[str, str], catalog: Catalog, closers: list[Any]) -> RepoSource:
    """Live GitHub, with the offline catalog when it is unreachable; OMG_GITHUB=offline: catalog.

    A background probe checks GitHub at start-up (waited for briefly), so an offline machine
    answers from the snapshot -- and says so -- from the very first turn.
    """
    import asyncio

    from core.github import FallbackSource, build_source

    source = build_source(env, catalog.source())
    if isinstance(source, FallbackSource):
        await asyncio.wait({source.start_probe()}, timeout=1.5)
        closers.append(source.aclose)
    return source

