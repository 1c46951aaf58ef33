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
import time
from collections.abc import Sequence

from bench._util import latency_report, report
from core.agents.auditor import Auditor
from core.agents.comparator import Comparator
from core.catalog import Catalog
from core.coordinator import Coordinator, IncomingMessage
from core.github import build_source
from core.models import (
    Classification,
    Comparison,
    ConversationKey,
    Intent,
    Message,
    RepoDetailData,
)
from core.store import MemoryConversationStore
from core.synth import DefaultSynthesizer
from tests.fakes.github import FakeGitHub

LATENCY = 0.15
SAMPLES = 12
ANALYZE = ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js", "vuejs/vue"]
COMPARE = [
    ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js"],
    ["vuejs/vue", "react/react", "sveltejs/svelte"],
]


class ScriptedClassifier:
    """Classifies every message as the benchmark says (the classifier has its own benchmark)."""

    def __init__(self) -> None:
        self.next: Classification | None = None

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        assert self.next is not None
        return self.next


class _Idle:
    name = "idle"

    async def run(self, ctx):  # noqa: ANN001, ANN202 - never called in this benchmark
        raise AssertionError("unexpected intent")


async def _turn(gh: FakeGitHub, catalog: Catalog, intent: Intent, repos: list[str],
                text: str) -> tuple[float, int, object]:
    source = build_source(gh.env(), catalog.source())
    classifier = ScriptedClassifier()
    classifier.next = Classification(intent=intent, confidence=0.99, repos=repos)
    coordinator = Coordinator(
        store=MemoryConversationStore(),
        classifier=classifier,
        agents={Intent.SEARCH: _Idle(), Intent.ANALYZE: Auditor(source),
                Intent.COMPARE: Comparator(source), Intent.CHAT: _Idle(), Intent.CLARIFY: _Idle()},
        synthesizer=DefaultSynthesizer(),
    )
    calls_before = len(gh.calls)
    started = time.perf_counter()
    reply = await coordinator.handle(IncomingMessage(
        key=ConversationKey(platform="bench", channel="c", thread=str(time.perf_counter_ns())),
        text=text,
    ))
    elapsed = (time.perf_counter() - started) * 1000
    await source.aclose()
    return elapsed, len(gh.calls) - calls_before, reply


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
