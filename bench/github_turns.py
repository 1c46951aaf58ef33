"""Search, analyze and compare turns against the fake GitHub REST API with 150 ms per call.

    .venv/bin/python -m bench github_turns

Each sample is a full coordinator turn through the real agents (SearchTeam / Auditor /
Comparator -> GitHubSource -> GitHubClient over HTTP -> tests.fakes.github.FakeGitHub on
loopback, then the DefaultSynthesizer). The classifier is scripted (it has its own benchmark).
"Cold" turns use a fresh source (empty cache: every call goes to GitHub); "warm" turns repeat
the same turn on the same source (fresh cache entries and ETag revalidation).

Targets (issue 3): search p95 <= 3 s, analyze p95 <= 2 s, compare (3 repos) p95 <= 3 s.
The origin project: search 30-45 s per uncached query, against its own 8-10 s target.

Call budget per cold turn (``core/search/SCORING.md``, "Call budget"): with a token, search
<= 40 calls (light signals for 12 candidates), analyze and compare full; anonymous (60 calls an
hour), search spends no core calls at all. Run with a token (the fake then requires it) and
anonymous (the fake reports a core limit of 60).
"""

from __future__ import annotations

import asyncio
import re
import statistics
from collections import Counter

from bench._turns import coordinator, timed_turn
from bench._util import latency_report, report
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.github import FallbackSource, build_source
from core.models import Classification, Comparison, Intent, RepoDetailData, RepoList, Reply
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
ORIGIN = "origin: search 30-45 s per uncached query (its target 8-10 s); no Auditor/Comparator"
TOKEN = "bench-token"
CALL_BUDGET = {"search": 40, "analyze": 20, "compare (3 repos)": 60}  # cold turn, with a token
ANONYMOUS_CORE_BUDGET = 0  # anonymous search: core calls per cold turn (search calls apart)
BEFORE = "before signal depths: 188 calls per cold search turn (12 candidates x ~15 calls + 3 searches)"


async def _turn(gh: FakeGitHub, source: RepoSource, classification: Classification,
                text: str) -> tuple[float, int, Reply]:
    return await timed_turn(gh, coordinator(source, classification, search=SearchTeam(source)), text)


def _endpoint(path: str) -> str:
    path = re.sub(r"^/repos/[^/]+/[^/]+", "/repos/{o}/{r}", path)
    return re.sub(r"/issues/\d+/", "/issues/{n}/", path)


async def _series(gh: FakeGitHub, catalog: Catalog, label: str, turns: list[tuple[Classification, str]],
                  expect: type, target_ms: float, call_budget: int | None,
                  core_budget: int | None = None) -> None:
    cold_ms: list[float] = []
    cold_calls: list[int] = []
    cold_core: list[int] = []
    warm_ms: list[float] = []
    warm_calls: list[int] = []
    breakdown: Counter[str] = Counter()
    for i in range(SAMPLES):
        classification, text = turns[i % len(turns)]
        source = build_source(gh.env(), catalog.source())
        before = len(gh.calls)
        ms, calls, reply = await _turn(gh, source, classification, text)
        assert isinstance(reply.structured_data, expect), reply.markdown[:500]
        assert isinstance(source, FallbackSource) and source.fallbacks == 0, "GitHub answered"
        cold_ms.append(ms)
        cold_calls.append(calls)
        cold_core.append(sum(1 for c in gh.calls[before:] if not c.path.startswith("/search/")))
        if i == 0:
            breakdown.update(_endpoint(c.path) for c in gh.calls[before:])
        ms, calls, _ = await _turn(gh, source, classification, text)
        warm_ms.append(ms)
        warm_calls.append(calls)
        await source.aclose()  # type: ignore[attr-defined]
    latency_report(f"{label} turn, cold", cold_ms, target_ms)
    report(f"{label} GitHub calls per cold turn (max)", max(cold_calls), "calls", call_budget)
    report(f"{label} GitHub calls per cold turn (mean)", statistics.mean(cold_calls), "calls")
    report(f"{label} core-API calls per cold turn (max)", max(cold_core), "calls", core_budget)
    latency_report(f"{label} turn, warm (cache + ETags)", warm_ms)
    report(f"{label} GitHub calls per warm turn (max)", max(warm_calls), "calls")
    print("    calls in one cold turn: " + ", ".join(f"{k} x{v}" for k, v in breakdown.most_common()))


async def _with_token(catalog: Catalog) -> None:
    async with FakeGitHub(latency=LATENCY, search_budget=10_000, token=TOKEN) as gh:
        print("  -- with GITHUB_TOKEN (5,000 calls an hour) --")
        warm_up = build_source(gh.env(), catalog.source())
        await _turn(gh, warm_up, Classification(intent=Intent.ANALYZE, confidence=0.99,
                                                repos=[ANALYZE[0]]), "warm up")
        await warm_up.aclose()  # type: ignore[attr-defined]
        search = [(Classification(intent=Intent.SEARCH, confidence=0.99), q) for q in SEARCHES]
        await _series(gh, catalog, "search", search, RepoList, 3000, CALL_BUDGET["search"])
        analyze = [(Classification(intent=Intent.ANALYZE, confidence=0.99, repos=[n]), f"analyze {n}")
                   for n in ANALYZE]
        await _series(gh, catalog, "analyze", analyze, RepoDetailData, 2000, CALL_BUDGET["analyze"])
        compare = [(Classification(intent=Intent.COMPARE, confidence=0.99, repos=names),
                    "compare " + " vs ".join(names)) for names in COMPARE]
        await _series(gh, catalog, "compare (3 repos)", compare, Comparison, 3000,
                      CALL_BUDGET["compare (3 repos)"])
        searches_an_hour = 5000 // CALL_BUDGET["search"]
        print(f"  => at most {CALL_BUDGET['search']} calls a cold search: >= {searches_an_hour} "
              "cold searches an hour per token (was ~26 at 188 calls)")


async def _anonymous(catalog: Catalog) -> None:
    async with FakeGitHub(latency=LATENCY, search_budget=10_000, core_budget=60) as gh:
        print("  -- anonymous (no GITHUB_TOKEN: 60 core calls an hour, 10 searches a minute) --")
        search = [(Classification(intent=Intent.SEARCH, confidence=0.99), q) for q in SEARCHES]
        await _series(gh, catalog, "anonymous search", search, RepoList, 3000, None,
                      ANONYMOUS_CORE_BUDGET)
        analyze = [(Classification(intent=Intent.ANALYZE, confidence=0.99, repos=[n]), f"analyze {n}")
                   for n in ANALYZE]  # full signals, less the optional round (the budget is low)
        await _series(gh, catalog, "anonymous analyze", analyze, RepoDetailData, 2000, None)


async def _run() -> None:
    catalog = Catalog.load()
    print(f"  fake GitHub: {LATENCY * 1000:.0f} ms per call; {SAMPLES} cold + {SAMPLES} warm "
          "turns each; client concurrency 24 (OMG_GITHUB_CONCURRENCY)")
    print(f"  {BEFORE}")
    await _with_token(catalog)
    await _anonymous(catalog)
    print(f"  {ORIGIN}")
    print("  ratio vs origin: the search p95 above / 30,000 ms; the origin's own target was 8-10 s")


def main() -> None:
    asyncio.run(_run())


if __name__ == "__main__":
    main()
