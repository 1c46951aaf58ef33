"""Discord settings, from the environment (``DISCORD_*``), and the endpoint overrides.

``DISCORD_API_URL`` / ``DISCORD_GATEWAY_URL`` point discord.py's documented endpoints
(``discord.http.Route.BASE``, ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``) elsewhere: a
proxy, or the fake Discord the tests run on loopback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from pydantic import BaseModel, Field

from core.config import env_float

SyncPolicy = Literal["auto", "never"]


class DiscordSettings(BaseModel):
    token: str = Field(repr=False)
    api_url: str | None = None  # e.g. http://127.0.0.1:8080/api/v10
    gateway_url: str | None = None  # e.g. ws://127.0.0.1:8080/gateway
    guild_id: int | None = None  # sync slash commands to this guild only (instant)
    message_content: bool = True  # the privileged intent: thread follow-ups without a mention
    sync_commands: SyncPolicy = "auto"  # "auto": when the definitions changed; "never": omg discord-sync
    edit_interval: float = 1.0  # at most one edit per status message per this many seconds
    guild_ready_timeout: float = 2.0  # discord.py waits this long for GUILD_CREATEs after READY
    max_ratelimit_wait: float | None = None  # longer Retry-After -> give up the edit (>= 30 s)
    shutdown_grace: float = 15.0  # seconds to let in-flight answers finish on shutdown
    data_dir: Path = Path(".data")
    shard_id: int | None = None  # several instances: this one serves shard shard_id of shard_count
    shard_count: int | None = None
    invalid: list[str] = Field(default_factory=list)  # values from_env could not read

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "DiscordSettings":
        guild = (env.get("DISCORD_GUILD_ID") or "").strip()
        sync = (env.get("DISCORD_SYNC_COMMANDS") or "auto").strip().lower()
        wait = env_float(env, "DISCORD_MAX_RATELIMIT_WAIT", 0.0)
        invalid = [] if not guild or guild.isdigit() else [
            "DISCORD_GUILD_ID should be the numeric server id (Developer Mode > right-click the "
            "server > Copy Server ID)."]
        shard = (env.get("DISCORD_SHARD_ID") or "").strip()
        shards = (env.get("DISCORD_SHARD_COUNT") or "").strip()
        if (shard or shards) and not (shard.isdigit() and shards.isdigit() and int(shard) < int(shards)):
            invalid.append("Set both DISCORD_SHARD_ID and DISCORD_SHARD_COUNT (0 <= id < count), "
                           "or neither.")
            shard = shards = ""
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip(),
            api_url=(env.get("DISCORD_API_URL") or "").strip().rstrip("/") or None,
            gateway_url=(env.get("DISCORD_GATEWAY_URL") or "").strip() or None,
            guild_id=int(guild) if guild.isdigit() else None,
            message_content=_flag(env.get("DISCORD_MESSAGE_CONTENT"), default=True),
            sync_commands="never" if sync in ("never", "off", "0", "false", "no") else "auto",
            edit_interval=max(0.0, env_float(env, "OMG_DISCORD_EDIT_INTERVAL", 1.0)),
            guild_ready_timeout=max(0.0, env_float(env, "DISCORD_GUILD_READY_TIMEOUT", 2.0)),
            max_ratelimit_wait=max(30.0, wait) if wait > 0 else None,
            data_dir=Path(env.get("OMG_DATA_DIR") or ".data"),
            shard_id=int(shard) if shard else None,
            shard_count=int(shards) if shards else None,
            invalid=invalid,
        )

    def problems(self) -> list[str]:
        found: list[str] = list(self.invalid)
        if not self.token:
            found.append("Set DISCORD_TOKEN to the bot token (Developer Portal > your app > Bot).")
        elif self.token.lower().startswith("bot "):
            found.append("DISCORD_TOKEN should be the bare token, without the 'Bot ' prefix.")
        return found


def _flag(raw: str | None, *, default: bool) -> bool:
    if raw is None or not raw.strip():
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


def apply_endpoints(settings: DiscordSettings) -> Callable[[], None]:
    """Point discord.py at ``DISCORD_API_URL`` / ``DISCORD_GATEWAY_URL`` when set; returns a
    function that puts the previous endpoints back."""
    previous_base, previous_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    if settings.api_url:
        Route.BASE = settings.api_url
    if settings.gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)

    def restore() -> None:
        if settings.api_url and Route.BASE == settings.api_url:
            Route.BASE = previous_base
        if settings.gateway_url and DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL(settings.gateway_url):
            DiscordWebSocket.DEFAULT_GATEWAY = previous_gateway

    return restore
