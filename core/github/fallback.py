"""``FallbackSource``: live GitHub first, the offline catalog when GitHub is unreachable.

"Unreachable" means ``SourceUnavailable`` (connection errors, timeouts, 5xx after the client's
retries). The outage is remembered for ``outage_seconds`` so that following turns answer from
the catalog at once instead of waiting on the network again; then GitHub is tried again, and
each consecutive outage doubles the window (up to 16x) so that an offline machine rarely waits.
``start_probe()`` (called once at start-up by the composition root) checks GitHub in the
background; calls made while it runs wait for its verdict instead of racing it.
404s and refused queries are real answers from GitHub: the fallback never hides them.

A spent rate limit (``RateLimited``) degrades instead of failing: the call is answered from the
snapshot when it has the repository, the turn's footer says so ("GitHub rate limit reached,
resets at 14:05 UTC, so I answered from the offline snapshot of ..."), and ``info`` names the
snapshot until a call succeeds again or the limit resets. When the snapshot cannot answer
either, the rate limit is raised as before. (Before that point, a low budget already makes the
GraphQL path enrich fewer search candidates: ``core.github.budget``.)

Which backend answered is visible through ``info``: during an outage it is the catalog's
``SourceInfo`` (``kind == "catalog"``, its snapshot date, a label saying GitHub is unreachable).
Agents read ``source.info`` *after* their calls, so a turn whose calls just fell back reports
the catalog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from core.errors import OmgError, RateLimited, SourceError, SourceUnavailable
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import RepoSource, SearchResults, SignalDepth, SourceInfo
from core.usage import add_note

log = logging.getLogger("omg.github.fallback")
T = TypeVar("T")
MAX_DOUBLINGS = 4  # the outage window grows to at most 16x outage_seconds


class FallbackSource:
    def __init__(
        self,
        primary: RepoSource,
        fallback: RepoSource,
        *,
        outage_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self._outage_seconds = outage_seconds
        self._clock = clock
        self._outage_until = 0.0
        self._consecutive_outages = 0
        self._probe: asyncio.Task[bool] | None = None
        self.fallbacks = 0  # calls answered by the catalog because GitHub was unreachable
        self.rate_limited_fallbacks = 0  # ... because GitHub's rate limit was spent
        self._limited: RateLimited | None = None  # the last call fell back on this rate limit

    @property
    def in_outage(self) -> bool:
        return self._clock() < self._outage_until

    @property
    def info(self) -> SourceInfo:
        limited = self._limited
        if limited is not None and limited.reset_at is not None and limited.reset_at.timestamp() < time.time():
            self._limited = limited = None
        if not self.in_outage and limited is None:
            return self.primary.info
        offline = self.fallback.info
        why = "GitHub is unreachable" if self.in_outage else "GitHub's rate limit is spent"
        return offline.model_copy(update={"label": f"{offline.label or 'offline snapshot'} ({why})"})

    def mark_outage(self) -> None:
        if self.in_outage:
            return  # calls failing together are one outage
        window = self._outage_seconds * 2 ** min(self._consecutive_outages, MAX_DOUBLINGS)
        self._consecutive_outages += 1
        self._outage_until = self._clock() + window
        log.warning("github unreachable: answering from the offline catalog",
                    extra={"outage_seconds": window})

    async def probe(self) -> bool:
        """Check that GitHub answers; on an outage, switch to the catalog before any turn."""
        try:
            await self.primary.ping()
        except SourceUnavailable:
            self.mark_outage()
            return False
        except OmgError as exc:  # any other answer (401, a rate limit...) means GitHub is reachable
            log.warning("github probe answered with an error", extra={"error": exc.code})
        self._consecutive_outages = 0
        return True

    def start_probe(self) -> asyncio.Task[bool]:
        """Run ``probe()`` in the background (needs a running event loop)."""
        if self._probe is None:
            self._probe = asyncio.create_task(self.probe(), name="github-probe")
        return self._probe

    async def _call(
        self, primary: Callable[[], Awaitable[T]], fallback: Callable[[], Awaitable[T]]
    ) -> T:
        if self._probe is not None and not self._probe.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(self._probe)
        if self.in_outage:
            self.fallbacks += 1
            return await fallback()
        try:
            result = await primary()
        except SourceUnavailable:
            self.mark_outage()
            self.fallbacks += 1
            return await fallback()
        except RateLimited as exc:
            return await self._instead_of_rate_limit(exc, fallback)
        self._consecutive_outages = 0
        self._limited = None
        return result

    async def _instead_of_rate_limit(self, exc: RateLimited, fallback: Callable[[], Awaitable[T]]) -> T:
        try:
            result = await fallback()
        except SourceError:
            raise exc from None  # the snapshot cannot answer either: say GitHub is rate limited
        self.rate_limited_fallbacks += 1
        self._limited = exc
        date = self.fallback.info.snapshot_date
        when = f" of {date.isoformat()}" if date else ""
        add_note(f"{exc.user_message.rstrip('.')}, so I answered from the offline snapshot{when}")
        log.info("github.rate_limited_fallback", extra={"reset_at": str(exc.reset_at)})
        return result

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> SearchResults:
        return await self._call(
            lambda: self.primary.search(params, sort=sort, limit=limit),
            lambda: self.fallback.search(params, sort=sort, limit=limit),
        )

    async def get_repo(self, full_name: str) -> Repository:
        return await self._call(
            lambda: self.primary.get_repo(full_name), lambda: self.fallback.get_repo(full_name)
        )

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        return await self._call(
            lambda: self.primary.get_signals(full_name, depth=depth),
            lambda: self.fallback.get_signals(full_name, depth=depth),
        )

    def knows_word(self, word: str) -> bool | None:
        """The catalog's answer while it answers for GitHub; GitHub's (none) otherwise."""
        source = self.fallback if self.info.kind == "catalog" else self.primary
        return source.knows_word(word)

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        """The catalog's answer while it answers for GitHub; GitHub's (none) otherwise."""
        source = self.fallback if self.info.kind == "catalog" else self.primary
        return source.word_users(word, most)

    async def get_readme(self, full_name: str) -> str | None:
        return await self._call(
            lambda: self.primary.get_readme(full_name),
            lambda: self.fallback.get_readme(full_name),
        )

    async def ping(self) -> None:
        """GitHub's ping, whatever the outage window says (the catalog needs none); unlike
        ``probe()`` it only reports, and leaves the outage state as it is."""
        await self.primary.ping()

    async def aclose(self) -> None:
        """Stop a running probe and close the primary (GitHub's connections); the fallback is
        its caller's to close."""
        if self._probe is not None and not self._probe.done():
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._probe
        await self.primary.aclose()
