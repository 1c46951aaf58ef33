"""Background work, tracked so a shutdown can let it finish: what the Slack and Discord backends
run after acknowledging an event, and the research runs resumed at start-up (plain asyncio)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from core.errors import log_failure

log = logging.getLogger("omg.tasks")


class TaskTracker:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False

    def __len__(self) -> int:
        return len(self._tasks)

    def spawn(self, work: Coroutine[Any, Any, Any], *, name: str = "platform-work") -> bool:
        """Run ``work`` in the background; False (and the work is dropped) while shutting down."""
        if self._closing:
            work.close()
            return False
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return True

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        failure = None if task.cancelled() else task.exception()
        if failure is not None:
            log_failure(log, "background work failed", failure)

    async def idle(self) -> None:
        """Wait until no work is running (work may start more work)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def drain(self, timeout: float) -> int:
        """Stop accepting work, give running work ``timeout`` seconds, cancel the rest.
        Returns how many were cancelled."""
        self._closing = True
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
        late = list(self._tasks)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        return len(late)
