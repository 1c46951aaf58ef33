"""N simultaneous conversations through the Slack HTTP adapter of real bot processes.

Shared by ``test_two_instances`` (200 conversations: all answered, no cross-talk) and
``bench.load`` (the figures). Each conversation is a mention in its own thread asking to analyze
a different repository of the offline catalog, sent to the instances in turn, all at once; its
answer must name that repository and its stored conversation must hold only that exchange.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

from core.catalog import Catalog
from tests.reliability.conftest import Cluster, is_answer
from tests.reliability.slack_client import SlackSender, next_ts

_SIMPLE = re.compile(r"^[A-Za-z0-9-]+/[A-Za-z0-9-]+$")


def distinct_repositories(n: int) -> list[str]:
    """``n`` catalog repositories, no name contained in another (so answers can't be confused)."""
    chosen: list[str] = []
    for record in Catalog.load().records[::7]:
        name = record.full_name
        if _SIMPLE.match(name) and not any(name.lower() in c.lower() or c.lower() in name.lower() for c in chosen):
            chosen.append(name)
        if len(chosen) == n:
            return chosen
    raise AssertionError(f"only {len(chosen)} suitable repositories")


@dataclass
class LoadResult:
    conversations: int
    answered: int = 0
    latencies: dict[str, float] = field(default_factory=dict)  # thread -> seconds to the answer
    wall_seconds: float = 0.0
    cross_talk: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


async def run_load(cluster: Cluster, n: int, *, timeout: float = 90.0) -> LoadResult:
    repos = distinct_repositories(n)
    threads = [next_ts() for _ in repos]
    wanted = dict(zip(threads, repos))
    sent_at: dict[str, float] = {}
    result = LoadResult(conversations=n)

    async def send(i: int, ts: str) -> None:
        bot = cluster.bots[i % len(cluster.bots)]
        sent_at[ts] = time.monotonic()
        event = SlackSender.mention_event(f"analyze {wanted[ts]}", ts=ts, user=f"ULOAD{i:03d}")
        status, _ = await cluster.slack.event(bot.url, event, event_id=f"EvLoad{ts}")
        assert status == 200, status

    started = time.monotonic()
    await asyncio.gather(*(send(i, ts) for i, ts in enumerate(threads)))
    deadline = started + timeout
    pending = set(threads)
    while pending and time.monotonic() < deadline:
        for ts in list(pending):
            if cluster.answers(ts):
                pending.discard(ts)
        await asyncio.sleep(0.05)
    result.wall_seconds = time.monotonic() - started
    result.missing = sorted(pending)
    for ts, at in _answer_times(cluster, set(threads)).items():
        result.latencies[ts] = max(0.0, at - sent_at[ts])
    for ts in threads:
        answers = cluster.answers(ts)
        if not answers:
            continue
        result.answered += 1
        text = " ".join(m.text for m in answers)
        if len(answers) != 1 or wanted[ts].lower() not in text.lower():
            result.cross_talk.append(f"{ts}: {len(answers)} answers, wanted {wanted[ts]}")
            continue
        stored = cluster.conversation(ts)
        users = [m.content for m in stored.messages if m.role == "user"] if stored else []
        if users != [f"analyze {wanted[ts]}"]:
            result.cross_talk.append(f"{ts}: stored {users!r}")
    return result


def _answer_times(cluster: Cluster, threads: set[str]) -> dict[str, float]:
    """When the fake Slack API received each thread's answer (the call carrying its buttons)."""
    times: dict[str, float] = {}
    for call in cluster.fake.calls:
        if not call.ok or call.method not in ("chat.postMessage", "chat.update", "chat.stopStream"):
            continue
        if "omg:feedback" not in str(call.args.get("blocks")):
            continue
        thread = call.args.get("thread_ts")
        if call.method in ("chat.update", "chat.stopStream"):  # both name the message, not the thread
            stored = cluster.fake.messages.get((call.args.get("channel", ""), call.args.get("ts", "")))
            thread = stored.thread_ts if stored else None
        if thread in threads and thread not in times:
            times[thread] = call.at
    return times


__all__ = ["LoadResult", "is_answer", "run_load"]
