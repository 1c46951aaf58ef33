"""Search speed and memory with semantic ranking: the targets of docs/search.md.

    .venv/bin/python -m bench search_speed

- query embedding: p50/p95 of encoding one query (model already loaded);
- search in-process, offline: p50/p95 of a whole Search Team turn over the development queries
  (query embedding included; the model and catalog are loaded once before timing);
- model load: the first ``default_encoder()`` of the process;
- resident memory of the search core: peak RSS of this process after the catalog, the model and
  the searches (it imports the search core only, not the bot);
- ``omg ask`` cold start: wall time of ``omg ask --json`` in a fresh process, offline;
- resident memory of the bot process: peak RSS of those ``omg ask`` processes (the real bot: every
  import, the app, a turn), the figure the memory target is for, in MiB and in decimal MB (each
  process is started by a small launcher, so that the figure is its own and not this process's).

On a shared, busy host every figure is slower than on an idle one: the load average is printed.
"""

from __future__ import annotations

import asyncio
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.search_dev import load
from core.agents.base import AgentContext
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.models import Classification, Conversation, ConversationKey, Intent

P95_TARGET_MS = 30.0
RSS_TARGET_MB = 300.0  # decimal megabytes
MIB = 1024 * 1024


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def _ctx(message: str) -> AgentContext:
    return AgentContext(
        message=message,
        classification=Classification(intent=Intent.SEARCH, confidence=1.0),
        conversation=Conversation(id="speed", key=ConversationKey(platform="bench", channel="c", thread="t")),
    )


async def _search_times(team: SearchTeam, queries: list[str]) -> list[float]:
    times = []
    for query in queries:
        started = time.perf_counter()
        await team.run(_ctx(query))
        times.append((time.perf_counter() - started) * 1000)
    return times


# Runs a command and prints its wall time and peak RSS (KiB). The omg process is started by this
# small launcher rather than by the benchmark itself: a process inherits, as its own peak RSS, the
# peak of the process that started it (Linux records the parent's high-water mark at exec), and
# the benchmark holds the catalog and the model by then.
_LAUNCHER = (
    "import resource, subprocess, sys, time\n"
    "started = time.perf_counter()\n"
    "subprocess.run(sys.argv[1:], capture_output=True, check=False, timeout=300)\n"
    "seconds = time.perf_counter() - started\n"
    "print(seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def cold_ask(message: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one cold ``omg ask --json`` process, offline."""
    omg = Path(sys.executable).with_name("omg")
    env = {**os.environ, "OMG_GITHUB": "offline"}
    done = subprocess.run([sys.executable, "-c", _LAUNCHER, str(omg), "ask", "--json", message], env=env,
                          capture_output=True, text=True, check=True, timeout=330)
    seconds, peak_kib = done.stdout.split()
    return float(seconds), int(peak_kib) / 1024


def main() -> None:
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    catalog = Catalog.load()
    from core.search.embedding import default_encoder

    started = time.perf_counter()
    encoder = default_encoder()
    print(f"model load: {(time.perf_counter() - started) * 1000:.0f} ms")
    queries = [q.query for q in load()]
    embed = []
    for query in queries:
        started = time.perf_counter()
        encoder.encode([query])
        embed.append((time.perf_counter() - started) * 1000)
    print(f"query embedding: p50 {statistics.median(embed):.1f} ms  p95 {percentile(embed, 0.95):.1f} ms")
    team = SearchTeam(catalog.source())
    asyncio.run(_search_times(team, queries[:3]))  # warm: catalog vectors, caches
    from core.search import fit, semantic

    semantic.query_vector.clear()
    fit.need_vector.cache_clear()  # it holds the warm-up queries' vectors: they too are embedded again
    fit._ENCODED.clear()
    times = asyncio.run(_search_times(team, queries))
    p95 = percentile(times, 0.95)
    print(f"search in-process offline ({len(times)} queries): p50 {statistics.median(times):.1f} ms  "
          f"p95 {p95:.1f} ms  (target <= {P95_TARGET_MS:.0f} ms: {'met' if p95 <= P95_TARGET_MS else 'NOT met'})")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS, search core only (catalog + model + searches in this process): {rss:.0f} MiB")
    cold = [cold_ask("a faster grep") for _ in range(2)]
    print(f"omg ask --json cold start (offline, 'a faster grep'): {min(s for s, _ in cold):.2f} s best of {len(cold)}")
    bot = max(peak for _, peak in cold)  # the largest omg ask process, MiB
    decimal = bot * MIB / 1e6
    print(f"peak RSS, bot process (omg ask --json cold, offline): {bot:.0f} MiB = {decimal:.0f} MB  "
          f"(target <= {RSS_TARGET_MB:.0f} MB: {'met' if decimal <= RSS_TARGET_MB else 'NOT met'})")


if __name__ == "__main__":
    main()
