"""Progress in a Discord conversation: one status message, edited as the core reports progress.

``TurnProgress`` is the ``ProgressSink`` of one turn (a ``bot.progress.StatusMessage``). It
posts a status message where the conversation lives ("⏳ Searching GitHub for …"), sends every
change through the shared ``core.pacing.CoalescingEditor`` (at most one edit per message per
second, the latest state wins, edits in order), and finally puts the answer in place of the
status message (further parts follow as new messages).

Rate limits: discord.py reads Discord's rate-limit headers itself, waits out a bucket before it
is exhausted and retries a 429 after its ``retry_after``; an edit that hits one simply takes
longer, and the editor coalesces whatever arrives meanwhile (it paces from the moment an edit
was answered). Only a wait longer than ``max_ratelimit_timeout`` surfaces, as
``discord.RateLimited``: it becomes the editor's ``RetryAfter``, so the message is left alone
until then and gets the latest state afterwards.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable

import discord

from core.pacing.budget import EditBudget
from bot.discord import render
from bot.discord.outgoing import Outgoing
from bot.discord.payloads import Place
from bot.progress import WORKING, MessageRef, StatusMessage, StatusText
from core.pacing.editor import CoalescingEditor, RetryAfter, SharedBucket
from core.models import Reply


CHANNEL_EDITS, CHANNEL_WINDOW = 5, 5.0  # Discord's edit budget per channel


class Poster:
    """Sends, edits and deletes messages by channel id through discord.py (no cache needed)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def send(self, place: Place, message: Outgoing) -> discord.Message:
        kwargs = message.send_kwargs()
        if place.inline and place.thread:  # answers in a channel reply to the question
            kwargs["reference"] = discord.MessageReference(
                message_id=int(place.thread), channel_id=int(place.channel), fail_if_not_exists=False)
        return await self._channel(place.post_to).send(**kwargs)

    async def edit(self, ref: MessageRef[int], message: Outgoing) -> None:
        partial = self._channel(ref.channel).get_partial_message(ref.message)
        try:
            await partial.edit(**message.edit_kwargs())
        except discord.RateLimited as exc:  # only past max_ratelimit_timeout
            raise RetryAfter(exc.retry_after) from exc

    async def delete(self, ref: MessageRef[int]) -> None:
        await self._channel(ref.channel).get_partial_message(ref.message).delete()


def with_mentions(text: str, users: tuple[str, ...]) -> str:
    """Core status lines name clickers by id ("approved by 5001"): show those as mentions."""
    for user in users:
        text = re.sub(rf"(?<![@\d]){re.escape(user)}(?!\d)", f"<@{user}>", text)
    return text


def make_editor(
    poster: Poster, *, min_interval: float = 1.0, bucket: SharedBucket | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> CoalescingEditor[MessageRef[int], Outgoing]:
    """The paced editor for status messages: one edit per message per ``min_interval``, at most
    ``CHANNEL_EDITS`` edits per channel in ``CHANNEL_WINDOW`` seconds; ``bucket`` (Redis,
    ``REDIS_URL``) shares the per-message pacing with other instances editing the same message."""
    return CoalescingEditor(poster.edit, min_interval=min_interval, sleep=sleep, bucket=bucket,
                            key=lambda ref: f"discord:{ref.channel}:{ref.message}",
                            budget=EditBudget(limit=CHANNEL_EDITS, window=CHANNEL_WINDOW),
                            group=lambda ref: ref.channel)


class TurnProgress(StatusMessage[Outgoing, int]):
    """The status message of one turn where a Discord conversation lives."""

    log = logging.getLogger("omg.discord.progress")

    def __init__(
        self, *, editor: CoalescingEditor[MessageRef[int], Outgoing], poster: Poster, place: Place,
        first_line: str = WORKING, users: tuple[str, ...] = (),
    ) -> None:
        text = StatusText(first_line, warning="⚠️", step=lambda line: with_mentions(line, users))
        super().__init__(editor=editor, text=text, channel=place.post_to)
        self._poster = poster
        self.place = place

    def view(self) -> Outgoing:
        return render.status(self.text.current, self.text.done, self.text.draft)

    def render(self, reply: Reply) -> list[Outgoing]:
        return render.render_reply(reply)

    async def _post(self, message: Outgoing) -> list[int]:
        return [(await self._poster.send(self.place, message)).id]

    async def _delete(self, ref: MessageRef[int]) -> None:
        await self._poster.delete(ref)
