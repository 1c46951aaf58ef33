"""``DiscordBackend``: wires the discord.py client, the paced editor and the listeners.

Started by ``omg run`` when ``DISCORD_TOKEN`` is set (next to Slack if that is configured too).
If the privileged *Message Content* intent is requested but not enabled for the application,
Discord closes the gateway (4014): the backend says how to enable it and reconnects without it
(mentions and DMs keep working; thread follow-ups then need a mention).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.base import Backend, Ports, SetupError
from bot.discord import render
from bot.discord.clicks import ClickListener
from bot.discord.client import Listeners, OmgClient
from bot.discord.commands import SlashCommands
from bot.discord.messages import MessageListener
from bot.discord.outgoing import Outgoing
from bot.discord.payloads import Place
from bot.discord.progress import Poster, make_editor
from bot.progress import MessageRef
from bot.discord.settings import DiscordSettings, apply_endpoints
from bot.discord.turns import DiscordPlatform
from bot.threads import ThreadIndex
from bot.turns import TurnRunner
from core.pacing.editor import CoalescingEditor
from core.models import ConversationKey, Reply

log = logging.getLogger("omg.discord")

INTENT_HELP = (
    "Discord refused the Message Content intent: enable it under Developer Portal > your "
    "application > Bot > Privileged Gateway Intents > MESSAGE CONTENT INTENT (or set "
    "DISCORD_MESSAGE_CONTENT=0). Continuing without it: mentions and DMs work, follow-ups in "
    "threads need a mention."
)


class DiscordBackend(Backend):
    name = "discord"
    platforms = ("discord",)

    def __init__(
        self, ports: Ports, *, settings: DiscordSettings | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__(ports)
        self.settings = settings or DiscordSettings.from_env(ports.env)
        self._sleep = sleep
        self.client: OmgClient | None = None
        self.editor: CoalescingEditor[MessageRef[int], Outgoing] | None = None
        self.platform: DiscordPlatform | None = None
        self.message_content = self.settings.message_content
        self._runner: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self._restore: Callable[[], None] | None = None
        self._connected = asyncio.Event()
        self._closed = False

    # -- lifecycle -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Log in, connect, and return once the gateway is ready (commands synced if due)."""
        problems = self.settings.problems()
        if problems:
            raise SetupError("Discord is not set up yet: " + " ".join(problems))
        self._restore = apply_endpoints(self.settings)
        try:
            await self._connect()
        except discord.PrivilegedIntentsRequired:
            if not self.message_content:
                raise
            log.warning(INTENT_HELP)
            await self._disconnect()
            self.message_content = False
            await self._connect()
        self._connected.set()

    async def _connect(self) -> None:
        client = OmgClient(self.settings, message_content=self.message_content)
        poster = Poster(client)
        self.editor = make_editor(poster, min_interval=self.settings.edit_interval,
                                  bucket=self.ports.edit_bucket, sleep=self._sleep)
        threads = ThreadIndex(self.ports.store)
        self.platform = platform = DiscordPlatform(poster=poster, editor=self.editor)
        turns = TurnRunner(service=self.ports.service, platform=platform, threads=threads, log=log)
        client.listeners = Listeners(
            messages=MessageListener(client=client, platform=platform, turns=turns, threads=threads,
                                     tracker=self.tracker, content_intent=self.message_content),
            clicks=ClickListener(turns=turns, tracker=self.tracker, button_state=self.ports.deduper),
            commands=SlashCommands(client=client, turns=turns, tracker=self.tracker),
        )
        self.client = client
        self._runner = asyncio.create_task(client.start(self.settings.token), name="discord-gateway")
        ready = asyncio.create_task(client.ready_event.wait())
        await asyncio.wait({self._runner, ready}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            error = self._runner.exception() if not self._runner.cancelled() else None
            raise error or RuntimeError("the Discord connection ended before it was ready")
        log.info("discord connected", extra={"bot_user": str(client.user.id) if client.user else None,
                                             "message_content": self.message_content})

    async def serve(self) -> None:
        try:
            await self.start()
            assert self._runner is not None
            stopped = asyncio.create_task(self._stopped.wait())
            await asyncio.wait({self._runner, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if self._runner.done() and not self._runner.cancelled() and self._runner.exception():
                raise self._runner.exception()  # type: ignore[misc]
        finally:
            await self.shutdown()

    async def shutdown(self) -> None:
        """Stop taking work, let in-flight answers finish (``shutdown_grace``), disconnect."""
        if self._closed:
            return
        self._closed = True
        self._stopped.set()
        await self._drain(self.settings.shutdown_grace)
        await self._disconnect()
        if self._restore is not None:
            self._restore()
            self._restore = None

    async def _disconnect(self) -> None:
        if self.editor is not None:
            await self.editor.aclose()
        if self.client is not None:
            await self.client.close()
        if self._runner is not None:
            with contextlib.suppress(BaseException):
                await self._runner
        self._runner = None

    # -- replies outside a turn (research reports after a restart) -------------------------------

    async def deliver(self, key: ConversationKey, reply: Reply) -> None:
        """Post a reply into the conversation ``key`` names, when nobody is waiting on a request
        (``bot.backends.reply_router`` sends resumed research reports here)."""
        await asyncio.wait_for(self._connected.wait(), timeout=120)
        assert self.platform is not None
        thread = None if key.thread == "dm" else key.thread
        place = Place(guild=key.team, channel=key.channel, thread=thread)
        messages = render.render_reply(reply, feedback=False)
        try:
            await self.platform.poster.send(place, messages[0])
        except discord.NotFound:  # the thread id is a message id: an in-channel conversation
            place = place.model_copy(update={"inline": True})
            await self.platform.poster.send(place, messages[0])
        for message in messages[1:]:
            await self.platform.poster.send(place, message)
