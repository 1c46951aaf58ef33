"""Wiring for the research orchestrator (bot/app.py, the CLI and tests call this)."""

from __future__ import annotations

from core.llm.client import LLMClient
from core.research.analyzer import LLMModeAnalyzer, LocalModeAnalyzer
from core.research.executor import Executor
from core.research.web_search import WebSearch
from core.research.llm_planner import LLMPlanner
from core.research.orchestrator import Orchestrator
from core.research.planner import LocalPlanner
from core.research.service import Notifier, ResearchService
from core.research.settings import ResearchSettings
from core.models import Repository, RepoSignals, SearchParams
from core.store.research import FileResearchStore, MemoryResearchStore, ResearchStore
from core.sources.base import RepoSource, SearchResults, SignalDepth, SourceInfo
from core.store.base import ConversationStore


def build_research_service(
    settings: ResearchSettings,
    source: RepoSource,
    *,
    store: ResearchStore | None = None,
    llm: LLMClient | None = None,
    web: WebSearch | None = None,
    notifier: Notifier | None = None,
    owner: str | None = None,
    conversations: ConversationStore | None = None,
) -> ResearchService:
    """Files under ``settings.data_dir/research`` unless ``store`` is given; LLM paths when ``llm`` is.

    ``conversations``: where research LLM cost is added to ``Conversation.cost`` (the app's store).
    """
    store = store if store is not None else FileResearchStore(settings.data_dir)
    local = LocalModeAnalyzer()
    analyzer = LLMModeAnalyzer(llm, local, timeout=settings.llm_timeout_seconds) if llm else local
    planner = (
        LLMPlanner(llm, LocalPlanner(), timeout=settings.llm_timeout_seconds) if llm else LocalPlanner()
    )
    executor = Executor(store, source, settings, web=web, llm=llm, owner=owner)
    orchestrator = Orchestrator(store, executor, settings, analyzer=analyzer, planner=planner)
    return ResearchService(orchestrator, notifier=notifier, conversations=conversations)


class _NoNetwork:
    """A planning-only orchestrator never executes steps; a source that refuses proves it."""

    info = SourceInfo(kind="catalog", label="none")

    async def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30) -> SearchResults:
        raise RuntimeError("this orchestrator only plans")

    async def get_repo(self, full_name: str) -> Repository:
        raise RuntimeError("this orchestrator only plans")

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        raise RuntimeError("this orchestrator only plans")

    async def get_readme(self, full_name: str) -> str | None:
        raise RuntimeError("this orchestrator only plans")

    def knows_word(self, word: str) -> bool | None:
        return None

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        return None

    async def ping(self) -> None:
        """Nothing to reach (no network at all)."""

    async def aclose(self) -> None:
        """Nothing to close."""


def offline_orchestrator(settings: ResearchSettings | None = None) -> Orchestrator:
    """Plans with the local analyzer and planner, in memory, with no network (``omg plan``)."""
    settings = settings or ResearchSettings()
    store = MemoryResearchStore()
    return Orchestrator(store, Executor(store, _NoNetwork(), settings), settings)
