"""Which conversations the bot takes part in, so messages there need no mention.

One index for every platform. A conversation counts when the bot answered in it (remembered at
once, before the first answer is saved), when its conversation is in the store (threads from
before a restart), or when the platform's own check says so (Slack asks ``conversations.replies``
for older threads the store has forgotten). A "no" is cached for ``negative_ttl`` seconds, so a
busy thread between other people costs one look-up a minute, not one a message.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from core.models import ConversationKey
from core.recent import Recent
from core.store.base import ConversationStore

PlatformCheck = Callable[[ConversationKey], Awaitable[bool]]


class ThreadIndex:
    def __init__(
        self,
        store: ConversationStore,
        *,
        platform_check: PlatformCheck | None = None,
        max_threads: int = 20_000,
        negative_ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._platform_check = platform_check
        self._negative_ttl = negative_ttl
        self._clock = clock
        self._known: Recent[str, float | None] = Recent(max_threads)  # id -> None (yes) / checked at

    def remember(self, key: ConversationKey) -> None:
        self._known[key.conversation_id] = None

    async def participates(self, key: ConversationKey) -> bool:
        cid = key.conversation_id
        if cid in self._known:
            checked = self._known[cid]
            if checked is None:
                self._known.move_to_end(cid)
                return True
            if self._clock() - checked < self._negative_ttl:
                return False
        if await self._store.get(cid) is not None or (
            self._platform_check is not None and await self._platform_check(key)
        ):
            self._known[cid] = None
            return True
        self._known[cid] = self._clock()
        return False
