"""Progress in a Discord conversation: one status message, edited as the core reports progress.

``TurnProgress`` is the ``ProgressSink`` of one turn. It posts a status message where the
conversation lives ("⏳ Searching GitHub for …"), sends every change through the shared
``bot.throttle.CoalescingEditor`` (at most one edit per message per second, the latest state
wins, edits in order), and finally puts the answer in place of the status message (further
parts follow as new messages).

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
from typing import NamedTuple

import discord

from bot.discord import render
from bot.discord.outgoing import Outgoing
from bot.discord.payloads import Place
from bot.throttle import CoalescingEditor, RetryAfter, SharedBucket
from core.models import DataEvent, ErrorEvent, LogEvent, ProgressEvent, TextEvent

log = logging.getLogger("omg.discord.progress")

WORKING = "Working on it…"


class StatusRef(NamedTuple):
    channel: int
    message: int


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

    async def edit(self, ref: StatusRef, message: Outgoing) -> None:
        partial = self._channel(ref.channel).get_partial_message(ref.message)
        try:
            await partial.edit(**message.edit_kwargs())
        except discord.RateLimited as exc:  # only past max_ratelimit_timeout
            raise RetryAfter(exc.retry_after) from exc

    async def delete(self, ref: StatusRef) -> None:
        await self._channel(ref.channel).get_partial_message(ref.message).delete()


def with_mentions(text: str, users: tuple[str, ...]) -> str:
    """Core status lines name clickers by id ("approved by 5001"): show those as mentions."""
    for user in users:
        text = re.sub(rf"(?<![@\d]){re.escape(user)}(?!\d)", f"<@{user}>", text)
    return text


def make_editor(
    poster: Poster, *, min_interval: float = 1.0, bucket: SharedBucket | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> CoalescingEditor[StatusRef, Outgoing]:
    """The paced editor for status messages; ``bucket`` (Redis, ``REDIS_URL``) shares the pacing
    with other instances editing the same message."""
    return CoalescingEditor(poster.edit, min_interval=min_interval, sleep=sleep, bucket=bucket,
                            key=lambda ref: f"discord:{ref.channel}:{ref.message}")


class TurnProgress:
    def __init__(
        self, *, editor: CoalescingEditor[StatusRef, Outgoing], poster: Poster, place: Place,
        first_line: str = WORKING, users: tuple[str, ...] = (),
    ) -> None:
        self._editor = editor
        self._users = users
        self._poster = poster
        self.place = place
        self.ref: StatusRef | None = None
        self.current = first_line
        self.done: list[str] = []
        self.draft = ""
        self.started = False  # any progress arrived: the core accepted the work
        self._creating: asyncio.Task[None] | None = None
        self._finished = False  # late events must not touch the answer that replaced the status

    def view(self) -> Outgoing:
        return render.status(self.current, self.done, self.draft)

    async def start(self) -> None:
        """Post the status message now (else it is posted on the first progress event)."""
        if self._creating is None:
            self._creating = asyncio.create_task(self._post_status())
        await asyncio.shield(self._creating)

    async def _post_status(self) -> None:
        shown = self.view()
        try:
            posted = await self._poster.send(self.place, shown)
        except Exception as exc:  # noqa: BLE001 - the answer is still posted at the end
            log.warning("could not post the status message", extra={"error": repr(exc)})
            return
        self.ref = StatusRef(self.place.post_to, posted.id)
        self._editor.open(self.ref)
        latest = self.view()
        if not self._finished and latest != shown:  # progress arrived while posting
            self._editor.submit(self.ref, latest)

    async def __call__(self, event: ProgressEvent) -> None:
        if self._finished or not self._apply(event):
            return
        self.started = True
        if self.ref is not None:
            self._editor.submit(self.ref, self.view())
        elif self._creating is None:
            self._creating = asyncio.create_task(self._post_status())

    def _apply(self, event: ProgressEvent) -> bool:
        if isinstance(event, LogEvent) and event.content.strip():
            if self.current != WORKING and self.current not in self.done:
                self.done.append(self.current)
            self.current = with_mentions(event.content.strip(), self._users)
        elif isinstance(event, TextEvent) and event.delta:
            self.draft += event.delta
        elif isinstance(event, ErrorEvent):
            self.current = f"⚠️ {event.message}"
        elif isinstance(event, DataEvent):
            self.current = "Putting the answer together…"
        else:
            return False
        return True

    async def deliver(self, messages: list[Outgoing]) -> list[int]:
        """Put the answer in the conversation: the first part replaces the status message."""
        self._finished = True
        if self._creating is not None:
            await asyncio.gather(self._creating, return_exceptions=True)
        first, rest = messages[0], messages[1:]
        posted: list[int] = []
        if self.ref is not None:
            try:
                await self._editor.finish(self.ref, first)
                posted.append(self.ref.message)
            except Exception as exc:  # noqa: BLE001 - fall back to a new message
                log.info("status replacement failed; posting instead", extra={"error": repr(exc)})
                await self.remove_status()
                posted.append((await self._poster.send(self.place, first)).id)
        else:
            posted.append((await self._poster.send(self.place, first)).id)
        for message in rest:
            posted.append((await self._poster.send(self.place, message)).id)
        return posted

    async def abandon(self) -> None:
        """No answer in the conversation (a refused click): remove the status message if any."""
        self._finished = True
        if self._creating is not None:
            await asyncio.gather(self._creating, return_exceptions=True)
        await self.remove_status()

    async def remove_status(self) -> None:
        if self.ref is None:
            return
        ref, self.ref = self.ref, None
        self._editor.discard(ref)
        try:
            await self._poster.delete(ref)
        except Exception as exc:  # noqa: BLE001 - best effort
            log.info("could not delete the status message", extra={"error": repr(exc)})
