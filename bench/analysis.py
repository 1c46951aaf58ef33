"""Analyze and compare turns against the fake GitHub API with realistic latency.

    .venv/bin/python -m bench analysis

Each sample is a full coordinator turn (scripted classification -> Auditor / Comparator over the
real GitHub client and ``GitHubSource`` -> DefaultSynthesizer), on a fresh source so no cache
helps, against ``tests.fakes.github.FakeGitHub`` adding 150 ms to every call. Targets (issue 3):
analyze p95 <= 2 s, compare (3 repos) p95 <= 3 s. The origin project had no Auditor or Comparator
at all; its search took 30-45 s per uncached query against an 8-10 s target.
"""

from __future__ import annotations

import asyncio

from bench._turns import coordinator, timed_turn
from bench._util import latency_report, report
from core.catalog import Catalog
from core.github import build_source
from core.models import Classification, Comparison, Intent, RepoDetailData, Reply
from tests.fakes.github import FakeGitHub

LATENCY = 0.15
SAMPLES = 12
ANALYZE = ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js", "vuejs/vue"]
COMPARE = [
    ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js"],
    ["vuejs/vue", "react/react", "sveltejs/svelte"],
]


async def _turn(gh: FakeGitHub, catalog: Catalog, intent: Intent, repos: list[str],
                text: str) -> tuple[float, int, Reply]:
    source = build_source(gh.env(), catalog.source())
    classification = Classification(intent=intent, confidence=0.99, repos=repos)
    result = await timed_turn(gh, coordinator(source, classification), text)
    await source.aclose()
    return result


async def _run() -> None:
    catalog = Catalog.load()
    async with FakeGitHub(latency=LATENCY) as gh:
        await _turn(gh, catalog, Intent.ANALYZE, [ANALYZE[0]], "warm up")  # imports, first connect
        analyze_ms: list[float] = []
        analyze_calls: list[int] = []
        for i in range(SAMPLES):
            name = ANALYZE[i % len(ANALYZE)]
            ms, calls, reply = await _turn(gh, catalog, Intent.ANALYZE, [name], f"analyze {name}")
            assert isinstance(reply.structured_data, RepoDetailData), reply.markdown
            analyze_ms.append(ms)
            analyze_calls.append(calls)
        compare_ms: list[float] = []
        compare_calls: list[int] = []
        for i in range(SAMPLES):
            names = COMPARE[i % len(COMPARE)]
            ms, calls, reply = await _turn(gh, catalog, Intent.COMPARE, names,
                                           "compare them for a small team")
            assert isinstance(reply.structured_data, Comparison), reply.markdown
            compare_ms.append(ms)
            compare_calls.append(calls)
    print(f"  fake GitHub latency {LATENCY * 1000:.0f} ms per call, {SAMPLES} uncached turns each")
    latency_report("analyze turn", analyze_ms, 2000)
    report("analyze GitHub calls per turn (max)", max(analyze_calls), "calls")
    report("analyze round trips in sequence (p50 / 150 ms)",
           sorted(analyze_ms)[len(analyze_ms) // 2] / (LATENCY * 1000), "x")
    latency_report("compare turn (3 repos)", compare_ms, 3000)
    report("compare GitHub calls per turn (max)", max(compare_calls), "calls")
    print("  origin: no Auditor/Comparator; its search took 30-45 s uncached (target 8-10 s)")


def main() -> None:
    asyncio.run(_run())


if __name__ == "__main__":
    main()
