"""Search, analyze and compare turns against the fake GitHub with 150 ms per call, REST only
("before") and with GraphQL batching ("after"), side by side; then two instances on one Redis.
Searches have a third column between the two, "signals only": GraphQL signals with REST search
(``OMG_GITHUB_GRAPHQL_SEARCH=off``), as the bot searched before its searches moved to GraphQL.

    .venv/bin/python -m bench github_turns

Each sample is a full coordinator turn through the real agents (SearchTeam / Auditor /
Comparator -> GitHubSource -> GitHubClient over HTTP -> tests.fakes.github.FakeGitHub on
loopback, then the DefaultSynthesizer). The classifier is scripted (it has its own benchmark).
"Cold" turns use a fresh source (empty cache: every call goes to GitHub); "warm" turns repeat
the same turn on the same source. "before" is the same code with ``OMG_GITHUB_GRAPHQL=off``.
The process keeps the sentence vectors of candidate texts it has encoded (as the bot does), so
cold searches after the first columns embed nothing new; "after, first sight" clears them before
each turn: every candidate is embedded, as on a search no earlier turn of the process has seen.
The fake runs in this process: it scans its world once per distinct search (the repeat is a
lookup), so its own CPU is not counted as the bot's; the 150 ms stand for GitHub's time.

Targets (issue 14, cold, with a token): search <= 4 calls and p95 <= 0.6 s, analyze <= 2 calls,
compare of three <= 3 calls; >= 1,000 cold searches an hour per token, computed from the calls
and GraphQL points measured here and GitHub's budgets (core 5,000 calls an hour, GraphQL 5,000
points an hour, search 30 calls a minute); the second of two instances on one Redis makes 0
calls for a search the first already made. Anonymous use: search spends no core calls, and an
analysis fits GitHub's 60 core calls an hour.
The search queries below are the ones the search code was developed on: development figures.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from bench._turns import coordinator, timed_turn
from bench._util import latency_report, report
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.github import FallbackSource, GitHubSource, build_source
from core.models import Classification, Comparison, Intent, RepoDetailData, RepoList, Reply
from core.search import fit
from core.sources.base import RepoSource
from tests.fakes.github import FakeGitHub

LATENCY = 0.15
SAMPLES = 10
SEARCHES = [
    "find react state management libraries",
    "python web frameworks",
    "rust command line tools",
    "javascript testing frameworks",
    "go http router",
    "machine learning libraries in python",
]
ANALYZE = ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js", "d3/d3", "yt-dlp/yt-dlp"]
COMPARE = [
    ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js"],
    ["vuejs/vue", "react/react", "sveltejs/svelte"],
]
TOKEN = "bench-token"
CALL_TARGET = {"search": 4, "analyze": 2, "compare (3 repos)": 3}
LATENCY_TARGET = {"search": 600, "analyze": 2000, "compare (3 repos)": 3000}
HOURLY = {"core": 5000, "graphql": 5000, "search": 30 * 60}  # GitHub's budgets with a token


@dataclass
class Series:
    cold_ms: list[float] = field(default_factory=list)
    cold_calls: list[int] = field(default_factory=list)
    by_resource: Counter[str] = field(default_factory=Counter)  # summed over the cold turns
    points: int = 0  # GraphQL points over the cold turns
    warm_calls: list[int] = field(default_factory=list)
    breakdown: Counter[str] = field(default_factory=Counter)
    failed: list[str] = field(default_factory=list)  # turns that gave no answer (timed out)
    stall_ms: list[float] = field(default_factory=list)  # longest event-loop stall per turn


def _resource(path: str) -> str:
    return "graphql" if path == "/graphql" else "search" if path.startswith("/search/") else "core"


def _live(source: RepoSource) -> GitHubSource:
    assert isinstance(source, FallbackSource) and isinstance(source.primary, GitHubSource)
    return source.primary


async def _series(gh: FakeGitHub, catalog: Catalog, turns: list[tuple[Classification, str]],
                  expect: type, env: dict[str, str], *, first_sight: bool = False) -> Series:
    out = Series()
    for i in range(SAMPLES):
        classification, text = turns[i % len(turns)]
        if first_sight:  # texts this process has never encoded: every candidate is embedded
            fit._ENCODED.clear()
        source = build_source(env, catalog.source())
        agent = coordinator(source, classification, search=SearchTeam(source))
        before = len(gh.calls)
        stalls: list[float] = []
        ticker = asyncio.create_task(_tick(stalls))
        ms, calls, reply = await timed_turn(gh, agent, text)
        ticker.cancel()
        out.stall_ms.append(max(stalls, default=0.0))
        assert isinstance(source, FallbackSource) and source.fallbacks == 0, "GitHub answered"
        if not isinstance(reply.structured_data, expect):  # a turn past its deadline on a busy machine
            out.failed.append(reply.markdown[:120])
            await source.aclose()
            continue
        out.cold_ms.append(ms)
        out.cold_calls.append(calls)
        out.by_resource.update(_resource(c.path) for c in gh.calls[before:])
        out.points += _live(source).client.stats.graphql_cost
        if not out.breakdown:
            out.breakdown.update(c.path.split("?")[0] if c.path.startswith("/search") or c.path == "/graphql"
                                 else "/repos/{o}/{r}" + c.path.split("/", 4)[-1].join(["/", ""])
                                 for c in gh.calls[before:])
        _, warm, _ = await timed_turn(gh, agent, text)
        out.warm_calls.append(warm)
        await source.aclose()
    return out


async def _tick(stalls: list[float], every: float = 0.005) -> None:
    """How late a 5 ms timer fires, again and again: what other conversations would wait."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(every)
        stalls.append((time.perf_counter() - started - every) * 1000)


def _print(label: str, columns: list[tuple[str, Series]]) -> None:
    print(f"  -- {label}: " + " | ".join(name for name, _ in columns) + " --")
    for name, series in columns:
        target = CALL_TARGET.get(label) if name == "after" else None
        latency_report(f"{label} {name}: cold turn", series.cold_ms,
                       LATENCY_TARGET.get(label) if name == "after" else None)
        report(f"{label} {name}: GitHub calls per cold turn (max)", max(series.cold_calls), "calls", target)
        report(f"{label} {name}: GitHub calls per cold turn (mean)", statistics.mean(series.cold_calls), "calls")
        report(f"{label} {name}: GraphQL points per cold turn (mean)", series.points / len(series.cold_calls), "points")
        report(f"{label} {name}: GitHub calls per warm turn (max)", max(series.warm_calls), "calls")
        report(f"{label} {name}: longest event-loop stall in a cold turn", max(series.stall_ms), "ms")
        if series.failed:
            print(f"    {len(series.failed)} of {SAMPLES} cold turns gave no answer: {series.failed[0]!r}")
        print("    calls in one cold turn: " + ", ".join(f"{k} x{v}" for k, v in series.breakdown.most_common()))


def _per_hour(series: Series, name: str) -> None:
    """Cold searches an hour one token allows: each budget over what one search spends from it."""
    turns = len(series.cold_calls)
    spent = {"core": series.by_resource["core"] / turns, "search": series.by_resource["search"] / turns,
             "graphql": series.points / turns}
    limits = {k: HOURLY[k] / v for k, v in spent.items() if v > 0}
    for resource, searches in sorted(limits.items()):
        print(f"    {resource}: {spent[resource]:.2f} a search of {HOURLY[resource]:,} an hour -> "
              f"{searches:,.0f} cold searches an hour")
    binding = min(limits, key=limits.__getitem__)
    report(f"{name}: cold searches an hour per token (bound by {binding})", limits[binding], "searches",
           1000 if name == "after" else None, lower_is_better=False)


async def _with_token(catalog: Catalog) -> None:
    async with FakeGitHub(latency=LATENCY, search_budget=10_000, token=TOKEN) as gh:
        after_env, before_env = gh.env(), gh.env(OMG_GITHUB_GRAPHQL="off")
        warm_up = build_source(after_env, catalog.source())
        await timed_turn(gh, coordinator(warm_up, Classification(
            intent=Intent.ANALYZE, confidence=0.99, repos=[ANALYZE[0]])), "warm up")
        # loads the local models a search uses, so the first measured turn is not a model load
        search = Classification(intent=Intent.SEARCH, confidence=0.99)
        await timed_turn(gh, coordinator(warm_up, search, search=SearchTeam(warm_up)), "warm up libraries")
        await warm_up.aclose()
        plans: list[tuple[str, list[tuple[Classification, str]], type]] = [
            ("search", [(Classification(intent=Intent.SEARCH, confidence=0.99), q) for q in SEARCHES], RepoList),
            ("analyze", [(Classification(intent=Intent.ANALYZE, confidence=0.99, repos=[n]), f"analyze {n}")
                         for n in ANALYZE], RepoDetailData),
            ("compare (3 repos)", [(Classification(intent=Intent.COMPARE, confidence=0.99, repos=names),
                                    "compare " + " vs ".join(names)) for names in COMPARE], Comparison),
        ]
        for label, turns, expect in plans:
            columns = [("before", await _series(gh, catalog, turns, expect, before_env))]
            if label == "search":
                signals_only = gh.env(OMG_GITHUB_GRAPHQL_SEARCH="off")
                columns.append(("signals only", await _series(gh, catalog, turns, expect, signals_only)))
            columns.append(("after", await _series(gh, catalog, turns, expect, after_env)))
            if label == "search":
                columns.append(("after, first sight", await _series(gh, catalog, turns, expect, after_env,
                                                                     first_sight=True)))
            _print(label, columns)
            if label == "search":
                for name, series in columns[1:-1]:
                    print(f"  -- search budget per token ({name}) --")
                    _per_hour(series, name)


async def _two_instances(catalog: Catalog) -> None:
    from redis.asyncio import Redis

    redis = Redis.from_url("redis://127.0.0.1:6379/15")
    try:
        await redis.ping()
    except Exception as exc:  # noqa: BLE001 - the figure needs a Redis
        print(f"  -- two instances on one Redis: skipped, no Redis at 127.0.0.1:6379 ({exc!r})")
        await redis.aclose()
        return
    prefix = f"omgbench:{uuid.uuid4().hex[:8]}:"
    async with FakeGitHub(latency=LATENCY, search_budget=10_000, token=TOKEN) as gh:
        env = gh.env(OMG_REDIS_PREFIX=prefix)
        second_calls: list[int] = []
        for text in SEARCHES:
            classification = Classification(intent=Intent.SEARCH, confidence=0.99)
            first, second = (build_source(env, catalog.source(), redis=redis) for _ in range(2))
            replies: list[Reply] = []
            for source in (first, second):
                _, calls, reply = await timed_turn(gh, coordinator(source, classification,
                                                                   search=SearchTeam(source)), text)
                replies.append(reply)
            second_calls.append(calls)
            await first.aclose()
            await second.aclose()
    async for key in redis.scan_iter(f"{prefix}*"):
        await redis.delete(key)
    await redis.aclose()
    print("  -- two instances on one Redis: the second instance's first search of the same query --")
    report("second instance: GitHub calls per search (max)", max(second_calls), "calls", 0)


async def _anonymous(catalog: Catalog) -> None:
    async with FakeGitHub(latency=LATENCY, search_budget=10_000, core_budget=60) as gh:
        print("  -- anonymous (no GITHUB_TOKEN: REST only, 60 core calls an hour) --")
        search = [(Classification(intent=Intent.SEARCH, confidence=0.99), q) for q in SEARCHES]
        series = await _series(gh, catalog, search, RepoList, gh.env())
        latency_report("anonymous search: cold turn", series.cold_ms)
        report("anonymous search: core calls per cold turn (total)", series.by_resource["core"], "calls", 0)
        report("anonymous search: GraphQL calls (total)", series.by_resource["graphql"], "calls", 0)
        analyze = [(Classification(intent=Intent.ANALYZE, confidence=0.99, repos=[n]), f"analyze {n}")
                   for n in ANALYZE]
        series = Series()
        for classification, text in analyze:  # each analysis with the whole hour's 60 calls left
            gh.used["core"] = 0
            source = build_source(gh.env(), catalog.source())
            before = len(gh.calls)
            ms, calls, reply = await timed_turn(gh, coordinator(source, classification), text)
            assert isinstance(reply.structured_data, RepoDetailData), reply.markdown[:200]
            series.cold_ms.append(ms)
            series.cold_calls.append(calls)
            series.by_resource.update(_resource(c.path) for c in gh.calls[before:])
            await source.aclose()
        latency_report("anonymous analyze: cold turn", series.cold_ms)
        report("anonymous analyze: core calls per cold turn (max)", max(series.cold_calls), "calls", 60)
        report("anonymous analyze: GraphQL calls (total)", series.by_resource["graphql"], "calls", 0)
        print(f"    ~{60 / statistics.mean(series.cold_calls):.1f} cold analyses an hour on 60 anonymous calls")


async def _run() -> None:
    catalog = Catalog.load()
    print(f"  fake GitHub: {LATENCY * 1000:.0f} ms per call; {SAMPLES} cold + {SAMPLES} warm turns "
          "each; development figures (the queries the search code was tuned on)")
    await _with_token(catalog)
    await _two_instances(catalog)
    await _anonymous(catalog)


def main() -> None:
    asyncio.run(_run())


if __name__ == "__main__":
    main()
