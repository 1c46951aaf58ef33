"""``omg classify`` through a real subprocess with stdin, and the lenient wire parsing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.classifier.wire import history_from_wire, structured_from_wire
from core.models import Clarification, Comparison, RepoDetailData, RepoList

ROOT = Path(__file__).resolve().parents[2]


def test_partial_structured_data_is_enough():
    assert isinstance(structured_from_wire({"type": "repo_list", "items": [{"fullName": "a/b"}]}), RepoList)
    comparison = structured_from_wire({"type": "comparison", "items": [{"repo": {"fullName": "a/b"}}, {}]})
    assert isinstance(comparison, Comparison) and [r.repo.full_name for r in comparison.items] == ["a/b"]
    assert isinstance(structured_from_wire({"type": "clarification"}), Clarification)
    assert isinstance(structured_from_wire({"type": "repo_detail", "repo": {"fullName": "a/b"}}), RepoDetailData)
    assert structured_from_wire({"type": "repo_detail"}) is None
    assert structured_from_wire({"type": "mystery"}) is None
    assert structured_from_wire("repo_list") is None


def test_history_keeps_the_last_three_readable_messages():
    raw = [{"role": "user", "content": f"m{i}"} for i in range(5)] + [None, 7, "x"]
    assert [m.content for m in history_from_wire(raw)] == ["m2", "m3", "m4"]
    assert history_from_wire("not a list") == []
    odd = history_from_wire([{"role": "bot", "content": 5, "structured_data": {"type": "repo_list"}}])
    assert odd[0].role == "assistant" and odd[0].content == "" and odd[0].structured_data.items == []


def _listing(*names: str) -> dict:
    return {"role": "assistant", "content": "results",
            "structured_data": {"type": "repo_list", "items": [{"fullName": n} for n in names]}}


def test_omg_classify_reads_json_lines_on_stdin():
    lines = [
        {"message": "is zustand any good?"},
        "this is not json",
        "",
        {"message": 42},
        ["not", "an", "object"],
        {"message": "the second one", "history": [{"role": "user", "content": "find state libs"},
                                                   _listing("pmndrs/zustand", "reduxjs/redux")]},
        {"message": "compare the first two", "history": [
            {"role": "assistant", "content": "x", "structured_data": {
                "type": "comparison", "items": [{"repo": {"fullName": "a/b"}}, {"repo": {"fullName": "c/d"}}]}}]},
        {"message": "the sixth one", "history": [_listing("a/b", "c/d", "e/f", "g/h", "i/j")]},
        {"message": "the first", "history": [{"role": "assistant", "content": "Which one?",
                                             "structured_data": {"type": "clarification"}}]},
        {"message": "thanks!", "history": "garbage"},
        {"message": "what about Python?", "history": [{"role": "user", "content": "find react libs"},
                                                       _listing("a/b"), {"role": "user"}]},
        {"message": "hello", "history": [{"role": "assistant", "content": "hi"}]},
    ]
    stdin = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "classify"], input=stdin, capture_output=True, text=True,
        cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    for answer in out:
        assert set(answer) == {"intent", "confidence", "original_intent", "repos", "reasoning"}
        assert 0.0 <= answer["confidence"] <= 1.0
    assert (out[0]["intent"], out[0]["repos"]) == ("analyze", ["pmndrs/zustand"])
    for bad in out[1:5]:
        assert bad["intent"] == "clarify" and bad["repos"] == [] and "unreadable" in bad["reasoning"]
    assert "invalid JSON" in out[1]["reasoning"]
    assert (out[5]["intent"], out[5]["repos"]) == ("analyze", ["reduxjs/redux"])
    assert (out[6]["intent"], out[6]["repos"]) == ("compare", ["a/b", "c/d"])
    assert (out[7]["intent"], out[7]["original_intent"]) == ("clarify", "analyze")
    assert out[8]["intent"] == "clarify"  # nothing listed before the question: no referent
    assert out[9]["intent"] == "chat"
    assert (out[10]["intent"], out[10]["repos"]) == ("search", [])
    assert out[11]["intent"] == "chat"
