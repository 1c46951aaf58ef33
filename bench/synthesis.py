"""Synthesis latency and memory: a 100-repo repo_list, a repo_detail, a 5-repo comparison.

    .venv/bin/python -m bench.synthesis

Targets (issue 2 and the synthesizer spec): p95 <= 5 ms for 100 repos; < 10 MB peak memory per
synthesis. Each case is timed as the coordinator calls it (validation included); the agent's
data is built beforehand. Memory is measured in a separate pass with tracemalloc (which slows
the code down, so it never overlaps the timing).
"""

from __future__ import annotations

import gc
import json
import time
import tracemalloc
from collections.abc import Callable

from bench._util import latency_report, report
from core.agents.base import AgentResult
from core.models import Intent
from core.synth import DefaultSynthesizer, SynthesisContext
from tests.synth.factories import NOW, comparison, repo_detail, repo_list

RUNS = 300
WARMUP = 20
P95_TARGET_MS = 5.0
MEMORY_TARGET_MB = 10.0


def cases() -> list[tuple[str, AgentResult, SynthesisContext, float | None]]:
    previous = repo_list(5)
    listing = repo_list(100)
    return [
        ("repo_list, 100 repos (model)", AgentResult(data=listing),
         SynthesisContext(intent=Intent.SEARCH, message="find React state management libraries"),
         P95_TARGET_MS),
        ("repo_list, 100 repos (dict from JSON)",
         AgentResult.model_construct(data=json.loads(listing.dump_json()), text=None, error=None,
                                     error_code=None, partial=False),
         SynthesisContext(intent=Intent.SEARCH, message="find React state management libraries"),
         P95_TARGET_MS),
        ("repo_detail", AgentResult(data=repo_detail(0)),
         SynthesisContext(intent=Intent.ANALYZE, message="analyze the first one", previous=previous),
         P95_TARGET_MS),
        ("comparison, 5 repos", AgentResult(data=comparison(5, need="a small team")),
         SynthesisContext(intent=Intent.COMPARE, message="compare the first five", previous=previous),
         P95_TARGET_MS),
    ]


def timed(call: Callable[[], object]) -> list[float]:
    for _ in range(WARMUP):
        call()
    samples: list[float] = []
    gc.collect()
    for _ in range(RUNS):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def peak_mb(call: Callable[[], object]) -> float:
    call()  # warm caches so the figure is the steady state of one synthesis
    gc.collect()
    tracemalloc.start()
    try:
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / (1024 * 1024)


def main() -> None:
    synth = DefaultSynthesizer(clock=lambda: NOW)
    print(f"  {RUNS} runs per case after {WARMUP} warm-up runs")
    for label, result, ctx, target in cases():
        def call(result: AgentResult = result, ctx: SynthesisContext = ctx) -> object:
            out = synth.synthesize(result, ctx)
            assert out.error_code is None, out.markdown
            return out

        latency_report(label, timed(call), target)
        report(f"{label} peak memory", peak_mb(call), "MB", MEMORY_TARGET_MB)
    sample = synth.synthesize(*cases()[0][1:3])
    print(f"  (100-repo summary: {len(sample.markdown):,} characters, {len(sample.suggestions)} suggestions)")


if __name__ == "__main__":
    main()
