"""Research orchestrator: analysis + planning latency, the LLM turn budget, mode accuracy.

    .venv/bin/python -m bench.research

Targets (issue 5 / spec): analysis + planning p95 <= 50 ms offline; <= 3 s per turn with a
scripted LLM of 1 s latency (NFR-001); mode accuracy >= 95 % on the held-out labelled set
(SC-002 asks >= 90 %). Also shown: a whole offline turn as adapters call it (session files
written with fsync), a turn with an LLM slower than the budget, and a Quick Scan executed
against a fake source with 150 ms per call.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
import time
from pathlib import Path

from bench._util import latency_report, report
from core.models import ConversationKey
from core.research import ResearchSettings, build_research_service
from core.research.analyzer import LLMModeAnalyzer, LocalModeAnalyzer, load_labelled
from core.llm.client import LLMClient
from core.research.llm_planner import LLMPlanner
from core.models.research import ResearchMode
from core.research.planner import LocalPlanner, PlanRequest
from core.store.research import MemoryResearchStore
from tests.fakes.scripted_llm import asks_for, scripted_llm
from tests.research.fakes import FakeRepoSource

KEY = ConversationKey(platform="bench", channel="c", thread="t")
OFFLINE_P95_MS = 50.0
LLM_TURN_P95_S = 3.0
ACCURACY_TARGET = 0.95


def _goals() -> list[str]:
    return [q for q, _ in load_labelled("mode_eval.jsonl") + load_labelled("mode_train.jsonl")]


async def offline_latency() -> None:
    analyzer, planner = LocalModeAnalyzer(), LocalPlanner()
    started = time.perf_counter()
    analyzer.warm()
    report("loading the shipped mode model (at first use)", (time.perf_counter() - started) * 1000, "ms")
    samples: list[float] = []
    for goal in _goals() * 2:
        t0 = time.perf_counter()
        decision = await analyzer.analyze(goal)
        await planner.plan(PlanRequest(session_id="s", goal=goal, mode=decision.mode, rationale=decision.rationale))
        samples.append((time.perf_counter() - t0) * 1000)
    latency_report(f"analysis + planning offline ({len(samples)} goals)", samples, OFFLINE_P95_MS)

    with tempfile.TemporaryDirectory() as tmp:
        service = build_research_service(ResearchSettings(data_dir=Path(tmp)), FakeRepoSource())
        turns: list[float] = []
        for goal in _goals()[:120]:
            t0 = time.perf_counter()
            await service.orchestrator.create(goal + " --deep", requester="U1", key=KEY)
            turns.append((time.perf_counter() - t0) * 1000)
        latency_report("whole planning turn, session files + fsync", turns)


def _scripted(latency: float) -> LLMClient:
    def script(messages, schema):  # type: ignore[no-untyped-def]
        if asks_for(schema, "mode"):
            deep = any(w in messages[-1].content.lower() for w in ("impact", "should", "trade", "why", "compare"))
            return {"mode": "deep_probe" if deep else "quick_scan", "rationale": "Scripted verdict."}
        return {"steps": [
            {"type": "SEARCH", "description": "Search broadly", "search_queries": ["react state", "zustand"]},
            {"type": "BROWSE", "description": "Read READMEs and releases"},
            {"type": "SEARCH", "description": "Find opposing views and alternatives", "search_queries": ["redux alternative"]},
            {"type": "ANALYZE", "description": "Cross-verify claims against activity"},
            {"type": "ANALYZE", "description": "Synthesize"},
        ]}
    return scripted_llm(script, latency=latency)


async def llm_turns(latency: float, label: str, target: float | None) -> None:
    settings = ResearchSettings()
    llm = _scripted(latency)
    local = LocalModeAnalyzer()
    from core.research.executor import Executor
    from core.research.orchestrator import Orchestrator

    store = MemoryResearchStore()
    orchestrator = Orchestrator(
        store, Executor(store, FakeRepoSource(), settings), settings,
        analyzer=LLMModeAnalyzer(llm, local, timeout=settings.llm_timeout_seconds),
        planner=LLMPlanner(llm, LocalPlanner(), timeout=settings.llm_timeout_seconds),
    )

    async def one(goal: str) -> tuple[float, str, str]:
        t0 = time.perf_counter()
        session, _ = await orchestrator.create(goal, requester="U1", key=KEY)
        assert session.plan is not None and session.decision is not None
        return time.perf_counter() - t0, session.decision.source, session.plan.source

    results = await asyncio.gather(*(one(g) for g in _goals()[:40]))  # concurrent: the latency is a sleep
    seconds = [r[0] for r in results]
    latency_report(label, seconds, target, unit="s")
    served = {f"{a}/{p}" for _, a, p in results}
    print(f"    analysis/plan served by: {', '.join(sorted(served))}; {len(llm.model.calls)} LLM calls")


def accuracy() -> None:
    analyzer = LocalModeAnalyzer()
    rows = load_labelled("mode_eval.jsonl")
    matrix = {(t, p): 0 for t in ResearchMode for p in ResearchMode}
    for query, truth in rows:
        matrix[(truth, analyzer.decide(query).mode)] += 1
    correct = sum(v for (t, p), v in matrix.items() if t is p)
    report(f"mode accuracy, held-out set ({len(rows)} queries)", correct / len(rows), "", ACCURACY_TARGET,
           lower_is_better=False)
    print("    confusion (rows = truth, cols = predicted):    quick_scan  deep_probe")
    for truth in ResearchMode:
        print(f"    {truth.value:<46} {matrix[(truth, ResearchMode.QUICK_SCAN)]:10d}  {matrix[(truth, ResearchMode.DEEP_PROBE)]:10d}")
    _cross_validation()


def _cross_validation() -> None:
    """5-fold cross-validation on the training set: how well the model generalises beyond it."""
    from sklearn.model_selection import cross_val_score

    from core.research.mode_fitting import mode_pipeline

    rows = load_labelled("mode_train.jsonl")
    scores = cross_val_score(mode_pipeline(), [q for q, _ in rows], [m.value for _, m in rows], cv=5)
    report("5-fold cross-validation on the training set", float(scores.mean()), "")


async def quick_scan_execution() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        service = build_research_service(ResearchSettings(data_dir=Path(tmp)), FakeRepoSource(latency=0.15))
        samples = []
        for goal in ("latest version of React", "state management libraries for React", "FastAPI release notes"):
            t0 = time.perf_counter()
            reply = await service.start(goal, key=KEY, requester="U1", mode="quick")
            assert reply.error is None
            samples.append((time.perf_counter() - t0) * 1000)
        latency_report("Quick Scan executed, fake source at 150 ms/call", samples)


async def run() -> None:
    print("Offline (local model + template planner):")
    await offline_latency()
    print("Scripted LLM (analysis and planning are one LLM call each):")
    await llm_turns(1.0, "turn with a 1 s LLM", LLM_TURN_P95_S)
    await llm_turns(3.0, "turn with a 3 s LLM (budget -> local fallback)", LLM_TURN_P95_S)
    print("Mode selection:")
    accuracy()
    print("Execution:")
    await quick_scan_execution()


def main() -> None:
    logging.getLogger("omg.research").setLevel(logging.ERROR)  # the fallbacks are expected here
    asyncio.run(run())


if __name__ == "__main__":
    main()
