"""The daily LLM budget, kept per workspace (Slack workspace / Discord guild) per UTC day.

Before each call ``check`` raises ``BudgetExceeded`` once the workspace's spend today reached
``LLM_DAILY_BUDGET_USD``; after each call ``add`` records the priced cost. With a ``path`` the day's
spend is kept in a small JSON file (``<data dir>/llm/spend-YYYY-MM-DD.json``) so a restart does not
reset it and ``omg stats`` can read it; without one it lives in memory.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

from core.errors import BudgetExceeded
from core.store.atomic import write_atomic

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
        self._dir = path
        self._today = today
        self._day: date | None = None
        self._spend: dict[str, float] = {}

    def _roll(self) -> None:
        day = self._today()
        if day != self._day:
            self._day = day
            self._spend = self._load(day)

    def _file(self, day: date) -> Path | None:
        return self._dir / f"spend-{day.isoformat()}.json" if self._dir is not None else None

    def _load(self, day: date) -> dict[str, float]:
        path = self._file(day)
        if path is None or not path.is_file():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return {str(k): float(v) for k, v in dict(data).items()}
        except (OSError, ValueError, TypeError):
            log.warning("unreadable LLM spend file; starting the day at $0", extra={"path": str(path)})
            return {}

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
        self._roll()
        key = workspace or DEFAULT_WORKSPACE
        before = self._spend.get(key, 0.0)
        self._spend[key] = before + usd
        if self.limit_usd is not None and before < self.limit_usd <= self._spend[key]:
            log.warning("LLM daily budget reached; local paths serve until 00:00 UTC",
                        extra={"workspace": key, "limit_usd": self.limit_usd})
        path = self._file(self._day)  # type: ignore[arg-type]
        if path is not None:
            try:
                await write_atomic(path, json.dumps(self._spend, sort_keys=True).encode())
            except OSError:
                log.warning("could not save LLM spend", extra={"path": str(path)})


def read_spend(directory: Path, day: date | None = None) -> dict[str, float]:
    """A day's spend per workspace from the files a ``DailyBudget`` wrote (for ``omg stats``)."""
    return DailyBudget(None, path=directory, today=lambda: day or utc_today()).spend_today()
