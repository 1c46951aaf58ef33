"""Search, analyze and compare turns against the fake GitHub REST API with 150 ms per call.

    .venv/bin/python -m bench github_turns

Each sample is a full coordinator turn through the real agents (SearchTeam / Auditor /
Comparator -> GitHubSource -> GitHubClient over HTTP -> tests.fakes.github.FakeGitHub on
loopback, then the DefaultSynthesizer). The classifier is scripted (it has its own benchmark).
"Cold" turns use a fresh source (empty cache: every call goes to GitHub); "warm" turns repeat
the same turn on the same source (fresh cache entries and ETag revalidation).

Targets (issue 3): search p95 <= 3 s, analyze p95 <= 2 s, compare (3 repos) p95 <= 3 s.
The origin project: search 30-45 s per uncached query, against its own 8-10 s target.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Sequence

from bench._util import latency_report, report
from core.agents.auditor import Auditor
from core.agents.comparator import Comparator
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.coordinator import Coordinator, IncomingMessage
from core.github import FallbackSource, build_source
from core.models import (
    Classification,
    Comparison,
    ConversationKey,
    Intent,
    Message,
    RepoDetailData,
    RepoList,
    Reply,
)
from core.sources.base import RepoSource
from core.store import MemoryConversationStore
from core.synth import DefaultSynthesizer
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


class ScriptedClassifier:
    def __init__(self, classification: Classification) -> None:
        self.classification = classification

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        return self.classification


class _Idle:
    name = "idle"

    async def run(self, ctx):  # noqa: ANN001, ANN202 - never called here
        raise AssertionError("unexpected intent")


def _coordinator(source: RepoSource, classification: Classification) -> Coordinator:
    return Coordinator(
        store=MemoryConversationStore(),
        classifier=ScriptedClassifier(classification),
        agents={Intent.SEARCH: SearchTeam(source), Intent.ANALYZE: Auditor(source),
                Intent.COMPARE: Comparator(source), Intent.CHAT: _Idle(), Intent.CLARIFY: _Idle()},
        synthesizer=DefaultSynthesizer(),
    )


async def _turn(gh: FakeGitHub, source: RepoSource, classification: Classification,
                text: str) -> tuple[float, int, Reply]:
    coordinator = _coordinator(source, classification)
    before = len(gh.calls)
    started = time.perf_counter()
    reply = await coordinator.handle(IncomingMessage(
        key=ConversationKey(platform="bench", channel="c", thread=str(time.perf_counter_ns())),
        text=text,
    ))
    return (time.perf_counter() - started) * 1000, len(gh.calls) - before, reply


def _endpoint(path: str) -> str:
    path = re.sub(r"^/repos/[^/]+/[^/]+", "/repos/{o}/{r}", path)
    return re.sub(r"/issues/\d+/", "/issues/{n}/", path)


async def _series(gh: FakeGitHub, catalog: Catalog, label: str, turns: list[tuple[Classification, str]],
                  expect: type, target_ms: float) -> None:
    cold_ms: list[float] = []
    cold_calls: list[int] = []
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
        if i == 0:
            breakdown.update(_endpoint(c.path) for c in gh.calls[before:])
        ms, calls, _ = await _turn(gh, source, classification, text)
        warm_ms.append(ms)
        warm_calls.append(calls)
        await source.aclose()  # type: ignore[attr-defined]
    latency_report(f"{label} turn, cold", cold_ms, target_ms)
    report(f"{label} GitHub calls per cold turn (max)", max(cold_calls), "calls")
    latency_report(f"{label} turn, warm (cache + ETags)", warm_ms)
    report(f"{label} GitHub calls per warm turn (max)", max(warm_calls), "calls")
    print("    calls in one cold turn: " + ", ".join(f"{k} x{v}" for k, v in breakdown.most_common()))


async def _run() -> None:
    catalog = Catalog.load()
    async with FakeGitHub(latency=LATENCY, search_budget=10_000) as gh:
        print(f"  fake GitHub: {LATENCY * 1000:.0f} ms per call; {SAMPLES} cold + {SAMPLES} warm "
              "turns each; client concurrency 24 (OMG_GITHUB_CONCURRENCY)")
        warm_up = build_source(gh.env(), catalog.source())
        await _turn(gh, warm_up, Classification(intent=Intent.ANALYZE, confidence=0.99,
                                                repos=[ANALYZE[0]]), "warm up")
        await warm_up.aclose()  # type: ignore[attr-defined]
        search = [(Classification(intent=Intent.SEARCH, confidence=0.99), q) for q in SEARCHES]
        await _series(gh, catalog, "search", search, RepoList, 3000)
        analyze = [(Classification(intent=Intent.ANALYZE, confidence=0.99, repos=[n]), f"analyze {n}")
                   for n in ANALYZE]
        await _series(gh, catalog, "analyze", analyze, RepoDetailData, 2000)
        compare = [(Classification(intent=Intent.COMPARE, confidence=0.99, repos=names),
                    "compare " + " vs ".join(names)) for names in COMPARE]
        await _series(gh, catalog, "compare (3 repos)", compare, Comparison, 3000)
    print(f"  {ORIGIN}")
    print("  ratio vs origin: the search p95 above / 30,000 ms; the origin's own target was 8-10 s")


def main() -> None:
    asyncio.run(_run())


if __name__ == "__main__":
    main()
