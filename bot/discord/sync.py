"""Deliberate slash-command syncing: never a blind sync on every start-up.

Discord rate-limits command registration (and global commands take a while to propagate), so
the bot records what it last synced -- a fingerprint of the command definitions, the
application and the scope -- in ``<OMG_DATA_DIR>/discord/commands.json``. At start-up it syncs
only when that record differs (a new version of the commands, another application, another
guild); ``DISCORD_SYNC_COMMANDS=never`` turns that off, and ``omg discord-sync`` syncs on demand.
``DISCORD_GUILD_ID`` syncs to one guild (instant, for development) instead of globally.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.discord.settings import DiscordSettings
from core.store.atomic import read_bytes, write_atomic

log = logging.getLogger("omg.discord.sync")


class SyncRecord(BaseModel):
    fingerprint: str
    application_id: str
    scope: str  # "global" or "guild:<id>"
    commands: list[str]
    synced_at: datetime


class SyncResult(BaseModel):
    synced: bool
    scope: str
    commands: list[str]
    reason: str


def scope_of(settings: DiscordSettings) -> str:
    return f"guild:{settings.guild_id}" if settings.guild_id else "global"


def fingerprint(tree: app_commands.CommandTree) -> str:
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    blob = json.dumps(payload, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()


class CommandSync:
    def __init__(self, settings: DiscordSettings) -> None:
        self.settings = settings
        self.path: Path = settings.data_dir / "discord" / "commands.json"

    async def last(self) -> SyncRecord | None:
        raw = await read_bytes(self.path)
        if raw is None:
            return None
        try:
            return SyncRecord.model_validate_json(raw)
        except ValueError:
            return None

    async def needed(self, tree: app_commands.CommandTree, application_id: int) -> str | None:
        """Why a sync is due (None when the recorded sync matches these commands)."""
        record = await self.last()
        if record is None:
            return "never synced from this data directory"
        if record.application_id != str(application_id):
            return "another application"
        if record.scope != scope_of(self.settings):
            return f"scope changed to {scope_of(self.settings)}"
        if record.fingerprint != fingerprint(tree):
            return "the command definitions changed"
        return None

    async def sync(self, client: discord.Client, tree: app_commands.CommandTree, *,
                   force: bool = False) -> SyncResult:
        application_id = client.application_id
        if application_id is None:
            raise RuntimeError("log in before syncing commands")
        scope = scope_of(self.settings)
        names = sorted(c.name for c in tree.get_commands())
        reason = "requested" if force else await self.needed(tree, application_id)
        if reason is None:
            return SyncResult(synced=False, scope=scope, commands=names, reason="up to date")
        guild = discord.Object(id=self.settings.guild_id) if self.settings.guild_id else None
        if guild is not None:
            tree.copy_global_to(guild=guild)
        synced = await tree.sync(guild=guild)
        record = SyncRecord(fingerprint=fingerprint(tree), application_id=str(application_id),
                            scope=scope, commands=sorted(c.name for c in synced),
                            synced_at=datetime.now(UTC))
        await write_atomic(self.path, record.model_dump_json(indent=2).encode())
        log.info("slash commands synced", extra={"scope": scope, "reason": reason,
                                                  "commands": record.commands})
        return SyncResult(synced=True, scope=scope, commands=record.commands, reason=reason)
