"""Load: N simultaneous conversations through the Slack HTTP adapter of real bot processes.

Each conversation is a mention in its own thread ("analyze <a different catalog repository>"),
all sent at once as signed Events API requests, spread over the instances; the bots run as
``python -m bot run`` (Slack HTTP mode, offline GitHub, production edit pacing of 1 s) against
the fake Slack Web API on loopback. Two layouts:

* two instances sharing Redis (REDIS_URL) -- the scale-out layout;
* one instance keeping its state in files -- the embedded default.

Reported: answered / missing / cross-talk, p50 / p95 / max latency (request sent -> answer
received by Slack), events/s (conversations / time to the last answer), and each process's
peak resident memory (VmHWM) before and after the load. Targets: every conversation answered,
none crossed; p95 <= 13 s (the coordinator design's total-turn target); memory growth of the
bot processes <= 100 MB (its "< 100 MB for 1000 conversations" budget, for 200 here).

    .venv/bin/python -m bench.load [--conversations 200] [--edit-interval 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bench._util import latency_report, report
from tests.reliability.conftest import open_cluster
from tests.reliability.load import run_load

P95_TARGET_S = 13.0
GROWTH_TARGET_MB = 100.0


async def _layout(label: str, conversations: int, edit_interval: float, *, instances: int, redis: bool) -> None:
    print(f"\n-- {label}: {conversations} simultaneous conversations, {instances} instance(s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="omg-load-") as workdir:
        async with open_cluster(Path(workdir), instances=instances, use_redis=redis,
                                OMG_SLACK_EDIT_INTERVAL=str(edit_interval), OMG_LOG_LEVEL="WARNING") as cluster:
            before = [bot.peak_rss_mb() for bot in cluster.bots]
            result = await run_load(cluster, conversations, timeout=120)
            after = [bot.peak_rss_mb() for bot in cluster.bots]
    latencies = sorted(result.latencies.values())
    last = max(latencies) if latencies else float("nan")
    report("answered", result.answered, "conv", conversations, lower_is_better=False)
    report("missing (no answer)", len(result.missing), "conv", 0)
    report("cross-talk (wrong or mixed thread)", len(result.cross_talk), "conv", 0)
    if latencies:
        latency_report("latency", latencies, P95_TARGET_S, unit="s")
        report("latency max", last, "s")
        report("events/s (answered mentions / time to last answer)", conversations / last, "ev/s")
    for n, (idle, peak) in enumerate(zip(before, after, strict=True)):
        report(f"instance {n}: peak RSS before the load", idle, "MB")
        report(f"instance {n}: peak RSS during the load", peak, "MB")
        report(f"instance {n}: growth under the load", peak - idle, "MB", GROWTH_TARGET_MB)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.load")
    parser.add_argument("--conversations", type=int, default=200)
    parser.add_argument("--edit-interval", type=float, default=1.0, help="OMG_SLACK_EDIT_INTERVAL")
    args = parser.parse_args(argv if argv is not None else (sys.argv[1:] if __name__ == "__main__" else []))
    asyncio.run(_layout("Redis, two instances", args.conversations, args.edit_interval, instances=2, redis=True))
    asyncio.run(_layout("files, one instance", args.conversations, args.edit_interval, instances=1, redis=False))


if __name__ == "__main__":
    main()
