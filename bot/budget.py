"""A sliding-window edit budget shared by every message of a group (a Discord channel).

Discord limits message edits per channel as well as per message: a thread where several turns
show progress at once (or one long research and a few quick answers) would otherwise hit 429s
that hold the whole channel back. ``WindowBudget`` allows ``limit`` edits per ``window`` seconds
in each group; ``bot.throttle.CoalescingEditor`` asks it before every edit and, when the window
is full, waits and coalesces (the latest content still wins). Local to one process: the shared
per-message pacing across instances stays with ``core.store.buckets.EditBucket``.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Hashable


class WindowBudget:
    def __init__(self, limit: int = 5, window: float = 5.0, *, max_groups: int = 10_000) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("an edit budget needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._max_groups = max_groups
        self._sent: OrderedDict[Hashable, deque[float]] = OrderedDict()

    def reserve(self, group: Hashable, now: float) -> float:
        """Take a slot for an edit at ``now``: 0.0 when one was free (and is now taken), else how
        many seconds until one frees up (nothing taken; ask again then)."""
        sent = self._sent.get(group)
        if sent is None:
            sent = self._sent[group] = deque()
        self._sent.move_to_end(group)
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.limit:
            return sent[0] + self.window - now
        sent.append(now)
        while len(self._sent) > self._max_groups:
            self._sent.popitem(last=False)
        return 0.0
