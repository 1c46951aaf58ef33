"""Discord adapter: how often status messages are edited under a burst of progress, and how fast
interactions are acknowledged.

The real discord.py client (``DiscordBackend`` with the scripted core of the Discord tests)
against the fake Discord on loopback (``tests.fakes.discord_fake``), in one process. Scenario:
``--threads`` mentions at once, each answered by an agent that reports ``--events`` progress steps
over ~2.4 s (a naive adapter would edit once per event), one 429 injected on the edit route,
and ``--commands`` slash commands at once. Targets (issue 7): no message edited faster than
once per second; every interaction answered inside 3 s.

    .venv/bin/python -m bench.discord_progress [--threads 20] [--events 40] [--commands 30]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bench._util import latency_report, report
from bot.discord import DiscordBackend
from bot.discord.settings import DiscordSettings
from tests.discord.scripted import ChatAgent, build_bot_app
from tests.fakes.discord_fake import CHANNEL_ID, TOKEN, FakeDiscord

MIN_GAP_TARGET_S = 1.0
ACK_TARGET_MS = 3000.0
EDIT = "PATCH /channels/{cid}/messages/{mid}"


async def run(threads: int, events: int, commands: int) -> None:
    fake = FakeDiscord()
    await fake.start()
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = fake.rest_base, yarl.URL(fake.gateway_url)
    app = build_bot_app()
    agents = app.service.coordinator.agents
    chat = agents[next(i for i in agents if i.value == "chat")]
    assert isinstance(chat, ChatAgent)
    chat.burst_events = events
    settings = DiscordSettings(token=TOKEN, guild_ready_timeout=0.05, shutdown_grace=30,
                               data_dir=Path(tempfile.mkdtemp()))
    backend = DiscordBackend(app.ports, settings=settings)
    try:
        await backend.start()
        fake.ratelimit(EDIT, times=1, retry_after=0.5)
        started = time.monotonic()
        questions = [await fake.user_message(CHANNEL_ID, f"burst {i}", mention_bot=True)
                     for i in range(threads)]
        records = await asyncio.gather(*(fake.slash("ask", {"question": f"hello {i}"})
                                         for i in range(commands)))
        await asyncio.sleep(0.1)
        await backend.idle()
        elapsed = time.monotonic() - started
        _report(fake, questions, records, events, elapsed)
    finally:
        await backend.shutdown()
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
        await fake.stop()


def _report(fake: FakeDiscord, questions: list, records: list, events: int, elapsed: float) -> None:
    statuses = [m for q in questions for m in fake.in_channel(q.id) if m.by_bot]
    edits = [len(m.channel_edits) for m in statuses]
    gaps = [b - a for m in fake.messages.values()
            for a, b in zip(m.channel_edits, m.channel_edits[1:], strict=False)]
    acks = [r.answered_after * 1000 for r in records if r.answered_after is not None]
    limited = [c for c in fake.calls_to(EDIT) if c.status == 429]
    answered = sum(1 for m in statuses if m.content.startswith("You said: burst"))
    print(f"  {len(questions)} threads x {events} progress events, {len(records)} slash commands, "
          f"{elapsed:.1f} s wall, {len(fake.calls)} REST calls, {len(limited)} x 429 injected")
    report("answers delivered", answered, "threads", len(questions), lower_is_better=False)
    report("edits per status message (mean)", statistics.mean(edits), "edits")
    report("edits per status message (max)", max(edits), "edits")
    report("naive edits per message (one per event)", events + 1, "edits")
    report("edit reduction vs naive", (events + 1) / statistics.mean(edits), "x")
    report("min gap between edits of one message", min(gaps) if gaps else float("inf"), "s",
           MIN_GAP_TARGET_S, lower_is_better=False)
    latency_report("interaction ack", acks, ACK_TARGET_MS, tail=99)
    report("interactions answered", len(acks), "of", len(records), lower_is_better=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.discord_progress")
    parser.add_argument("--threads", type=int, default=20)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--commands", type=int, default=30)
    args = parser.parse_args(argv if argv is not None else [])
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.threads, args.events, args.commands))


if __name__ == "__main__":
    main(sys.argv[1:])
