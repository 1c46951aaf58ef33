"""Gateway messages: mention -> new thread, thread follow-ups, DMs (see ``conversations``).

The privileged ``message_content`` intent: without it Discord sends an empty ``content`` for
messages that neither mention the bot nor are DMs, so follow-ups in a thread need a mention
(mentions and DMs keep working). ``DISCORD_MESSAGE_CONTENT=0`` runs the bot that way on purpose;
the first empty follow-up is answered with a hint saying so.
"""

from __future__ import annotations

import logging

import discord

from bot.discord import render
from bot.discord.conversations import arrival_of, thread_name
from bot.routing import Where, route
from bot.discord.payloads import ChatMessage, Place, chat_message, without_bot_mention
from core.tasks import TaskTracker
from bot.discord.turns import DiscordPlatform, DiscordTurns
from bot.threads import ThreadIndex
from core.recent import Recent

log = logging.getLogger("omg.discord.messages")

NO_THREAD_NOTE = (
    "I couldn't open a thread here (the bot needs the *Create Public Threads* and *Send Messages "
    "in Threads* permissions), so I'm answering right here. Reply to my answer to follow up."
)
NEEDS_MENTION = (
    "I can only read messages that mention me here: the *Message Content* intent is off for this "
    "bot. Mention me (@oh-my-github) to follow up, or ask the server admin to enable the intent."
)


class MessageListener:
    def __init__(
        self, *, client: discord.Client, platform: DiscordPlatform, turns: DiscordTurns,
        threads: ThreadIndex, tracker: TaskTracker,
        content_intent: bool,
    ) -> None:
        self.client = client
        self.platform = platform
        self.turns = turns
        self.threads = threads
        self.tracker = tracker
        self.content_intent = content_intent
        self._channels: Recent[int, tuple[str | None, str | None]] = Recent(5000)
        self._hinted: set[str] = set()

    @property
    def bot_id(self) -> int | None:
        return self.client.user.id if self.client.user else None

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None or message.author.id == self.bot_id:
            return  # bots (ourselves included) and webhooks never start a turn
        event = await self._resolve(chat_message(message, self.bot_id))
        if event.system:
            return  # joins, pins, thread-created notices
        where = await route(arrival_of(event), lambda: self._participates(event))
        if where is Where.IGNORE:
            return
        text = without_bot_mention(event.content, self.bot_id, event.bot_roles)
        if not text and not event.mentions_bot and event.kind != "dm":
            await self._hint_once(event)
            return
        self.tracker.spawn(self._answer(message, event, where, text), name="discord-message")

    async def _answer(
        self, message: discord.Message, event: ChatMessage, where: Where, text: str
    ) -> None:
        if where is Where.NEW_THREAD:
            place: Place | None = await self.open_thread(message, event, text)
        elif where in (Where.IN_PLACE, Where.REPLY_CHAIN):
            place = Place(guild=event.guild_id, channel=event.channel_id,
                          thread=event.reply_anchor or event.id, inline=True)
        else:
            place = event.place()
        if place is None:
            return
        await self.turns.message(place, text, event.author.id, delivery_id=event.id)  # a RESUME may replay it

    async def open_thread(self, message: discord.Message, event: ChatMessage, text: str) -> Place:
        """A thread from the question's message, named after the question (or, where that is not
        possible, the question's message as the anchor of an in-channel conversation)."""
        name = thread_name(text, fallback=f"Question from {event.author.name}")
        try:
            await message.create_thread(name=name, auto_archive_duration=1440)
        except discord.HTTPException as exc:
            log.warning("could not open a thread",
                        extra={"error": repr(exc), "channel": event.channel_id})
            place = Place(guild=event.guild_id, channel=event.channel_id, thread=event.id,
                          inline=True)
            await self.platform.post(place, render.note(NO_THREAD_NOTE))
            return place
        place = event.thread_place()
        self.threads.remember(place.key)
        return place

    async def _participates(self, event: ChatMessage) -> bool:
        """The bot created the thread, or takes part in its conversation."""
        if self.bot_id is not None and event.thread_owner_id == str(self.bot_id):
            return True
        place = event.place()
        return place is not None and await self.threads.participates(place.key)

    async def _resolve(self, event: ChatMessage) -> ChatMessage:
        """A guild channel discord.py has not cached (a thread from before a restart, archived
        since): ask Discord what it is, once."""
        if event.kind != "other" or event.guild_id is None:
            return event
        channel_id = int(event.channel_id)
        if channel_id not in self._channels:
            parent = owner = None
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.HTTPException as exc:
                log.info("could not look up a channel", extra={"error": repr(exc)})
                channel = None
            if isinstance(channel, discord.Thread):
                parent, owner = str(channel.parent_id), str(channel.owner_id)
            self._channels[channel_id] = (parent, owner)
        parent, owner = self._channels[channel_id]
        if parent is None:
            return event
        return event.model_copy(update={"kind": "thread", "parent_id": parent, "thread_owner_id": owner})

    async def _hint_once(self, event: ChatMessage) -> None:
        """An empty follow-up in our thread: the Message Content intent is off."""
        place = event.place()
        if self.content_intent or place is None or place.key.conversation_id in self._hinted:
            return
        self._hinted.add(place.key.conversation_id)
        await self.platform.post(place, render.note(NEEDS_MENTION))
