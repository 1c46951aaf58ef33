"""Malformed Discord gateway payloads against a real ``python -m bot run`` (Discord + Redis).

The process talks to the fake Discord (REST + gateway on loopback) through ``DISCORD_API_URL`` /
``DISCORD_GATEWAY_URL``. Broken dispatches, hostile button ids and odd text never kill it: each
gets a clean refusal (an ephemeral note, or nothing), and a normal mention is answered after.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.fakes.discord_fake import ALICE, CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord
from tests.reliability.conftest import REDIS_URL, eventually, require_redis
from tests.reliability.procs import BotProcess

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def discord_bot(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    client = require_redis()
    prefix = "omgtest:discord-bad-input:"
    fake = FakeDiscord()
    await fake.start()
    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_URL": fake.rest_base, "DISCORD_GATEWAY_URL": fake.gateway_url,
           "DISCORD_GUILD_READY_TIMEOUT": "0.05", "OMG_GITHUB": "offline", "REDIS_URL": REDIS_URL,
           "OMG_REDIS_PREFIX": prefix, "OMG_LOG_LEVEL": "INFO", "OMG_SHUTDOWN_GRACE": "3"}
    bot = await BotProcess.start("discord", env, tmp_path_factory.mktemp("discord"),
                                 ready=lambda: bool(fake.identifies))
    try:
        yield fake, bot
    finally:
        await bot.stop()
        await fake.stop()
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)


async def answered(fake: FakeDiscord, text: str, timeout: float = 30) -> list[Any]:
    """Mention the bot with ``text``; the bot's messages in the thread it opens."""
    question = await fake.user_message(CHANNEL_ID, text, author=ALICE, mention_bot=True)

    def replies() -> list[Any]:
        found = [m for m in fake.in_channel(question.id) if m.by_bot and not m.ephemeral]
        # a status message ("⏳ Searching ...") means the answer is still on its way; an answer may
        # itself end in "…" (a clipped description), so that is no sign
        return found if found and not any(m.content.startswith("⏳") for m in found) else []

    return await eventually(replies, timeout=timeout)


async def test_a_normal_mention_is_answered(discord_bot: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = discord_bot
    replies = await answered(fake, "find react state management libraries", timeout=45)
    assert replies and bot.alive()


def _broken_payloads() -> list[tuple[str, dict[str, Any]]]:
    channel = str(CHANNEL_ID)
    return [
        ("MESSAGE_CREATE", {}),
        ("MESSAGE_CREATE", {"id": "not-a-snowflake", "channel_id": None, "content": 5, "author": "me"}),
        ("MESSAGE_CREATE", {"id": "1", "channel_id": channel, "guild_id": str(GUILD_ID), "content": "hi",
                            "author": {"id": "x"}, "mentions": "everyone", "timestamp": "yesterday"}),
        ("INTERACTION_CREATE", {"type": 3, "id": "2", "token": "t"}),
        ("INTERACTION_CREATE", {"type": 99, "id": "3", "token": "t", "application_id": "1",
                                "data": {"custom_id": ["omg:approve"]}, "channel_id": channel}),
        ("THREAD_CREATE", {"id": "4"}),
        ("TOTALLY_NEW_EVENT", {"what": "ever"}),
    ]


@pytest.mark.parametrize("event, data", _broken_payloads(), ids=lambda v: v if isinstance(v, str) else "")
async def test_broken_gateway_payloads_do_not_kill_the_bot(
    discord_bot: tuple[FakeDiscord, BotProcess], event: str, data: dict[str, Any]
) -> None:
    fake, bot = discord_bot
    await fake.dispatch(event, data)
    await asyncio.sleep(0.2)
    assert bot.alive(), bot.tail()


async def test_hostile_button_ids_get_a_clean_refusal(discord_bot: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = discord_bot
    [answer, *_] = await answered(fake, "find python web frameworks")
    ours = ("omg:a:../../etc/passwd:1", "omg:a:" + "9" * 90, "omg:r:not-a-session:zz", "omg:c:💥💥",
            "omg:s:" + "#" * 20)  # the bot's own "omg:<code>:<data>" shape, hostile data
    for custom_id in ours:
        record = await fake.click(answer.id, custom_id)
        await eventually(lambda: record.answered_after is not None, timeout=10)  # refused, in time
    for custom_id in ("nonsense", "omg:🦄", "omg:z:unknown-code"):  # not ours: left alone
        record = await fake.click(answer.id, custom_id)
        await asyncio.sleep(0.3)
        assert record.responses == []
    assert bot.alive(), bot.tail()


@pytest.mark.parametrize("text", ["   ", "x" * 1990, "\x00\x1b[31m find rust web frameworks \u202e",
                                  "ابحث عن مكتبات react", "🦀🦀 find rust libraries 🦀🦀"])
async def test_odd_messages_get_a_reply(discord_bot: tuple[FakeDiscord, BotProcess], text: str) -> None:
    fake, bot = discord_bot
    replies = await answered(fake, text)
    assert "Traceback" not in replies[-1].text() and "went wrong on my side" not in replies[-1].text()


async def test_still_answering_and_no_errors_logged(discord_bot: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = discord_bot
    assert await answered(fake, "compare zustand and jotai")
    errors = [line for line in bot.log_lines() if line.get("level") in ("error", "critical")]
    assert errors == [], errors[:3]
