"""``GraphQLBatcher``: the signals of every repository asked for at once, in one GraphQL query.

Callers ask for one repository at a time (``load(name, depth)``: the Screener scores each
candidate in its own task, an analysis asks for the repository, its signals and its README
concurrently). Requests arriving within ``window`` seconds of the first are sent together --
one query for up to ``MAX_BATCH`` repositories (a deeper request for a name already waiting
upgrades it) -- and every caller gets its repository's part. Answers are kept ``ttl`` seconds
per repository, so the README and the signals of one candidate are one fetch.

Failures, GitHub's way: a partial answer (200 with ``errors``) re-measures only the failed
fields over REST (``SignalCollector``); a repository GitHub does not know raises
``RepoNotFound``; a query that fails as a whole (GraphQL rate limit, refused query, unreadable
answer) raises ``GraphQLUnavailable`` and the source falls back to REST for that call;
``SourceUnavailable`` (GitHub unreachable) propagates as it does for REST.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from core.errors import RepoNotFound, SourceError
from core.github import graphql_query, graphql_read
from core.github.budget import LOW_ENRICHED, BudgetSaved, low_remaining
from core.github.client import GitHubClient
from core.github.graphql_call import GraphQLUnavailable, ask, settle
from core.github.graphql_read import GqlAnswer, GqlRepo
from core.github.signals import SignalCollector
from core.sources.base import SignalDepth

log = logging.getLogger("omg.github.graphql")
MAX_BATCH = 25  # repositories per query: cost stays 1-3 points, answers a few hundred KB at most
WINDOW = 0.005  # seconds the first request waits for the others of its turn
KEPT = 512  # repositories whose last answer is kept (the oldest go first, and any past the TTL)


@dataclass(slots=True)
class _Pending:
    name: str
    depth: SignalDepth
    future: asyncio.Future[GqlRepo]


class GraphQLBatcher:
    def __init__(
        self, client: GitHubClient, rest: SignalCollector, *, ttl: float,
        now: Callable[[], datetime] | None = None, window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._rest = rest
        self._ttl = ttl
        self._now = now or (lambda: datetime.now(UTC))
        self._window = window
        self._clock = clock
        self._pending: dict[str, _Pending] = {}
        self._flush: asyncio.Task[None] | None = None
        self._done: dict[str, tuple[float, GqlRepo]] = {}
        self.queries = 0

    async def load(self, full_name: str, depth: SignalDepth) -> GqlRepo:
        key = full_name.lower()
        kept = self._done.get(key)
        if kept is not None and self._clock() - kept[0] < self._ttl and (
                depth == "light" or kept[1].depth == "full"):
            return kept[1]
        pending = self._pending.get(key)
        if pending is None:
            future = asyncio.get_running_loop().create_future()
            pending = self._pending[key] = _Pending(full_name, depth, future)
        elif depth == "full":
            pending.depth = "full"
        if self._flush is None:
            self._flush = asyncio.create_task(self._send_after_window())
        return await asyncio.shield(pending.future)

    async def _send_after_window(self) -> None:
        await asyncio.sleep(self._window)
        batch, self._pending, self._flush = list(self._pending.values()), {}, None
        batch = self._within_budget(batch)
        batch.sort(key=lambda p: (p.depth, p.name.lower()))  # same set, same query: one cache key
        await asyncio.gather(*(self._send(batch[i:i + MAX_BATCH])
                               for i in range(0, len(batch), MAX_BATCH)))

    def _within_budget(self, batch: list[_Pending]) -> list[_Pending]:
        """With a low GraphQL budget, only the first ``LOW_ENRICHED`` light requests (the
        Screener asks in rank order) are sent; the others fail with ``BudgetSaved``."""
        left = low_remaining(self._client, "graphql")
        light = [p for p in batch if p.depth == "light"]
        if left is None or len(light) <= LOW_ENRICHED:
            return batch
        dropped = light[LOW_ENRICHED:]
        for pending in dropped:
            pending.future.set_exception(BudgetSaved(left))
            pending.future.exception()
        return [p for p in batch if p not in dropped]

    async def _send(self, batch: list[_Pending]) -> None:
        try:
            results = await self._query(batch)
        except BaseException as exc:
            settle((pending.future, exc) for pending in batch)
            if not isinstance(exc, Exception):
                raise
            return
        settle((pending.future, results[pending.name.lower()]) for pending in batch)

    async def _query(self, batch: list[_Pending]) -> dict[str, GqlRepo | Exception]:
        now = self._now()
        since90 = now - timedelta(days=90)
        query, variables = graphql_query.build([(p.name, p.depth) for p in batch], now)
        self.queries += 1
        answer = await ask(self._client, query, variables, ttl=self._ttl, what="repositories", size=len(batch))
        results: dict[str, GqlRepo | Exception] = {}
        jobs = []
        for i, pending in enumerate(batch):
            results[pending.name.lower()] = item = self._read(answer, i, pending, since90)
            if isinstance(item, GqlRepo) and self._incomplete(item):
                jobs.append(self._complete_over_rest(item, pending.name))
        await asyncio.gather(*jobs)
        stamp = self._clock()
        for key, item in results.items():
            if isinstance(item, GqlRepo) and not item.signals.notes:
                self._done.pop(key, None)
                self._done[key] = (stamp, item)
        while self._done and (len(self._done) > KEPT or stamp - next(iter(self._done.values()))[0] >= self._ttl):
            del self._done[next(iter(self._done))]  # the oldest first: past the TTL it is never served
        return results

    def _read(self, answer: GqlAnswer, i: int, pending: _Pending, since90: datetime) -> GqlRepo | Exception:
        data = answer.data or {}
        node = data.get(f"r{i}")
        if not isinstance(node, dict):
            error = graphql_read.repo_error(answer.errors, f"r{i}")
            if error is not None and error.type == "NOT_FOUND":
                return RepoNotFound(pending.name)
            return GraphQLUnavailable()
        extra = {"closed": data.get(f"closed{i}"), "merged": data.get(f"merged{i}")}
        try:
            repo = graphql_read.repository(node, pending.depth)
            signals, readme = graphql_read.signals(node, pending.depth, since90, extra)
        except (KeyError, TypeError, ValueError) as exc:
            log.info("github.graphql_unreadable", extra={"repo": pending.name, "error": repr(exc)})
            return GraphQLUnavailable()
        failed = graphql_read.failed_fields(answer.errors, f"r{i}")
        return GqlRepo(repo, signals, readme, pending.depth, failed)

    @staticmethod
    def _incomplete(item: GqlRepo) -> bool:
        """Whether REST must measure something GraphQL did not answer. A failed default branch
        also leaves the recent committers unknown: REST's contributor count stands in for them."""
        if item.depth == "full" and ("commits_90d" in item.failed or item.signals.recent_committers is None):
            item.signals.recent_committers = item.signals.recent_commits_sampled = None
            item.failed.add("contributors")
        return bool(item.failed)

    async def _complete_over_rest(self, item: GqlRepo, full_name: str) -> None:
        """Re-measures over REST the fields GraphQL failed on (``item.failed``)."""
        try:
            rest = await self._rest.collect_only(full_name, sorted(item.failed - {"readme"}))
        except SourceError as exc:
            item.signals.notes.append("Some numbers could not be measured "
                                      f"({exc.user_message.rstrip('.')}).")
            return
        for name, value in rest.model_dump(exclude={"notes"}).items():
            if value is not None:  # REST measured only what GraphQL could not
                setattr(item.signals, name, value)
        item.signals.notes.extend(rest.notes)
        if "readme" in item.failed:
            item.readme = await self._readme_over_rest(full_name)

    async def _readme_over_rest(self, full_name: str) -> str | None:
        try:
            return await self._rest.readme(full_name)
        except SourceError:
            return None
