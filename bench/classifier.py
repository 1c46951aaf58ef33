"""The offline intent classifier: accuracy, calibration and latency.

    .venv/bin/python -m bench.classifier

1. Held-out split of the shipped utterance set, split by *source line* (a template's expansions
   never straddle the split, so the test phrasings are unseen): the model is retrained on the
   rest. Reports model accuracy, routed accuracy (after the 0.7 threshold), per-intent
   precision/recall, the confusion matrix and calibration (reliability bins, ECE).
2. The independent evaluation sets (``data/eval``: ``dev`` and the blind ``final``, written in
   a different style, with histories) through the shipped model, exactly as ``omg classify``.
3. Latency: one classification (p50/p95), a 200-line ``omg classify`` batch, model start-up.

Targets (issue 2): accuracy >= 95 % on an independent set; classifier p95 <= 5 ms; 200 lines
well under a second; start-up under ~1 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench._util import latency_report, report
from bot.commands.classify import classify_batch
from core.classifier import LocalIntentClassifier
from core.classifier.dataset import training_samples
from core.classifier.evaluation import (
    cases_from_samples,
    eval_names,
    format_report,
    group_split,
    load_cases,
    score,
)
from core.classifier.training import load_shipped, train

_ROOT = Path(__file__).resolve().parents[1]
_COLD_START = (
    "import time; t = time.perf_counter()\n"
    "from core.classifier import LocalIntentClassifier\n"
    "LocalIntentClassifier().classify_sync('is zustand any good?', [])\n"
    "print((time.perf_counter() - t) * 1000)"
)
ACCURACY_TARGET = 0.95
P95_TARGET_MS = 5.0
BATCH_TARGET_MS = 1000.0
STARTUP_TARGET_MS = 1000.0


def held_out() -> None:
    samples = training_samples()
    train_part, test_part = group_split(samples)
    print(f"\n-- held-out split: {len(train_part)} training samples, {len(test_part)} test samples "
          f"from {len({s.group for s in test_part})} unseen source lines --")
    classifier = LocalIntentClassifier(train(tuple(train_part)))
    cases = cases_from_samples(test_part)
    verdicts = classifier.predict_many([(c.message, c.history) for c in cases])
    results = [classifier.decide(c.message, c.history, v) for c, v in zip(cases, verdicts)]
    confidence = np.array([v.confidence for v in verdicts])
    correct = np.array([v.intent is c.intent for v, c in zip(verdicts, cases)])
    report("model accuracy (before routing)", correct.mean() * 100, "%")
    print(format_report(score("held-out (routed: threshold + references)", cases, results)))
    print("  calibration (model confidence vs accuracy):")
    edges = [0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001]
    ece = 0.0
    for low, high in zip(edges, edges[1:]):
        mask = (confidence >= low) & (confidence < high)
        if mask.any():
            ece += mask.sum() * abs(confidence[mask].mean() - correct[mask].mean())
            print(f"    [{low:.1f}, {min(high, 1.0):.1f}) n={mask.sum():4d}  mean confidence "
                  f"{confidence[mask].mean():.2f}  accuracy {correct[mask].mean():.2f}")
    report("expected calibration error (ECE)", ece / len(cases), "")


def independent(classifier: LocalIntentClassifier) -> None:
    for name in eval_names():
        cases = load_cases(name)
        results = [classifier.classify_sync(c.message, c.history) for c in cases]
        scored = score(name, cases, results)
        print(f"\n-- independent set '{name}' --")
        print(format_report(scored, show_errors=10))
        report(f"{name}: intent accuracy", scored.accuracy * 100, "%", ACCURACY_TARGET * 100,
               lower_is_better=False)


def latency(classifier: LocalIntentClassifier) -> None:
    print("\n-- latency --")
    cases = [c for name in eval_names() for c in load_cases(name)]
    for case in cases[:50]:  # warm up
        classifier.classify_sync(case.message, case.history)
    samples = []
    for _ in range(3):
        for case in cases:
            started = time.perf_counter()
            classifier.classify_sync(case.message, case.history)
            samples.append((time.perf_counter() - started) * 1000)
    latency_report(f"one classification ({len(samples)} calls)", samples, P95_TARGET_MS)

    lines = [json.dumps({"message": c.message, "history": [m.dump() for m in c.history]})
             for c in (cases * 2)[:200]]
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        classify_batch(classifier, lines)
        runs.append((time.perf_counter() - started) * 1000)
    report("omg classify: 200 lines (median of 5)", sorted(runs)[2], "ms", BATCH_TARGET_MS)

    started = time.perf_counter()
    trained = load_shipped()
    LocalIntentClassifier(trained)
    report("start-up: load the shipped model", (time.perf_counter() - started) * 1000, "ms", STARTUP_TARGET_MS)
    if trained is None:
        print("  (the shipped model is stale: run `python -m core.classifier`)")
    cold = subprocess.run(
        [sys.executable, "-c", _COLD_START], capture_output=True, text=True, timeout=120, cwd=_ROOT,
    )
    if cold.returncode == 0:
        report("cold start: fresh process, imports + model + 1st answer", float(cold.stdout.split()[-1]), "ms",
               STARTUP_TARGET_MS)
    started = time.perf_counter()
    train()
    report("retrain from the utterance set (fallback)", (time.perf_counter() - started) * 1000, "ms")


def main() -> None:
    started = time.perf_counter()
    classifier = LocalIntentClassifier()
    report("build the classifier (shipped model)", (time.perf_counter() - started) * 1000, "ms")
    print(f"  utterance set: {len(training_samples())} samples; model trained on "
          f"{classifier.trained.samples}")
    independent(classifier)
    held_out()
    latency(classifier)


if __name__ == "__main__":
    main()
