"""``FallbackSource``: live GitHub first, the offline catalog when GitHub is unreachable.

"Unreachable" means ``SourceUnavailable`` (connection errors, timeouts, 5xx after the client's
retries). The outage is remembered for ``outage_seconds`` so that following turns answer from
the catalog at once instead of waiting on the network again; after that GitHub is tried again.
Rate limits, 404s and bad queries are real answers from GitHub and are not hidden by the
fallback.

Which backend answered is visible through ``info``: during an outage it is the catalog's
``SourceInfo`` (``kind == "catalog"``, its snapshot date, a label saying GitHub is unreachable).
Agents read ``source.info`` *after* their calls, so a turn whose calls just fell back reports
the catalog.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from core.errors import SourceUnavailable
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import RepoSource, SourceInfo

log = logging.getLogger("omg.github.fallback")
T = TypeVar("T")


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
        self.fallbacks = 0  # calls answered by the catalog because GitHub was unreachable

    @property
    def in_outage(self) -> bool:
        return self._clock() < self._outage_until

    @property
    def info(self) -> SourceInfo:
        if not self.in_outage:
            return self.primary.info
        offline = self.fallback.info
        return offline.model_copy(
            update={"label": f"{offline.label or 'offline snapshot'} (GitHub is unreachable)"}
        )

    def mark_outage(self) -> None:
        self._outage_until = self._clock() + self._outage_seconds

    async def _call(
        self, primary: Callable[[], Awaitable[T]], fallback: Callable[[], Awaitable[T]]
    ) -> T:
        if self.in_outage:
            self.fallbacks += 1
            return await fallback()
        try:
            return await primary()
        except SourceUnavailable as exc:
            if not self.in_outage:
                log.warning("github unreachable: answering from the offline catalog",
                            extra={"outage_seconds": self._outage_seconds,
                                   "error": type(exc.__cause__ or exc).__name__})
            self.mark_outage()
            self.fallbacks += 1
            return await fallback()

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> list[Repository]:
        return await self._call(
            lambda: self.primary.search(params, sort=sort, limit=limit),
            lambda: self.fallback.search(params, sort=sort, limit=limit),
        )

    async def get_repo(self, full_name: str) -> Repository:
        return await self._call(
            lambda: self.primary.get_repo(full_name), lambda: self.fallback.get_repo(full_name)
        )

    async def get_signals(self, full_name: str) -> RepoSignals:
        return await self._call(
            lambda: self.primary.get_signals(full_name),
            lambda: self.fallback.get_signals(full_name),
        )

    async def get_readme(self, full_name: str) -> str | None:
        return await self._call(
            lambda: self.primary.get_readme(full_name),
            lambda: self.fallback.get_readme(full_name),
        )

    async def aclose(self) -> None:
        closer = getattr(self.primary, "aclose", None)
        if closer is not None:
            await closer()
