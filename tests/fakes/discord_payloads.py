"""Discord wire payloads for the fake Discord: users, guilds, channels, messages, interactions.

Only what discord.py 2.7 reads. Ids are snowflakes (time << 22 | counter) so ``created_at`` works.
"""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
BOT_ROLE_ID = 7777  # the role Discord manages for the bot (what "@oh-my-github" may pick)
ATTACHMENT_SIZE_LIMIT = 26_214_400  # discord.py dies on an interaction without it

TEXT, DM, PUBLIC_THREAD = 0, 1, 11

_counter = itertools.count(1)


def snowflake() -> int:
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso(ts: float | None = None) -> str:
    return datetime.fromtimestamp(ts if ts is not None else time.time(), UTC).isoformat()


def user(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(uid), "username": name, "global_name": name, "discriminator": "0",
        "avatar": None, "bot": bot, "public_flags": 0,
    }


def member(user_payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "user": user_payload, "roles": [], "joined_at": iso(), "deaf": False, "mute": False,
        "flags": 0, "permissions": "2251799813685247",
    }


def text_channel(cid: int, guild_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(cid), "type": TEXT, "guild_id": str(guild_id), "name": name, "position": 0,
        "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
        "last_message_id": None, "rate_limit_per_user": 0,
    }


def dm_channel(cid: int, recipient: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(cid), "type": DM, "recipients": [recipient], "last_message_id": None}


def thread_channel(
    tid: int, guild_id: int, parent_id: int, owner_id: int, name: str
) -> dict[str, Any]:
    return {
        "id": str(tid), "type": PUBLIC_THREAD, "guild_id": str(guild_id),
        "parent_id": str(parent_id), "owner_id": str(owner_id), "name": name,
        "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
        "member_count": 1, "flags": 0,
        "thread_metadata": {
            "archived": False, "auto_archive_duration": 1440, "archive_timestamp": iso(),
            "locked": False, "create_timestamp": iso(),
        },
    }


def guild(gid: int, name: str, channels: list[dict[str, Any]], members: list[dict[str, Any]],
          threads: list[dict[str, Any]] | None = None, owner_bot_id: str = "") -> dict[str, Any]:
    return {
        "id": str(gid), "name": name, "icon": None, "owner_id": members[0]["user"]["id"],
        "unavailable": False, "member_count": len(members), "large": False, "features": [],
        "roles": [{
            "id": str(gid), "name": "@everyone", "color": 0, "hoist": False, "position": 0,
            "permissions": "2251799813685247", "managed": False, "mentionable": False, "flags": 0,
        }, {
            "id": str(BOT_ROLE_ID), "name": "oh-my-github", "color": 0, "hoist": False,
            "position": 1, "permissions": "309237729280", "managed": True, "mentionable": True,
            "flags": 0, "tags": {"bot_id": owner_bot_id},
        }],
        "emojis": [], "stickers": [], "channels": channels, "threads": threads or [],
        "members": members, "voice_states": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [], "joined_at": iso(),
        "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
        "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US",
        "system_channel_id": None, "afk_channel_id": None, "afk_timeout": 300,
    }


def message(
    mid: int, channel: dict[str, Any], author: dict[str, Any], content: str, *,
    embeds: list[dict[str, Any]] | None = None, components: list[dict[str, Any]] | None = None,
    mentions: list[dict[str, Any]] | None = None, mention_roles: list[str] | None = None,
    flags: int = 0, webhook_id: int | None = None,
    application_id: int | None = None, edited_at: float | None = None,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(mid), "channel_id": channel["id"], "author": author, "content": content,
        "timestamp": iso(), "edited_timestamp": iso(edited_at) if edited_at else None,
        "tts": False, "mention_everyone": False, "mentions": mentions or [],
        "mention_roles": mention_roles or [],
        "attachments": [], "embeds": embeds or [], "components": components or [],
        "pinned": False, "type": 0, "flags": flags,
    }
    if channel.get("guild_id"):
        payload["guild_id"] = channel["guild_id"]
        payload["member"] = {k: v for k, v in member(author).items() if k != "user"}
    if webhook_id is not None:
        payload["webhook_id"] = str(webhook_id)
    if application_id is not None:
        payload["application_id"] = str(application_id)
    return payload


def interaction(
    iid: int, token: str, itype: int, data: dict[str, Any], *, application_id: int,
    channel: dict[str, Any], actor: dict[str, Any], message_payload: dict[str, Any] | None = None,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(iid), "application_id": str(application_id), "type": itype, "data": data,
        "token": token, "version": 1, "channel_id": channel["id"], "channel": channel,
        "app_permissions": "2251799813685247", "locale": "en-US", "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.get("guild_id"):
        payload["guild_id"] = channel["guild_id"]
        payload["guild_locale"] = "en-US"
        payload["member"] = member(actor)
        payload["authorizing_integration_owners"] = {"0": channel["guild_id"]}
        payload["context"] = 0
    else:
        payload["user"] = actor
        payload["context"] = 1
    if message_payload is not None:
        payload["message"] = message_payload
    return payload
