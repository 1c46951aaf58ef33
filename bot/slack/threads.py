"""Which threads the bot takes part in, so replies there need no mention.

A thread counts when its conversation is in the store, when the bot answered a mention in it
(remembered at once, before the first answer is saved), or, for older threads the store has
forgotten, when ``conversations.replies`` shows the bot posted or was mentioned there.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from bot.slack.api import SlackApi
from core.models import ConversationKey
from core.store.base import ConversationStore


def conversation_key(team: str | None, channel: str, thread_ts: str) -> ConversationKey:
    return ConversationKey(platform="slack", team=team or None, channel=channel, thread=thread_ts)


class ThreadIndex:
    def __init__(
        self,
        store: ConversationStore,
        api: SlackApi,
        *,
        max_threads: int = 20_000,
        negative_ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._api = api
        self._max = max_threads
        self._negative_ttl = negative_ttl
        self._clock = clock
        self._known: OrderedDict[str, float | None] = OrderedDict()  # id -> None (yes) / checked at

    def remember(self, key: ConversationKey) -> None:
        self._put(key.conversation_id, None)

    async def participates(self, key: ConversationKey) -> bool:
        cid = key.conversation_id
        if cid in self._known:
            checked = self._known[cid]
            if checked is None:
                self._known.move_to_end(cid)
                return True
            if self._clock() - checked < self._negative_ttl:
                return False
        if await self._store.get(cid) is not None or await self._api.bot_in_thread(
            key.channel, key.thread
        ):
            self._put(cid, None)
            return True
        self._put(cid, self._clock())
        return False

    def _put(self, cid: str, value: float | None) -> None:
        self._known[cid] = value
        self._known.move_to_end(cid)
        while len(self._known) > self._max:
            self._known.popitem(last=False)
