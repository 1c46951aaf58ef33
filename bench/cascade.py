"""The intent cascade on the labelled evaluation sets: how often it asks the LLM, and how accurate
it is with a scripted LLM.

    .venv/bin/python -m bench.cascade

Targets (issue 4): the cascade sends <= 20 % of classifications to the LLM. The LLM is an oracle
that knows each case's label and is right 95 % of the time (wrong answers pick another intent at
random, seeded), served by the fake OpenAI-compatible server on loopback and reached through the
real ``openai`` SDK, so the escalated latency includes the SDK and HTTP overhead (the fake answers
at once; a real DeepSeek V3 call adds ~300-500 ms, estimated separately below).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
import zlib
from collections.abc import Sequence

from bench._util import latency_report, report
from core.classifier import build_classifier
from core.classifier.evaluation import Case, eval_names, load_cases
from core.config import CoreSettings
from core.llm import LLMClient
from core.llm.openai_compat import OpenAICompatModel
from core.classifier.cascade import CascadeClassifier, CascadeSettings, render_context
from core.models import Intent
from tests.fakes.openai_server import FakeOpenAIServer, FakeReply

SHARE_TARGET = 0.20
ORACLE_ACCURACY = 0.95
ASSUMED_LLM_MS = 400.0  # DeepSeek V3, the design document's 300-500 ms


def oracle(cases: Sequence[Case], accuracy: float):
    """A responder for the fake server: the case's label, right ``accuracy`` of the time."""
    by_prompt = {render_context(c.message, c.history): c.intent for c in cases}
    intents = list(Intent)

    def respond(body: dict) -> FakeReply:
        prompt = body["messages"][-1]["content"]
        truth = by_prompt.get(prompt, Intent.CLARIFY)
        rng = random.Random(zlib.crc32(prompt.encode()))
        answer = truth if rng.random() < accuracy else rng.choice([i for i in intents if i is not truth])
        return FakeReply.json({"intent": answer.value, "confidence": 0.9, "reasoning": "oracle"},
                              input_tokens=len(prompt) // 4 + 350, output_tokens=25)

    return respond


async def run(cases: list[Case], accuracy: float, settings: CascadeSettings) -> dict:
    local = build_classifier(CoreSettings())
    async with FakeOpenAIServer(oracle(cases, accuracy)) as server:
        client = LLMClient(OpenAICompatModel(api_key="bench-key", base_url=server.base_url))
        cascade = CascadeClassifier(local, client, min_confidence=settings.min_confidence,
                                    min_margin=settings.min_margin, timeout=settings.timeout)
        local_ms, llm_ms, correct, local_correct = [], [], 0, 0
        escalated_correct = escalated = 0
        for case in cases:
            alone = local.decide(case.message, case.history)
            local_correct += alone.intent is case.intent
            started = time.perf_counter()
            result = await cascade.classify(case.message, list(case.history))
            elapsed = (time.perf_counter() - started) * 1000
            ok = result.intent is case.intent
            correct += ok
            if result.source == "local":
                local_ms.append(elapsed)
            else:
                llm_ms.append(elapsed)
                escalated += 1
                escalated_correct += ok
        again = [await cascade.classify(c.message, list(c.history)) for c in cases]
        await client.aclose()
    return {
        "n": len(cases), "share": cascade.llm_share, "accuracy": correct / len(cases),
        "local_accuracy": local_correct / len(cases),
        "escalated": escalated, "escalated_accuracy": escalated_correct / escalated if escalated else 1.0,
        "local_ms": local_ms, "llm_ms": llm_ms, "http_calls": server.calls,
        "second_pass_cache_hits": sum(r.source == "cache" for r in again),
        "usd": client.metrics.usd,
    }


def sweep(cases: list[Case]) -> None:
    """Escalation share and oracle accuracy for a few thresholds (no HTTP: decisions only)."""
    local = build_classifier(CoreSettings())
    verdicts = [local.predict(c.message, c.history) for c in cases]
    print("  min_confidence  min_margin  to LLM   cascade accuracy (95 % oracle)")
    for min_conf in (0.6, 0.7, 0.75, 0.8, 0.9):
        for min_margin in (0.1, 0.2, 0.3):
            right = sent = 0
            for case, verdict in zip(cases, verdicts):
                unsure = verdict.confidence < min_conf or verdict.margin < min_margin
                if unsure:
                    sent += 1
                    rng = random.Random(zlib.crc32(render_context(case.message, case.history).encode()))
                    intent = case.intent if rng.random() < ORACLE_ACCURACY else None
                    if intent is not None:
                        decided = local.decide(case.message, case.history, intent=intent,
                                               confidence=0.9, source="llm")
                        right += decided.intent is case.intent
                else:
                    right += local.decide(case.message, case.history, verdict).intent is case.intent
            print(f"  {min_conf:14.2f}  {min_margin:10.2f}  {sent / len(cases):6.1%}   {right / len(cases):6.1%}")


def main() -> None:
    cases = [case for name in eval_names() for case in load_cases(name)]
    settings = CascadeSettings.from_env({})
    print(f"labelled cases: {len(cases)} from {', '.join(eval_names())} (core/classifier/data/eval); "
          f"escalate when local confidence < {settings.min_confidence} "
          f"or margin < {settings.min_margin}")
    for accuracy in (ORACLE_ACCURACY, 1.0):
        out = asyncio.run(run(cases, accuracy, settings))
        print(f"\nscripted LLM right {accuracy:.0%} of the time:")
        report("share of classifications sent to the LLM", out["share"] * 100, "%",
               SHARE_TARGET * 100)
        report("local-only accuracy", out["local_accuracy"] * 100, "%")
        report("cascade accuracy", out["accuracy"] * 100, "%", out["local_accuracy"] * 100,
               lower_is_better=False)
        report(f"accuracy on the {out['escalated']} escalated cases", out["escalated_accuracy"] * 100, "%")
        report("HTTP calls to the fake LLM", out["http_calls"], "calls")
        report("second pass answered from the cache", out["second_pass_cache_hits"], "cases")
        report("cost of the pass at DeepSeek V3 prices", out["usd"] * 1000, "m$")
        if accuracy == ORACLE_ACCURACY:
            latency_report("local path", out["local_ms"])
            if out["llm_ms"]:
                latency_report("escalated path (SDK + loopback, instant model)", out["llm_ms"])
            mean_local = statistics.fmean(out["local_ms"]) if out["local_ms"] else 0.0
            expected = mean_local + out["share"] * ASSUMED_LLM_MS
            report(f"expected mean latency with a {ASSUMED_LLM_MS:.0f} ms LLM", expected, "ms", 500)
    print("\nthreshold sweep:")
    sweep(cases)


if __name__ == "__main__":
    main()
