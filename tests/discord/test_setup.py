"""Set-up: settings, endpoint overrides, deliberate command syncing, the privileged intent."""

from __future__ import annotations

import argparse
from pathlib import Path

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.commands.discord_sync import sync_commands
from bot.discord.settings import DiscordSettings, apply_endpoints
from tests.discord.conftest import start_harness, stop_harness
from tests.fakes.discord_fake import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord

PUT_GLOBAL = "PUT /applications/{app}/commands"
PUT_GUILD = "PUT /applications/{app}/guilds/{gid}/commands"


def test_settings_from_env() -> None:
    settings = DiscordSettings.from_env({
        "DISCORD_TOKEN": " abc ", "DISCORD_GUILD_ID": "123", "DISCORD_MESSAGE_CONTENT": "0",
        "DISCORD_SYNC_COMMANDS": "never", "DISCORD_API_URL": "http://127.0.0.1:1/api/v10/",
        "OMG_DATA_DIR": "/tmp/x",
    })
    assert settings.token == "abc" and settings.guild_id == 123
    assert settings.message_content is False and settings.sync_commands == "never"
    assert settings.api_url == "http://127.0.0.1:1/api/v10" and settings.data_dir == Path("/tmp/x")
    assert "abc" not in repr(settings)
    assert DiscordSettings.from_env({}).problems()[0].startswith("Set DISCORD_TOKEN")
    bad_guild = DiscordSettings.from_env({"DISCORD_TOKEN": "t", "DISCORD_GUILD_ID": "x"})
    assert "numeric" in bad_guild.problems()[0]
    prefixed = DiscordSettings.from_env({"DISCORD_TOKEN": "Bot t"})
    assert "without the 'Bot ' prefix" in prefixed.problems()[0]


def test_endpoint_overrides_are_restored() -> None:
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    restore = apply_endpoints(DiscordSettings(token="t", api_url="http://127.0.0.1:9/api/v10",
                                              gateway_url="ws://127.0.0.1:9/gateway"))
    assert Route.BASE == "http://127.0.0.1:9/api/v10"
    assert DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL("ws://127.0.0.1:9/gateway")
    restore()
    assert (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == (base, gateway)


async def test_commands_sync_once_then_only_when_they_change(
    fake: FakeDiscord, endpoints: None, tmp_path: Path,
) -> None:
    harness = await start_harness(fake, tmp_path)
    assert len(fake.calls_to(PUT_GLOBAL)) == 1
    assert sorted(c["name"] for c in fake.commands["global"]) == [
        "analyze", "ask", "compare", "research", "search"]
    research = next(c for c in fake.commands["global"] if c["name"] == "research")
    assert [o["name"] for o in research["options"]] == ["goal", "mode"]
    assert (tmp_path / "discord" / "commands.json").is_file()
    await harness.restart()
    assert len(fake.calls_to(PUT_GLOBAL)) == 1  # same definitions: no sync on start-up
    await stop_harness(harness)

    guild = await start_harness(fake, tmp_path, guild_id=GUILD_ID)  # scope changed
    assert len(fake.calls_to(PUT_GUILD)) == 1 and len(fake.calls_to(PUT_GLOBAL)) == 1
    await stop_harness(guild)


async def test_sync_can_be_left_to_the_command(
    fake: FakeDiscord, endpoints: None, tmp_path: Path
) -> None:
    harness = await start_harness(fake, tmp_path, sync_commands="never")
    assert fake.calls_to(PUT_GLOBAL) == []
    await stop_harness(harness)

    env = {"DISCORD_TOKEN": TOKEN, "OMG_DATA_DIR": str(tmp_path), "DISCORD_API_URL": fake.rest_base}
    args = argparse.Namespace(force=False, guild=None)
    assert await sync_commands(args, env) == 0
    assert await sync_commands(args, env) == 0  # up to date: nothing sent
    assert len(fake.calls_to(PUT_GLOBAL)) == 1
    assert await sync_commands(argparse.Namespace(force=True, guild=str(GUILD_ID)), env) == 0
    assert len(fake.calls_to(PUT_GUILD)) == 1
    assert await sync_commands(args, {"OMG_DATA_DIR": str(tmp_path)}) == 2  # no token


async def test_without_the_privileged_intent_the_bot_still_answers_mentions(
    fake: FakeDiscord, endpoints: None, tmp_path: Path,
) -> None:
    fake.privileged_content = False  # not enabled in the Developer Portal
    harness = await start_harness(fake, tmp_path)
    assert harness.backend.message_content is False
    assert len(fake.identifies) == 2  # refused with 4014, reconnected without the intent
    question = await harness.mention("hello without the intent")
    assert harness.last_bot_message(question.id).content.startswith("You said: hello without")
    await harness.say(question.id, "a follow-up Discord sends us empty")
    assert "Message Content" in harness.last_bot_message(question.id).content
    await harness.mention("a follow-up with a mention", channel=question.id)
    assert harness.last_bot_message(question.id).content.startswith("You said: a follow-up with")
    assert CHANNEL_ID
    await stop_harness(harness)


async def test_the_manifest_matches_the_code() -> None:
    import json

    import discord

    from bot.discord.client import OmgClient
    from bot.discord.commands import SlashCommands
    from core.tasks import TaskTracker

    manifest = json.loads((Path(__file__).parents[2] / "manifests" / "discord.json").read_text())
    client = OmgClient(DiscordSettings(token="t"), message_content=True)
    SlashCommands(client=client, turns=None, tracker=TaskTracker()).register(client.tree)
    assert manifest["commands"] == [c.to_dict(client.tree) for c in client.tree.get_commands()]
    assert manifest["intents"]["value"] == client.intents.value
    needed = discord.Permissions(send_messages=True, embed_links=True, read_message_history=True,
                                 create_public_threads=True, send_messages_in_threads=True)
    assert manifest["permissions"]["value"] == str(needed.value) == "309237729280"
    assert "309237729280" in (Path(__file__).parents[2] / "manifests" / "discord.md").read_text()
    await client.close()
