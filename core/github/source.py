"""``GitHubSource``: the live GitHub REST API behind the ``RepoSource`` contract.

``info.calls_per_hour`` is GitHub's core limit as last reported (``X-RateLimit-Limit``; None when
it answers without limits, as GitHub Enterprise may); before any answer (the start-up probe of
``/rate_limit`` is one, and free), 60 without a token -- the Screener then fetches no signals --
and unknown with one. ``search`` returns ``SearchResults`` whose ``incomplete`` is GitHub's
``incomplete_results`` (its search timed out and some matches may be missing).

With a token (and ``OMG_GITHUB_GRAPHQL`` not off), ``get_repo``, ``get_signals`` and
``get_readme`` are answered from batched GraphQL queries (``core.github.batch``): the signals and
READMEs of all the candidates of a search in one call, a whole analysis or comparison in one
(recent committers instead of REST's contributor count), and ``search`` from one aliased GraphQL query for all the searches of a round
(``core.github.graphql_search``; ``info.batched_search`` tells the Scout). Anonymous use is REST
only (GraphQL needs a token). When a GraphQL query fails as a whole, or one search in it, that
call is answered over REST.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from core.errors import SourceError
from core.github.batch import GraphQLBatcher
from core.github.graphql_call import GraphQLUnavailable
from core.github.client import RAW, GitHubClient
from core.github import graphql_read
from core.github.graphql_search import SearchBatcher, graphql_q
from core.github.convert import to_repository
from core.github.payloads import GhRepo, GhSearchRepos
from core.github.query import build_query
from core.github.signals import LIGHT_SIGNALS, MAX_LISTING_PAGES, SignalCollector
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import SearchResults, SignalDepth, SourceInfo

PING_TIMEOUT = 3.0
ANONYMOUS_CALLS_PER_HOUR = 60  # GitHub's core limit without a token
LIGHT_GRAPHQL_NOTE = ("Search results are scored on quick signals; recent committers, the community "
                      "profile, issue response times and issue and pull request flow are measured "
                      "when you analyze a repository.")
SEARCH_SORTS = {"stars": "stars", "updated": "updated", "forks": "forks"}  # others: best match


def _valid_name(full_name: str) -> str:
    clean = full_name.strip().strip("/")
    owner, _, name = clean.partition("/")
    if not owner or not name or "/" in name or any(c.isspace() for c in clean):
        raise SourceError(f"'{full_name}' isn't an owner/name pair (like pmndrs/zustand).")
    return clean


class GitHubSource:
    def __init__(
        self, client: GitHubClient, *, now: Callable[[], datetime] | None = None,
        max_listing_pages: int = MAX_LISTING_PAGES, light_signals: tuple[str, ...] = LIGHT_SIGNALS,
    ) -> None:
        self.client = client
        settings = client.settings
        self._ttl = settings.cache_ttl_seconds
        self._search_ttl = settings.search_cache_ttl_seconds
        self._signals = SignalCollector(client, ttl=self._ttl, now=now,
                                        max_listing_pages=max_listing_pages, light=light_signals)
        self._batch = (GraphQLBatcher(client, self._signals, ttl=self._ttl, now=now)
                       if settings.uses_graphql else None)
        self._searches = SearchBatcher(client, ttl=self._search_ttl) if settings.searches_graphql else None
        self._label = f"GitHub ({settings.host_label})"
        self._assumed_limit = ANONYMOUS_CALLS_PER_HOUR if settings.token is None else None

    @property
    def info(self) -> SourceInfo:
        known = self.client.knows_limit("core")
        return SourceInfo(kind="github", label=self._label,
                          calls_per_hour=self.client.limit("core") if known else self._assumed_limit,
                          batched_search=self._searches is not None)

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> SearchResults:
        q, first = build_query(params), max(1, min(limit, 100))
        text = graphql_q(q, sort) if self._searches is not None else None
        if self._searches is not None and text is not None:
            try:
                nodes = await self._searches.search(text, first)
            except GraphQLUnavailable:
                pass  # answered over REST below
            else:  # "full": open issues are read from the issue and pull request counts
                found = (graphql_read.repository(node, "full") for node in nodes)
                return SearchResults([r for r in found if not r.fork][:limit])
        query: dict[str, str | int] = {"q": q, "per_page": first}
        if sort in SEARCH_SORTS:
            query |= {"sort": SEARCH_SORTS[sort], "order": "desc"}
        answer = await self.client.get("/search/repositories", query, ttl=self._search_ttl)
        found = answer.model(GhSearchRepos)
        for item in found.items:  # the Screener asks for these repositories' signals next
            self.client.prime(f"/repos/{item.full_name}", item.model_dump_json().encode())
        repos = [to_repository(item) for item in found.items if not item.fork][:limit]
        return SearchResults(repos, incomplete=found.incomplete_results)

    async def get_repo(self, full_name: str) -> Repository:
        name = _valid_name(full_name)
        if self._batch is not None:
            try:
                return (await self._batch.load(name, "full")).repository
            except GraphQLUnavailable:
                pass  # answered over REST below
        answer = await self.client.get(f"/repos/{name}", ttl=self._ttl)
        return to_repository(answer.model(GhRepo))

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        name = _valid_name(full_name)
        if self._batch is not None:
            try:
                found = (await self._batch.load(name, depth)).signals.model_copy(deep=True)
            except GraphQLUnavailable:
                return await self._signals.collect(name, depth=depth)
            if depth == "light":
                found.notes.append(LIGHT_GRAPHQL_NOTE)
            return found
        return await self._signals.collect(name, depth=depth)

    def knows_word(self, word: str) -> bool | None:
        return None  # GitHub's vocabulary is not ours to tell

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        return None

    async def get_readme(self, full_name: str) -> str | None:
        name = _valid_name(full_name)
        if self._batch is not None:
            try:
                return (await self._batch.load(name, "light")).readme
            except GraphQLUnavailable:
                pass
        answer = await self.client.get(f"/repos/{name}/readme", accept=RAW, ttl=self._ttl, allow=(404,))
        return None if answer.status == 404 else answer.text()

    async def ping(self) -> None:
        """One cheap call (``/rate_limit`` costs no budget); raises SourceUnavailable when down."""
        await self.client.get("/rate_limit", allow=(404,), timeout=PING_TIMEOUT)  # 404: GHE, no limits

    async def aclose(self) -> None:
        await self.client.aclose()
