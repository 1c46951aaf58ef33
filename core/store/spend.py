"""The daily LLM spend per workspace, one small JSON file a day (``spend-YYYY-MM-DD.json``).

An addition is a read-add-write under an OS file lock, so concurrent calls in one process and
calls from several processes sharing the data directory all count: the file always holds the
sum of every priced call (``omg stats`` reads it).
"""

from __future__ import annotations

import json
import logging
from datetime import date
from pathlib import Path

from filelock import FileLock

from core.store.atomic import write_atomic_sync

log = logging.getLogger("omg.store.spend")


class SpendFiles:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _file(self, day: date) -> Path:
        return self.directory / f"spend-{day.isoformat()}.json"

    def read(self, day: date) -> dict[str, float]:
        """The day's spend per workspace ({} when nothing was spent or the file is unreadable)."""
        path = self._file(day)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return {str(k): float(v) for k, v in dict(data).items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, TypeError):
            log.warning("unreadable LLM spend file; starting the day at $0", extra={"path": str(path)})
            return {}

    def add(self, day: date, workspace: str, usd: float) -> dict[str, float]:
        """Add ``usd`` to the workspace's total for ``day``; the day's totals after it (blocking)."""
        path = self._file(day)
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(path.with_name(path.name + ".lock")):
            totals = self.read(day)
            totals[workspace] = totals.get(workspace, 0.0) + usd
            write_atomic_sync(path, json.dumps(totals, sort_keys=True).encode())
        return totals
