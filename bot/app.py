"""The composition root: reads settings, builds every component, injects dependencies.

Nothing else in the project constructs long-lived components; tests build a ``BotApp`` with
``build_app(env=..., **overrides)`` and swap any piece (store, source, classifier, LLM).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.base import Ports
from bot.metrics import start_metrics
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
from core.research.web_search import WebSearch, build_web_search
from core.llm.client import LLMClient
from core.llm_components import LLMComponents, build_llm_components
from core.models import Intent
from core.research import ResearchService, ResearchSettings, build_research_service
from core.research.takeover import Takeover
from core.service import BotService
from core.sources.base import RepoSource
from core.store import FileConversationStore, MemoryConversationStore
from core.store.base import ConversationStore, EventDeduper
from core.store.buckets import EditBucket
from core.store.wiring import SharedState, open_shared_state
from core.synth import DefaultSynthesizer


@dataclass
class BotApp:
    env: dict[str, str]
    settings: CoreSettings
    service: BotService
    store: ConversationStore
    deduper: EventDeduper
    source: RepoSource
    closers: list[Any] = field(default_factory=list)
    research: ResearchService | None = None
    llm: LLMComponents | None = None
    shared: SharedState | None = None  # files by default, Redis when REDIS_URL is set
    takeover: Takeover | None = None  # heartbeat + finishing runs a dead instance left
    edit_bucket: EditBucket | None = None  # shared edit pacing across instances (Redis)

    @property
    def ports(self) -> Ports:
        """What a platform backend gets (never the whole app)."""
        return Ports(service=self.service, store=self.store, deduper=self.deduper, env=self.env,
                     edit_bucket=self.edit_bucket,
                     source_label=self.source.info.label if self.source is not None else "",
                     data_dir=self.settings.data_dir)

    async def resume_research(self) -> list[str]:
        """Continue research runs a restart interrupted (call once backends can post replies;
        a backend sets ``research.notifier`` to deliver their reports into the conversation)."""
        if self.takeover is not None:  # servers also finish runs other instances left behind
            await self.takeover.start(sweep=True)
        return await self.research.resume_incomplete() if self.research is not None else []

    async def checkpoint(self, grace: float) -> int:
        """Shutdown: give research runs this instance took over ``grace`` seconds, then stop
        them at a checkpoint (their lease is released: another instance continues at once)."""
        return await self.takeover.drain(grace) if self.takeover is not None else 0

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
    research_llm: LLMClient | None = None,
    research_web: WebSearch | None = None,
) -> BotApp:
    """Build the bot from ``env`` (default: the process environment over ``.env``).

    ``memory=True`` keeps conversations in memory instead of files under ``OMG_DATA_DIR``.
    """
    env = dict(env) if env is not None else load_environment()
    settings = CoreSettings.from_env(env)
    catalog = Catalog.load()
    shared = await open_shared_state(  # REDIS_URL -> Redis for everything instances share
        env, max_messages=settings.max_messages_per_conversation,
        conversation_ttl=settings.conversation_ttl_seconds,
    )
    store = store if store is not None else shared.conversations
    if store is None:
        store = (
            MemoryConversationStore(
                ttl_seconds=settings.conversation_ttl_seconds,
                max_conversations=settings.max_conversations_in_memory,
                max_messages=settings.max_messages_per_conversation,
            )
            if memory
            else FileConversationStore(settings.data_dir,
                                       max_messages=settings.max_messages_per_conversation)
        )
    deduper = deduper or shared.deduper
    source_closers: list[Any] = []
    metrics_endpoint = start_metrics(env)  # OMG_METRICS_PORT: Prometheus /metrics
    if metrics_endpoint is not None:
        source_closers.append(metrics_endpoint.aclose)
    if source is None:
        source = await _repo_source(env, catalog, source_closers, shared.redis)
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
    research_settings = ResearchSettings.from_env(env)
    if research_web is None:  # Gemini grounded on Google Search, when configured
        grounded = build_web_search(llm.services, mode=research_settings.web_search,
                                    timeout=research_settings.web_timeout_seconds, env=env)
        if grounded is not None:
            closers.append(grounded.aclose)
        research_web = grounded
    research = build_research_service(
        research_settings,
        source,
        llm=research_llm or llm.research,
        web=research_web,
        conversations=store,  # research LLM cost joins the thread's Conversation.cost
        store=shared.research,
    )
    takeover = Takeover(
        research, presence=shared.presence, locks=shared.locks,
        interval=shared.settings.sweep_seconds, heartbeat_seconds=shared.settings.heartbeat_seconds,
    )
    await takeover.start()  # the heartbeat: other instances see this one is alive
    service = BotService(coordinator, deduper=deduper, research=research)
    app = BotApp(
        env=env,
        settings=settings,
        service=service,
        store=store,
        deduper=deduper,
        source=source,
        research=research,
        llm=llm,
        shared=shared,
        takeover=takeover,
        edit_bucket=shared.edit_bucket,
        closers=[shared.aclose, *source_closers, *closers, llm.aclose, research.aclose, takeover.aclose],
    )
    return app


async def _repo_source(
    env: Mapping[str, str], catalog: Catalog, closers: list[Any], redis: Any = None
) -> RepoSource:
    """Live GitHub, with the offline catalog when it is unreachable; OMG_GITHUB=offline: catalog.
    With Redis (``REDIS_URL``), GitHub responses are shared by every instance.

    A background probe checks GitHub at start-up (waited for briefly), so an offline machine
    answers from the snapshot -- and says so -- from the very first turn.
    """
    import asyncio

    from core.github import FallbackSource, build_source

    source = build_source(env, catalog.source(), redis=redis)
    closers.append(source.aclose)
    if isinstance(source, FallbackSource):
        await asyncio.wait({source.start_probe()}, timeout=1.5)
    return source



async def open_app(*, log_to_file: bool = False, **overrides: Any) -> BotApp:
    """The app as commands start it: environment over .env, JSON logging set up *first* (so
    start-up messages such as "GitHub unreachable" are structured and redacted), then build.

    ``log_to_file``: the interactive shell keeps the terminal for the conversation and writes
    its log to ``<OMG_DATA_DIR>/omg.log`` instead of stderr.
    """
    from core.logs import configure_logging

    env = load_environment()
    settings = CoreSettings.from_env(env)
    stream = None
    if log_to_file:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        stream = open(settings.data_dir / "omg.log", "a", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    configure_logging(settings.log_level, env=env, stream=stream)
    return await build_app(env, **overrides)
