"""Offline catalog and Search Team figures.

    .venv/bin/python -m bench search

- Catalog: size of the packaged data, load time (parse + FTS5 index; cold, in a fresh process,
  and re-built in-process), target < 300 ms.
- Translator latency, and a full offline Search Team run (translate -> scout -> screen -> score)
  on the real catalog, p50/p95: the whole offline turn target is p95 <= 30 ms, so this part should
  take a few ms.
- The Search Team against an in-memory source that sleeps 150 ms per call (like GitHub): p50/p95
  and calls per search (target for a full GitHub search turn: p95 <= 3 s).
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time

from bench._util import latency_report, report
from core.agents.base import AgentContext
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.catalog.catalog import default_data_file
from core.catalog.records import read_records
from core.models import Classification, Conversation, ConversationKey, Intent, SearchParams
from core.search.translator import RuleBasedTranslator
from tests.fakes.search_source import SearchSource

QUERIES = [
    "find React state management libraries",
    "show me Rust web frameworks",
    "popular golang orm",
    "new python testing tools",
    "hidden gem game engines under 500 stars",
    "actively maintained llm agents in typescript",
    "python machine learning",
    "c++ json library with over 1k stars",
    "command line tools",
    "top 5 most starred javascript repos",
    "static site generators written in go",
    "kubernetes monitoring",
]
ROUNDS = 20
LATENCY = 0.15


def _ctx(message: str) -> AgentContext:
    return AgentContext(
        message=message,
        classification=Classification(intent=Intent.SEARCH, confidence=1.0),
        conversation=Conversation(id="bench", key=ConversationKey(platform="bench", channel="c", thread="t")),
    )


def bench_catalog() -> Catalog:
    path = default_data_file()
    report("packaged data (gzip CSV)", path.stat().st_size / 1024, "KiB")
    code = (
        "import time; t=time.perf_counter(); from core.catalog import Catalog; t1=time.perf_counter(); "
        "c=Catalog.load(); print((time.perf_counter()-t1)*1000, (t1-t)*1000, len(c))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    report("catalog load, cold process (parse + index)", float(out[0]), "ms", 300)
    report("  (import of core.catalog + models, same process)", float(out[1]), "ms")
    samples = []
    for _ in range(5):
        started = time.perf_counter()
        dates, records = read_records(path)
        Catalog(dates, records)
        samples.append((time.perf_counter() - started) * 1000)
    report("catalog load, warm process (median of 5)", statistics.median(samples), "ms", 300)
    catalog = Catalog.load()
    report("repositories in the catalog", len(catalog), "repos")
    started = time.perf_counter()
    for _ in range(1000):
        catalog.names.resolve("zustand")
    report("names.resolve", (time.perf_counter() - started) * 1000, "µs")
    return catalog


def bench_translator() -> None:
    rules = RuleBasedTranslator()
    samples = []
    for _ in range(ROUNDS):
        for q in QUERIES:
            started = time.perf_counter()
            rules.translate_sync(q)
            samples.append((time.perf_counter() - started) * 1000)
    latency_report("translator (rules)", samples)


async def bench_offline_search(catalog: Catalog) -> None:
    team = SearchTeam(catalog.source())
    await team.run(_ctx(QUERIES[0]))  # warm-up
    samples = []
    raw = []
    for _ in range(ROUNDS):
        for q in QUERIES:
            started = time.perf_counter()
            await team.run(_ctx(q))
            samples.append((time.perf_counter() - started) * 1000)
            params = team.rules.translate_sync(q)
            started = time.perf_counter()
            catalog.search(params, sort="stars", limit=30)
            raw.append((time.perf_counter() - started) * 1000)
    latency_report("catalog FTS query (one strategy)", raw)
    latency_report("offline Search Team run (whole agent)", samples, 10)


async def bench_latency_source(catalog: Catalog) -> None:
    repos = []
    for q in QUERIES:
        params = RuleBasedTranslator().translate_sync(q)
        repos += catalog.search(params, sort="stars", limit=30) + catalog.search(params, sort="updated", limit=30)
    samples, calls = [], []
    for q in QUERIES[:6]:
        source = SearchSource(repos, latency=LATENCY)
        team = SearchTeam(source)
        started = time.perf_counter()
        await team.run(_ctx(q))
        samples.append((time.perf_counter() - started) * 1000)
        calls.append(len(source.calls))
    latency_report(f"Search Team, {int(LATENCY * 1000)} ms per source call", samples, 3000)
    report("source calls per search (mean)", statistics.mean(calls), "calls")


def main() -> None:
    catalog = bench_catalog()
    bench_translator()
    asyncio.run(bench_offline_search(catalog))
    asyncio.run(bench_latency_source(catalog))
    _ = SearchParams  # the public contract these figures are about


if __name__ == "__main__":
    main()
