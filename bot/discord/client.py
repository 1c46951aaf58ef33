"""The discord.py client: intents, the command tree, persistent buttons, event hooks.

Thin: every event is handed to a listener (``MessageListener``, ``ClickListener``,
``SlashCommands``). The override hooks and their defaults:

* ``setup_hook`` -- registers the persistent ``ActionButton`` (``add_dynamic_items``) and the
  slash commands, then syncs them when ``CommandSync`` says they changed (policy "auto").
* ``on_action_button(interaction, action)`` -- called by ``ActionButton`` for every click.
* ``on_interaction`` -- modal submissions (the plan-revision form) go to ``ClickListener``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.discord.buttons import ActionButton, ButtonAction, buttons_of, decode
from bot.discord.clicks import ClickListener
from bot.discord.commands import SlashCommands
from bot.discord.messages import MessageListener
from bot.discord.settings import DiscordSettings
from bot.discord.sync import CommandSync

log = logging.getLogger("omg.discord.client")


def intents(*, message_content: bool) -> discord.Intents:
    """Only what the bot uses: guilds (channels, threads), guild and DM messages, and the
    privileged message content when enabled (thread follow-ups without a mention)."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_messages = True
    chosen.dm_messages = True
    chosen.message_content = message_content
    return chosen


def guard_parsers(parsers: dict[str, Callable[[Any], None]]) -> None:
    """discord.py parses each gateway event with ``ConnectionState.parsers[EVENT](data)``, and an
    exception there ends its whole connection loop (and with it ``omg run``). Wrap each parser so
    a malformed event is logged and dropped instead, and the bot keeps serving."""
    for event, parse in list(parsers.items()):
        parsers[event] = _guarded(event, parse)


def _guarded(event: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
    def run(data: Any) -> None:
        try:
            parse(data)
        except Exception as exc:  # noqa: BLE001 - one bad event must not end the connection
            log.warning("ignored a malformed discord gateway event",
                        extra={"event": event, "error": type(exc).__name__})

    return run


@dataclass
class Listeners:
    """Set by the backend once the client exists (the listeners need the client)."""

    messages: MessageListener | None = None
    clicks: ClickListener | None = None
    commands: SlashCommands | None = None


class OmgClient(discord.Client):
    def __init__(self, settings: DiscordSettings, *, message_content: bool) -> None:
        # the bot has no voice features: skip discord.py's start-up warnings about voice libraries
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            intents=intents(message_content=message_content),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=settings.guild_ready_timeout,
            max_ratelimit_timeout=settings.max_ratelimit_wait,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            shard_id=settings.shard_id,  # None: one connection for every guild
            shard_count=settings.shard_count,
        )
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.listeners = Listeners()
        self.ready_event = asyncio.Event()
        self.sync_policy = settings.sync_commands
        guard_parsers(self._connection.parsers)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton)
        if self.listeners.commands is not None:
            self.listeners.commands.register(self.tree)
        if self.sync_policy == "auto":
            try:
                result = await CommandSync(self.settings).sync(self, self.tree)
                if result.synced:
                    log.info("slash commands synced (%s): %s", result.reason,
                             ", ".join(result.commands))
            except discord.HTTPException as exc:
                log.warning("slash command sync failed; run `omg discord-sync` later",
                            extra={"error": repr(exc)})

    async def on_ready(self) -> None:
        self.ready_event.set()

    async def on_message(self, message: discord.Message) -> None:
        if self.listeners.messages is not None:
            await self.listeners.messages.on_message(message)

    async def on_action_button(self, interaction: discord.Interaction, action: ButtonAction) -> None:
        if self.listeners.clicks is not None:
            await self.listeners.clicks.on_button(interaction, action)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        clicks = self.listeners.clicks
        if clicks is None:
            return
        if interaction.type is discord.InteractionType.modal_submit:
            await clicks.on_modal(interaction)
        elif interaction.type is discord.InteractionType.component:
            # discord.py dispatches a click only if the button is still on the message; a click
            # from a client showing a button we already removed (a decided plan) lands here
            custom_id = str((interaction.data or {}).get("custom_id", ""))
            action = decode(custom_id)
            if action is not None and not _has_component(interaction.message, custom_id):
                await clicks.on_button(interaction, action)


def _has_component(message: discord.Message | None, custom_id: str) -> bool:
    return message is not None and any(b.custom_id == custom_id for _, b in buttons_of(message))
