"""Discord scale-out: DISCORD_SHARD_ID / DISCORD_SHARD_COUNT split the guilds between instances."""

from __future__ import annotations

from bot.discord.client import OmgClient
from bot.discord.settings import DiscordSettings


async def test_shard_settings_reach_the_client() -> None:
    settings = DiscordSettings.from_env({"DISCORD_TOKEN": "t", "DISCORD_SHARD_ID": "1", "DISCORD_SHARD_COUNT": "3"})
    assert settings.problems() == []
    client = OmgClient(settings, message_content=True)
    assert (client.shard_id, client.shard_count) == (1, 3)
    plain = OmgClient(DiscordSettings.from_env({"DISCORD_TOKEN": "t"}), message_content=True)
    assert (plain.shard_id, plain.shard_count) == (None, None)


def test_inconsistent_shards_are_reported() -> None:
    for env in ({"DISCORD_SHARD_ID": "2"}, {"DISCORD_SHARD_ID": "3", "DISCORD_SHARD_COUNT": "3"},
                {"DISCORD_SHARD_ID": "x", "DISCORD_SHARD_COUNT": "2"}):
        settings = DiscordSettings.from_env({"DISCORD_TOKEN": "t", **env})
        assert any("DISCORD_SHARD_ID" in p for p in settings.problems())
        assert settings.shard_id is None and settings.shard_count is None
