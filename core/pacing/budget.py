"""An edit budget shared by many messages: at most ``limit`` edits per ``window`` seconds per group.

``CoalescingEditor`` paces each message (one edit per second); a platform also limits edits
across messages (Slack: ``chat.update`` per workspace, Tier 3, about 50 a minute). A busy
workspace with a dozen answers in progress would exceed that with per-message pacing alone.
``EditBudget`` is the second, wider limit: progress edits wait for a free slot in their group's
sliding window (meanwhile newer progress replaces older, so only intermediate states are lost);
final edits (the answer taking the status message's place) never wait, but count.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable


class EditBudget:
    def __init__(
        self, *, limit: int, window: float, clock: Callable[[], float] = time.monotonic,
        max_groups: int = 10_000,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("an edit budget needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._max_groups = max_groups
        self._sent: OrderedDict[Hashable, deque[float]] = OrderedDict()

    def reserve(self, group: Hashable, *, final: bool = False) -> float:
        """Take a slot now and return 0, or return how many seconds until one frees (a final
        edit always takes its slot at once)."""
        now = self._clock()
        sent = self._sent.setdefault(group, deque())
        self._sent.move_to_end(group)
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.limit and not final:
            return sent[0] + self.window - now
        sent.append(now)
        while len(self._sent) > self._max_groups:
            self._sent.popitem(last=False)
        return 0.0

    def used(self, group: Hashable) -> int:
        now = self._clock()
        return sum(1 for at in self._sent.get(group, ()) if at > now - self.window)
