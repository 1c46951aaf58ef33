"""Discord's side of the adapter kernel (``bot.turns.Platform``): how a turn shows in a channel.

A conversation's place on Discord is a ``Place`` (a thread, a DM, or a question's message in a
channel where no thread could be opened). The status message is posted there and edited through
the paced editor; the answer takes its place. Nothing here touches an ``Interaction``: the
listeners answer those (within Discord's 3 seconds) before handing the work to the kernel.
"""

from __future__ import annotations

import logging

from bot.discord import render
from bot.discord.outgoing import Outgoing
from bot.discord.payloads import Place
from bot.discord.progress import Poster, TurnProgress
from bot.progress import MessageRef
from core.pacing.editor import CoalescingEditor
from bot.turns import TurnRunner
from core.models import ConversationKey

log = logging.getLogger("omg.discord")

DiscordTurns = TurnRunner[Place, Outgoing]


class DiscordPlatform:
    def __init__(self, *, poster: Poster, editor: CoalescingEditor[MessageRef[int], Outgoing]) -> None:
        self.poster = poster
        self.editor = editor

    def key(self, place: Place) -> ConversationKey:
        return place.key

    def stream(self, place: Place, *, first_line: str, users: tuple[str, ...] = ()) -> TurnProgress:
        return TurnProgress(editor=self.editor, poster=self.poster, place=place,
                            first_line=first_line, users=users)

    def chose(self, user: str, value: str) -> Outgoing:
        return render.chose(user, value)

    async def post(self, place: Place, message: Outgoing) -> None:
        try:
            await self.poster.send(place, message)
        except Exception as exc:  # noqa: BLE001 - a note is never worth failing the turn
            log.warning("could not post a note", extra={"error": repr(exc)})
