"""Scenario harness: the real discord.py client against the fake Discord on loopback.

The ``endpoints`` fixture points discord.py's documented endpoints (``Route.BASE``,
``DiscordWebSocket.DEFAULT_GATEWAY``) at the fake and restores them afterwards.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import BotApp
from bot.discord import DiscordBackend
from bot.discord.settings import DiscordSettings
from tests.discord.scripted import ScriptedResearch, build_bot_app
from tests.fakes.discord_fake import ALICE, BOT_ID, CHANNEL_ID, TOKEN, FakeDiscord, StoredMessage


class DiscordHarness:
    def __init__(self, fake: FakeDiscord, app: BotApp, settings: DiscordSettings) -> None:
        self.fake = fake
        self.app = app
        self.settings = settings
        self.backend = DiscordBackend(app.ports, settings=settings)
        self._unanswered: set[int] = set()

    async def start(self) -> None:
        await self.backend.start()

    async def restart(self) -> None:
        """A new process, as far as the adapter knows: a new backend and client, nothing kept."""
        await self.backend.shutdown()
        self.backend = DiscordBackend(self.app.ports, settings=self.settings)
        await self.backend.start()

    async def settle(self, timeout: float = 10.0) -> None:
        await asyncio.sleep(0.05)  # let the gateway frame reach the client
        # interactions are answered before any background work starts: on a loaded machine
        # the frame may take longer than the pause above, so wait for their first answers too
        # (a bounded wait: an interaction the bot rightly leaves alone is waited for only once)
        deadline = asyncio.get_running_loop().time() + 2.0
        while asyncio.get_running_loop().time() < deadline:
            pending = [i for i, r in self.fake.interactions.items()
                       if not r.responses and i not in self._unanswered]
            if not pending:
                break
            await asyncio.sleep(0.01)
        else:
            self._unanswered.update(pending)
        await asyncio.wait_for(self.backend.idle(), timeout)

    async def mention(self, text: str, *, user: int = ALICE, channel: int = CHANNEL_ID) -> StoredMessage:
        question = await self.fake.user_message(channel, text, author=user, mention_bot=True)
        await self.settle()
        return question

    async def say(self, channel: int, text: str, *, user: int = ALICE) -> StoredMessage:
        message = await self.fake.user_message(channel, text, author=user)
        await self.settle()
        return message

    def bot_messages(self, channel: int) -> list[StoredMessage]:
        """What everyone sees from the bot there (ephemeral notes left out)."""
        return [m for m in self.fake.in_channel(channel) if m.by_bot and not m.ephemeral]

    def last_bot_message(self, channel: int) -> StoredMessage:
        return self.bot_messages(channel)[-1]


def button(message: StoredMessage, label: str) -> dict:
    for b in message.buttons():
        if label.lower() in (b.get("label") or "").lower():
            return b
    raise AssertionError(f"no button like {label!r} in {[b.get('label') for b in message.buttons()]}")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def endpoints(fake: FakeDiscord) -> Iterator[None]:
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.rest_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


def bot_settings(data_dir: Path, **overrides: object) -> DiscordSettings:
    values: dict[str, object] = {"token": TOKEN, "guild_ready_timeout": 0.05, "data_dir": data_dir,
                                 "shutdown_grace": 5.0, "edit_interval": 1.0}
    values.update(overrides)
    return DiscordSettings(**values)  # type: ignore[arg-type]


async def start_harness(fake: FakeDiscord, data_dir: Path, *, step_delay: float = 0.0,
                        **overrides: object) -> DiscordHarness:
    harness = DiscordHarness(fake, build_bot_app(step_delay=step_delay, research=ScriptedResearch(
        step_delay=step_delay)), bot_settings(data_dir, **overrides))
    await harness.start()
    return harness


async def stop_harness(harness: DiscordHarness) -> None:
    await harness.backend.shutdown()
    assert harness.fake.violations == [], harness.fake.violations
    late = [i for i in harness.fake.interactions.values()
            if i.answered_after is None or i.answered_after > 3.0]
    assert late == [], "interactions not answered within 3 s"
    for message in harness.fake.messages.values():  # the paced edits (not a click's own update)
        gaps = [b - a for a, b in zip(message.channel_edits, message.channel_edits[1:], strict=False)]
        assert all(g >= 0.95 for g in gaps), f"message {message.id} edited {gaps} apart"


@pytest.fixture
async def discord_bot(
    fake: FakeDiscord, endpoints: None, tmp_path: Path
) -> AsyncIterator[DiscordHarness]:
    harness = await start_harness(fake, tmp_path)
    yield harness
    await stop_harness(harness)


@pytest.fixture
async def slow_bot(
    fake: FakeDiscord, endpoints: None, tmp_path: Path
) -> AsyncIterator[DiscordHarness]:
    """Agents pause between steps, so the status message gets edited."""
    harness = await start_harness(fake, tmp_path, step_delay=0.6)
    yield harness
    await stop_harness(harness)


__all__ = ["BOT_ID", "DiscordHarness", "button", "start_harness", "stop_harness"]
