"""A test backend: a real platform whose "chat client" is the test itself.

Tests read like chat::

    bot = TestBackend(app)
    await bot.push_message("find react state management libraries")
    reply = bot.pop_reply()
    await bot.push_message("analyze the second one")

Every reply keeps the progress events emitted while it was produced (``reply_events``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from itertools import count

from bot.app import BotApp
from bot.base import Backend
from core.models import (
    Action,
    ActionClick,
    CollectingSink,
    ConversationKey,
    IncomingMessage,
    ProgressEvent,
    Reply,
)


class NoReply(AssertionError):
    """A test expected the bot to answer and it did not (a failed assertion, not an OmgError)."""


class TestBackend(Backend):
    __test__ = False  # not a pytest test class
    name = "test"

    def __init__(
        self, app: BotApp, *, channel: str = "C-test", thread: str = "T-1", user: str = "U-alice"
    ) -> None:
        super().__init__(app.ports)
        self.app = app  # a test driver may look at every component
        self.channel = channel
        self.thread = thread
        self.user = user
        self._replies: deque[Reply] = deque()
        self.reply_events: list[list[ProgressEvent]] = []
        self._ids = count(1)

    async def serve(self) -> None:
        """Nothing to connect to: the test drives the backend directly."""

    def key(self, thread: str | None = None) -> ConversationKey:
        return ConversationKey(platform="test", channel=self.channel, thread=thread or self.thread)

    async def push_message(
        self, text: str, *, user: str | None = None, thread: str | None = None,
        delivery_id: str | None = None,
    ) -> None:
        incoming = IncomingMessage(key=self.key(thread), text=text, author=user or self.user, delivery_id=delivery_id)
        await self._turn(lambda sink: self.app.service.handle_message(incoming, sink))

    async def click(
        self, action: Action, *, user: str | None = None, thread: str | None = None,
        delivery_id: str | None = None,
    ) -> None:
        click = ActionClick(key=self.key(thread), kind=action.kind, value=action.value, user=user or self.user,
                            delivery_id=delivery_id)
        await self._turn(lambda sink: self.app.service.handle_action(click, sink))

    async def research(
        self, goal: str, *, mode: str | None = None, user: str | None = None,
        thread: str | None = None,
    ) -> None:
        await self._turn(lambda sink: self.app.service.start_research(
            goal, key=self.key(thread), requester=user or self.user, mode=mode, progress=sink))

    async def _turn(self, call: Callable[[CollectingSink], Awaitable[Reply]]) -> None:
        sink = CollectingSink()
        reply = await call(sink)
        if reply.duplicate:
            return  # a real platform sends nothing for a duplicate delivery
        self._replies.append(reply)
        self.reply_events.append(sink.events)

    def pop_reply(self) -> Reply:
        if not self._replies:
            raise NoReply("the bot has not replied")
        return self._replies.popleft()

    def pending(self) -> int:
        return len(self._replies)

    async def ask(self, text: str, **kwargs: str) -> Reply:
        """push_message + pop_reply, for the common one-message case."""
        await self.push_message(text, **kwargs)
        return self.pop_reply()

    def action(self, reply: Reply, label_contains: str) -> Action:
        """The first button on ``reply`` whose label contains the text (case-insensitive)."""
        for action in reply.actions:
            if label_contains.lower() in action.label.lower():
                return action
        raise AssertionError(f"no button like {label_contains!r} in {[a.label for a in reply.actions]}")
