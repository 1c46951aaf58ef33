"""The daily LLM budget, kept per workspace (Slack workspace / Discord guild) per UTC day.

Before each call ``check`` raises ``BudgetExceeded`` once the workspace's spend today reached
``LLM_DAILY_BUDGET_USD``; after each call ``add`` records the priced cost. With a ``path`` the day's
spend is kept in a small JSON file (``core.store.spend``: ``<data dir>/llm/spend-YYYY-MM-DD.json``)
so a restart does not reset it and ``omg stats`` can read it; without one it lives in memory.
Additions are serialised (one at a time in the process, under a file lock across processes), so
with many calls in flight the recorded spend is still the exact sum of the priced calls.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

from core.errors import BudgetExceeded
from core.store.spend import SpendFiles

log = logging.getLogger("omg.llm.budget")

DEFAULT_WORKSPACE = "default"


def utc_today() -> date:
    return datetime.now(UTC).date()


class DailyBudget:
    def __init__(
        self,
        limit_usd: float | None,
        *,
        path: Path | None = None,
        today: Callable[[], date] = utc_today,
    ) -> None:
        """``limit_usd`` None (or <= 0) means unlimited; spend is still tracked."""
        self.limit_usd = limit_usd if limit_usd and limit_usd > 0 else None
        self._files = SpendFiles(path) if path is not None else None
        self._today = today
        self._day: date | None = None
        self._spend: dict[str, float] = {}
        self._adding = asyncio.Lock()

    def _roll(self) -> date:
        day = self._today()
        if day != self._day:
            self._day = day
            self._spend = self._files.read(day) if self._files is not None else {}
        return day

    def spent(self, workspace: str | None) -> float:
        self._roll()
        return self._spend.get(workspace or DEFAULT_WORKSPACE, 0.0)

    def spend_today(self) -> dict[str, float]:
        self._roll()
        return dict(self._spend)

    def remaining(self, workspace: str | None) -> float | None:
        if self.limit_usd is None:
            return None
        return max(0.0, self.limit_usd - self.spent(workspace))

    def check(self, workspace: str | None) -> None:
        if self.limit_usd is not None and self.spent(workspace) >= self.limit_usd:
            raise BudgetExceeded()

    async def add(self, workspace: str | None, usd: float) -> None:
        if usd <= 0:
            return
        key = workspace or DEFAULT_WORKSPACE
        async with self._adding:
            day = self._roll()
            before = self._spend.get(key, 0.0)
            if self._files is None:
                self._spend[key] = before + usd
            else:
                try:
                    totals = await asyncio.to_thread(self._files.add, day, key, usd)
                except OSError:
                    log.warning("could not save LLM spend", extra={"directory": str(self._files.directory)})
                    totals = {**self._spend, key: before + usd}
                if day == self._day:
                    self._spend = totals
            if self.limit_usd is not None and before < self.limit_usd <= self._spend.get(key, 0.0):
                log.warning("LLM daily budget reached; local paths serve until 00:00 UTC",
                            extra={"workspace": key, "limit_usd": self.limit_usd})


def read_spend(directory: Path, day: date | None = None) -> dict[str, float]:
    """A day's spend per workspace from the files a ``DailyBudget`` wrote (for ``omg stats``)."""
    return SpendFiles(directory).read(day or utc_today())
