"""Progress: one status message, edited at most once a second, latest state wins, 429s honoured."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.discord.payloads import Place
from bot.discord.progress import Poster
from bot.progress import MessageRef
from bot.discord.outgoing import Outgoing
from core.pacing.editor import RetryAfter
from tests.discord.conftest import DiscordHarness, start_harness, stop_harness
from tests.fakes.discord_fake import CHANNEL_ID, FakeDiscord

EDIT = "PATCH /channels/{cid}/messages/{mid}"


async def test_a_burst_of_progress_is_coalesced_into_paced_edits(discord_bot: DiscordHarness) -> None:
    started = time.monotonic()
    question = await discord_bot.mention("burst of steps")
    elapsed = time.monotonic() - started
    [status] = discord_bot.bot_messages(question.id)
    # 40 events over ~2.4 s: a handful of edits, never two within a second, the latest shown
    assert 2 <= len(status.channel_edits) <= int(elapsed) + 2, status.channel_edits
    gaps = [b - a for a, b in zip(status.channel_edits, status.channel_edits[1:], strict=False)]
    assert min(gaps) >= 0.95, gaps
    progress = [h for h in status.history if "Step" in h]
    assert progress and all("⏳" in h for h in progress)
    numbers = [int(h.split("Step ")[1].split(" ")[0]) for h in progress]
    assert numbers == sorted(numbers)  # in order, never an older state after a newer one
    assert status.content.startswith("You said: burst of steps")


async def test_a_429_on_an_edit_is_waited_out(slow_bot: DiscordHarness) -> None:
    fake = slow_bot.fake
    fake.ratelimit(EDIT, times=1, retry_after=0.5)
    question = await slow_bot.mention("find state libraries")

    edits = fake.calls_to(EDIT)
    limited = [c for c in edits if c.status == 429]
    assert len(limited) == 1
    retry = next(c for c in edits if c.at > limited[0].at and c.path == limited[0].path)
    assert retry.at - limited[0].at >= 0.45  # discord.py waited for retry_after
    [answer] = slow_bot.bot_messages(question.id)
    assert answer.content.startswith("Found **2** repositories")
    assert answer.embeds and answer.buttons()


@pytest.mark.parametrize("retry_after", [31.0])
async def test_a_wait_past_the_limit_becomes_the_editors_retry_after(
    fake: FakeDiscord, endpoints: None, tmp_path: Path, retry_after: float,
) -> None:
    harness = await start_harness(fake, tmp_path, max_ratelimit_wait=30.0)
    try:
        assert harness.backend.client is not None
        poster = Poster(harness.backend.client)
        place = Place(guild=None, channel=str(CHANNEL_ID))
        posted = await poster.send(place, Outgoing(content="status"))
        fake.ratelimit(EDIT, times=1, retry_after=retry_after)
        with pytest.raises(RetryAfter) as caught:
            await poster.edit(MessageRef(CHANNEL_ID, posted.id), Outgoing(content="newer"))
        assert caught.value.seconds == pytest.approx(retry_after)
    finally:
        await stop_harness(harness)
