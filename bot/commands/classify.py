"""``omg classify``: the intent evaluation interface (JSON Lines in, JSON Lines out, offline).

Each input line is ``{"message": str, "history": [{"role", "content", "structured_data"?}]}``;
each output line, in order, is ``{"intent", "confidence", "original_intent", "repos",
"reasoning"}``. Every input line gets exactly one output line: a line that can't be read gets a
``clarify`` answer whose ``reasoning`` says why. No LLM and no network.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import IO, Any

from core.classifier import LocalIntentClassifier, RepoNameIndex, build_classifier
from core.classifier.wire import history_from_wire
from core.config import CoreSettings, load_environment
from core.models import Classification, Message

BATCH = 256


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "classify", help="classify JSON Lines on stdin (offline intent evaluation interface)"
    )
    parser.set_defaults(func=lambda args: run_classify(sys.stdin, sys.stdout))


def catalog_names() -> RepoNameIndex | None:
    """The catalog's name index when the catalog package is there (else the shipped names serve)."""
    try:
        catalog = importlib.import_module("core.catalog")
        return catalog.Catalog.load().names
    except (ImportError, OSError, ValueError) as exc:  # missing package or unreadable data: classify without it
        print(f"omg classify: catalog unavailable ({type(exc).__name__}); using built-in names",
              file=sys.stderr)
        return None


def _answer(result: Classification) -> dict[str, Any]:
    return {
        "intent": result.intent.value,
        "confidence": round(result.confidence, 4),
        "original_intent": result.original_intent.value if result.original_intent else None,
        "repos": list(result.repos),
        "reasoning": result.reasoning,
    }


def _unreadable(reason: str) -> dict[str, Any]:
    return {"intent": "clarify", "confidence": 0.0, "original_intent": None, "repos": [],
            "reasoning": f"unreadable input line: {reason}"}


def parse_line(line: str) -> tuple[str, list[Message]] | dict[str, Any]:
    """(message, history), or the answer for a line that can't be classified."""
    if not line.strip():
        return _unreadable("empty line")
    try:
        item = json.loads(line)
    except ValueError as exc:
        return _unreadable(f"invalid JSON ({exc.msg} at column {exc.colno})")
    if not isinstance(item, dict):
        return _unreadable('expected a JSON object with a "message" string')
    message = item.get("message")
    if not isinstance(message, str):
        return _unreadable('"message" is missing or not a string')
    if not message.strip():
        return _unreadable("the message is empty")
    return message, history_from_wire(item.get("history"))


def classify_line(classifier: LocalIntentClassifier, line: str) -> dict[str, Any]:
    parsed = parse_line(line)
    if isinstance(parsed, dict):
        return parsed
    try:
        return _answer(classifier.classify_sync(*parsed))
    except Exception as exc:  # never let one line stop the stream
        return _unreadable(f"could not classify ({type(exc).__name__})")


def classify_batch(classifier: LocalIntentClassifier, lines: list[str]) -> list[dict[str, Any]]:
    """Same answers as ``classify_line`` for each line, with one model call for the batch."""
    parsed = [parse_line(line) for line in lines]
    todo = [(i, p) for i, p in enumerate(parsed) if not isinstance(p, dict)]
    answers: list[dict[str, Any]] = [p if isinstance(p, dict) else {} for p in parsed]
    try:
        verdicts = classifier.predict_many([p for _, p in todo])
    except Exception:  # the CLI's edge for a batch: each line then gets its own answer or error
        return [classify_line(classifier, line) for line in lines]
    for (i, (message, history)), verdict in zip(todo, verdicts):
        try:
            answers[i] = _answer(classifier.decide(message, history, verdict))
        except Exception as exc:  # the CLI's edge for one line: never let it stop the stream
            answers[i] = _unreadable(f"could not classify ({type(exc).__name__})")
    return answers


def run_classify(
    stdin: IO[str], stdout: IO[str], classifier: LocalIntentClassifier | None = None, *, batch: int | None = None
) -> int:
    """Interactive input is answered line by line; piped input in batches (much faster)."""
    if classifier is None:
        settings = CoreSettings.from_env(load_environment())
        classifier = build_classifier(settings, catalog_names())
    if batch is None:
        batch = 1 if stdin.isatty() else BATCH
    pending: list[str] = []
    for line in stdin:
        pending.append(line)
        if len(pending) >= batch:
            _write(stdout, classify_batch(classifier, pending))
            pending = []
    if pending:
        _write(stdout, classify_batch(classifier, pending))
    return 0


def _write(stdout: IO[str], answers: list[dict[str, Any]]) -> None:
    for answer in answers:
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    stdout.flush()
