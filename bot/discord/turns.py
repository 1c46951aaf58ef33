"""The work behind each acknowledged Discord event: call the core, show progress, answer.

Thin on purpose: a message, a click or a command becomes one ``BotService`` call; its ``Reply``
becomes Discord messages through ``render``. Nothing here touches an ``Interaction``: the
listeners answer those (within Discord's 3 seconds) before handing the work over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.discord import render
from bot.discord.conversations import ThreadIndex
from bot.discord.payloads import Place
from bot.discord.progress import Poster, StatusRef, TurnProgress
from bot.discord.outgoing import Outgoing
from bot.throttle import CoalescingEditor
from bot.turns import CoreCall, answer, reply_of
from core.coordinator import IncomingMessage
from core.models import ProgressEvent, ProgressSink, Reply
from core.service import ActionClick, BotService
from core.store.base import EventDeduper

log = logging.getLogger("omg.discord")

DEDUPE_TTL = 3600.0  # the gateway may replay events after a RESUME; interaction ids never repeat


class Turns:
    def __init__(
        self, *, service: BotService, deduper: EventDeduper, poster: Poster,
        editor: CoalescingEditor[StatusRef, Outgoing], threads: ThreadIndex,
    ) -> None:
        self.service = service
        self.deduper = deduper
        self.poster = poster
        self.editor = editor
        self.threads = threads

    async def first_time(self, key: str, ttl: float = DEDUPE_TTL) -> bool:
        return await self.deduper.first_time(f"discord:{key}", ttl)

    def progress(self, place: Place, first_line: str = "Working on it…",
                 users: tuple[str, ...] = ()) -> TurnProgress:
        return TurnProgress(editor=self.editor, poster=self.poster, place=place,
                            first_line=first_line, users=users)

    async def post(self, place: Place, message: Outgoing) -> int | None:
        try:
            return (await self.poster.send(place, message)).id
        except Exception as exc:  # noqa: BLE001 - a note is never worth failing the turn
            log.warning("could not post a note", extra={"error": repr(exc)})
            return None

    async def run(self, place: Place, call: CoreCall, *, eager_status: bool = True) -> Reply | None:
        """Run one core call with a status message in ``place`` and deliver its reply."""
        self.threads.remember(place.key)
        return await answer(self.progress(place), call, render.render_reply,
                            conversation_id=place.key.conversation_id, log=log,
                            eager_status=eager_status)

    async def _call(self, place: Place, call: CoreCall, progress: ProgressSink) -> Reply:
        return await reply_of(call, progress, conversation_id=place.key.conversation_id, log=log)

    # -- the kinds of work -------------------------------------------------------------------------

    async def message(self, place: Place, text: str, user: str) -> Reply | None:
        return await self.run(place, lambda progress: self.service.handle_message(
            IncomingMessage(key=place.key, text=text, author=user), progress))

    async def research(self, place: Place, goal: str, mode: str | None, user: str) -> Reply | None:
        return await self.run(place, lambda progress: self.service.start_research(
            goal, key=place.key, requester=user, mode=mode, progress=progress))

    async def choice(self, place: Place, click: ActionClick) -> Reply | None:
        """A suggestion or option: shown as chosen, then handled as if the clicker typed it."""
        await self.post(place, render.chose(click.user, click.value))
        return await self.run(place, lambda progress: self.service.handle_action(click, progress))

    async def decision(
        self, place: Place, click: ActionClick, on_accepted: Callable[[], Awaitable[None]]
    ) -> Reply | None:
        """Approve / Revise / Cancel. Returns the reply when the research service refused the
        click (not the requester, stale, expired...): the caller shows it to the clicker only.
        ``on_accepted`` runs once the decision is known to stand (to retire the plan's buttons)."""
        self.threads.remember(place.key)
        progress = self.progress(place, "Working on the plan…", users=(click.user,))
        accepting: asyncio.Task[None] | None = None

        async def accept() -> None:
            try:
                await on_accepted()
            except Exception as exc:  # noqa: BLE001 - the decision stands either way
                log.info("could not mark the plan as decided", extra={"error": repr(exc)})

        async def sink(event: ProgressEvent) -> None:
            nonlocal accepting
            if accepting is None:  # progress means the service took the decision
                accepting = asyncio.create_task(accept())
            await progress(event)

        reply = await self._call(place, lambda _: self.service.handle_action(click, sink), progress)
        if reply.duplicate:
            await progress.abandon()
            return None
        if reply.error is not None and accepting is None:
            await progress.abandon()
            return reply
        await (accepting or accept())
        await progress.deliver(render.render_reply(reply))
        return None

    async def feedback(self, click: ActionClick) -> None:
        try:
            await self.service.handle_action(click)
        except Exception:  # noqa: BLE001 - feedback is logged by the service; losing it is minor
            log.warning("feedback not recorded", exc_info=True)

