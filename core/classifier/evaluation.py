"""Accuracy reports: the held-out split of the utterance set and the independent evaluation sets.

Evaluation files (``data/eval/*.jsonl``) use the ``omg classify`` input format plus the
expected ``intent`` (and ``repos`` where the message targets repositories).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.classifier.dataset import Sample, data_root, read_jsonl
from core.classifier.wire import history_from_wire
from core.models import Classification, Intent, Message

INTENTS = [i for i in Intent]


@dataclass(frozen=True)
class Case:
    message: str
    history: tuple[Message, ...]
    intent: Intent
    repos: tuple[str, ...] | None = None  # None: not checked
    label: str = ""


@dataclass
class Report:
    name: str
    cases: int = 0
    correct: int = 0
    repos_checked: int = 0
    repos_correct: int = 0
    confusion: Counter[tuple[Intent, Intent]] = field(default_factory=Counter)
    errors: list[tuple[Case, Classification]] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.cases if self.cases else 0.0

    @property
    def repo_accuracy(self) -> float:
        return self.repos_correct / self.repos_checked if self.repos_checked else 1.0

    def precision(self, intent: Intent) -> float:
        predicted = sum(n for (_, p), n in self.confusion.items() if p is intent)
        return self.confusion[(intent, intent)] / predicted if predicted else 0.0

    def recall(self, intent: Intent) -> float:
        actual = sum(n for (a, _), n in self.confusion.items() if a is intent)
        return self.confusion[(intent, intent)] / actual if actual else 0.0


def eval_names() -> list[str]:
    folder = data_root().joinpath("eval")
    return sorted(p.name.removesuffix(".jsonl") for p in folder.iterdir() if p.name.endswith(".jsonl"))


def load_cases(name: str) -> list[Case]:
    cases = []
    for lineno, record in read_jsonl(data_root().joinpath("eval", f"{name}.jsonl")):
        repos = record.get("repos")
        cases.append(Case(
            message=record["message"],
            history=tuple(history_from_wire(record.get("history"))),
            intent=Intent(record["intent"]),
            repos=tuple(repos) if repos is not None else None,
            label=f"{name}:{lineno}",
        ))
    return cases


def cases_from_samples(samples: Sequence[Sample]) -> list[Case]:
    return [Case(s.text, s.history, s.intent, None, s.group) for s in samples]


def group_split(samples: Sequence[Sample], test_share: float = 0.2, seed: int = 7) -> tuple[list[Sample], list[Sample]]:
    """Split by source line, so no template has expansions on both sides."""
    groups = sorted({s.group for s in samples})
    random.Random(seed).shuffle(groups)
    held = set(groups[: int(len(groups) * test_share)])
    return [s for s in samples if s.group not in held], [s for s in samples if s.group in held]


def score(name: str, cases: Sequence[Case], results: Sequence[Classification]) -> Report:
    report = Report(name=name)
    for case, result in zip(cases, results):
        report.cases += 1
        report.confusion[(case.intent, result.intent)] += 1
        ok = result.intent is case.intent
        if ok and case.repos is not None:
            report.repos_checked += 1
            if [r.lower() for r in result.repos] == [r.lower() for r in case.repos]:
                report.repos_correct += 1
            else:
                ok = False
        if result.intent is case.intent:
            report.correct += 1
        if not ok:
            report.errors.append((case, result))
    return report


def format_report(report: Report, *, show_errors: int = 0) -> str:
    lines = [f"{report.name}: {report.cases} cases, intent accuracy {report.accuracy:.1%}"
             + (f", repos exact {report.repo_accuracy:.1%} of {report.repos_checked}" if report.repos_checked else "")]
    lines.append(f"  {'intent':9} {'precision':>9} {'recall':>7}")
    for intent in INTENTS:
        lines.append(f"  {intent.value:9} {report.precision(intent):9.1%} {report.recall(intent):7.1%}")
    lines.append("  confusion (rows = expected, columns = predicted):")
    lines.append("  " + " " * 9 + "".join(f"{i.value[:7]:>8}" for i in INTENTS))
    for actual in INTENTS:
        lines.append(f"  {actual.value:9}" + "".join(f"{report.confusion[(actual, p)]:8d}" for p in INTENTS))
    for case, result in report.errors[:show_errors]:
        context = case.history[-1].structured_data.type if case.history and case.history[-1].structured_data else "-"
        lines.append(f"  x {case.message!r} [{context}] expected {case.intent.value}"
                     f"{' ' + ','.join(case.repos) if case.repos else ''} got {result.intent.value} "
                     f"{result.confidence:.2f} {','.join(result.repos)} | {result.reasoning[:90]}")
    return "\n".join(lines)
