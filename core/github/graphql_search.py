"""Repository searches over GraphQL: every search of a turn in one aliased query.

The Scout runs its strategies concurrently; each asks ``SearchBatcher.search`` for one search.
Requests arriving within ``window`` seconds of the first are sent together as
``sN: search(query: $qN, type: REPOSITORY, first: $fN)`` aliases of one query, so a cold search
makes one search call (and a widening round one more) instead of one REST call per strategy.
GraphQL search is charged to the GraphQL points budget (5,000 an hour), not to REST search's
30 calls a minute.

The ``q`` text is the REST one (``core.github.query``) with the order written as GitHub's
``sort:`` qualifier (``sort:stars-desc``, ``sort:updated-desc``; best match: none), and every
node carries the fields ``to_repository`` reads from a REST search item (open issues = open
issues + open pull requests, as REST counts them), so both paths give the same candidates.
GraphQL search has no ``incomplete_results`` flag.

Failures: a query that fails as a whole raises ``GraphQLUnavailable`` for every search in it,
and one search GitHub answered with an error (a partial 200) raises it for that search only;
the source then runs those searches over REST. Cost (GitHub's rule: connection requests / 100):
a search asks 1 + 3 x ``first`` requests (topics, open issues, open pull requests per node), so
four searches of 30 cost about 4 points.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from core.github.graphql_call import GraphQLUnavailable, ask, settle
from core.github.client import GitHubClient
from core.github.graphql_read import GqlAnswer
from core.github.query import MAX_QUERY_CHARS

log = logging.getLogger("omg.github.graphql")
WINDOW = 0.005  # seconds the first search waits for the other strategies of its round
SORT_QUALIFIERS = {"stars": "sort:stars-desc", "updated": "sort:updated-desc", "forks": "sort:forks-desc"}

_NODE = """
      nameWithOwner description url homepageUrl stargazerCount forkCount isArchived isDisabled isFork
      createdAt pushedAt primaryLanguage { name } licenseInfo { key spdxId name }
      repositoryTopics(first: 20) { nodes { topic { name } } }
      openIssues: issues(states: OPEN) { totalCount }
      openPulls: pullRequests(states: OPEN) { totalCount }
"""


def graphql_q(q: str, sort: str) -> str | None:
    """The search text with the order as a qualifier; None when it would pass GitHub's 256
    characters (that search then goes over REST, unchanged)."""
    qualifier = SORT_QUALIFIERS.get(sort)
    text = f"{q} {qualifier}" if qualifier else q
    return text if len(text) <= MAX_QUERY_CHARS else None


def build(searches: list[tuple[str, int]]) -> tuple[str, dict[str, object]]:
    """One query for ``searches`` (q with its sort qualifier, first), in the given order."""
    variables: dict[str, object] = {}
    declared: list[str] = []
    fields: list[str] = []
    for i, (q, first) in enumerate(searches):
        variables |= {f"q{i}": q, f"f{i}": first}
        declared += [f"$q{i}: String!", f"$f{i}: Int!"]
        fields.append(f"  s{i}: search(query: $q{i}, type: REPOSITORY, first: $f{i}) {{\n"
                      f"    repositoryCount nodes {{ ... on Repository {{{_NODE}    }} }}\n  }}")
    fields.append("  rateLimit { cost remaining resetAt limit }")
    return f"query Search({', '.join(declared)}) {{\n" + "\n".join(fields) + "\n}", variables


@dataclass(slots=True)
class _Pending:
    q: str
    first: int
    future: asyncio.Future[list[dict[str, Any]]]


class SearchBatcher:
    def __init__(self, client: GitHubClient, *, ttl: float, window: float = WINDOW) -> None:
        self._client = client
        self._ttl = ttl
        self._window = window
        self._pending: dict[tuple[str, int], _Pending] = {}
        self._flush: asyncio.Task[None] | None = None
        self.queries = 0

    async def search(self, q: str, first: int) -> list[dict[str, Any]]:
        """The repository nodes GitHub found for ``q`` (sort qualifier included), best first."""
        key = (q, first)
        pending = self._pending.get(key)
        if pending is None:
            pending = self._pending[key] = _Pending(q, first, asyncio.get_running_loop().create_future())
        if self._flush is None:
            self._flush = asyncio.create_task(self._send_after_window())
        return await asyncio.shield(pending.future)

    async def _send_after_window(self) -> None:
        await asyncio.sleep(self._window)
        batch, self._pending, self._flush = list(self._pending.values()), {}, None
        batch.sort(key=lambda p: (p.q, p.first))  # the same searches make the same query: one cache key
        try:
            results = await self._query(batch)
        except BaseException as exc:
            settle((pending.future, exc) for pending in batch)
            if not isinstance(exc, Exception):
                raise
            return
        settle((pending.future, result) for pending, result in zip(batch, results, strict=True))

    async def _query(self, batch: list[_Pending]) -> list[list[dict[str, Any]] | Exception]:
        query, variables = build([(p.q, p.first) for p in batch])
        self.queries += 1
        answer = await ask(self._client, query, variables, ttl=self._ttl, what="searches", size=len(batch))
        return [self._read(answer, i) for i in range(len(batch))]

    @staticmethod
    def _read(answer: GqlAnswer, i: int) -> list[dict[str, Any]] | Exception:
        found = (answer.data or {}).get(f"s{i}")
        nodes = found.get("nodes") if isinstance(found, dict) else None
        if not isinstance(nodes, list) or any(e.path[:1] == [f"s{i}"] for e in answer.errors):
            return GraphQLUnavailable()  # this search alone failed (or came back in part): over REST
        return [n for n in nodes if isinstance(n, dict) and n.get("nameWithOwner")]
