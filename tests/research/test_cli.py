"""``omg plan`` (the evaluation interface, through a real subprocess) and ``omg research``."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.research import ResearchService, ResearchStatus
from bot.commands.research import Console, run_research

ROOT = Path(__file__).resolve().parents[2]
S = ResearchStatus


def omg_plan(lines: list[str]) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "bot", "plan"], input="\n".join(lines) + "\n",
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_omg_plan_answers_every_line_in_order() -> None:
    lines = [
        json.dumps({"query": "Weather in Seoul"}),
        json.dumps({"query": "Impact of AI on medical ethics"}),
        json.dumps({"query": "latest version of React", "mode": "deep_probe"}),
        json.dumps({"query": "Impact of AI on medical ethics", "mode": "quick_scan"}),
        "this is not json",
        json.dumps({"query": ""}),
        json.dumps({"query": 42}),
        json.dumps({"query": "react", "mode": "sideways"}),
        json.dumps(["query"]),
        "",
        json.dumps({"query": "서울 날씨"}),
    ]
    out = omg_plan(lines)
    assert len(out) == 10  # the blank line is skipped, every other line answered
    assert [o["mode"] for o in out[:4]] == ["quick_scan", "deep_probe", "deep_probe", "quick_scan"]
    assert [o["status"] for o in out[:4]] == ["EXECUTING", "REVIEW_PENDING", "REVIEW_PENDING", "EXECUTING"]
    for answer in out[:4] + out[-1:]:
        assert set(answer) == {"mode", "rationale", "status", "steps"}
        assert answer["rationale"].endswith(".")
        assert any(s["type"] == "SEARCH" and s["search_queries"] for s in answer["steps"])
        for step in answer["steps"]:
            assert set(step) == {"type", "description", "search_queries"}
            assert step["type"] in {"SEARCH", "BROWSE", "ANALYZE"}
    assert len(out[0]["steps"]) <= 3
    assert [o["error"] for o in out[4:9]] == ["bad_json", "empty_goal", "bad_input", "invalid_mode", "bad_input"]
    assert all(o["status"] == "ERROR" and o["steps"] == [] for o in out[4:9])


def args(**overrides: object) -> argparse.Namespace:
    base = dict(goal=None, mode=None, approve=None, revise=None, cancel=None, show=None, list=False,
                resume=False, feedback=None, yes=False, json=False)
    base.update(overrides)
    return argparse.Namespace(**base)


def console(stdin: str = "", *, interactive: bool = False) -> Console:
    return Console(io.StringIO(stdin), io.StringIO(), io.StringIO(), interactive=interactive)


async def test_non_interactive_deep_plan_prints_the_session_and_follow_ups(service: ResearchService) -> None:
    out = console()
    code = await run_research(args(goal="Impact of AI on medical ethics"), service, out)
    assert code == 0 and "Research plan" in out.stdout.getvalue()  # type: ignore[attr-defined]
    [session] = await service.store.list_sessions()
    assert session.status is S.REVIEW_PENDING
    assert f"omg research --approve {session.id}" in out.stderr.getvalue()  # type: ignore[attr-defined]

    revised = console()
    assert await run_research(args(revise=session.id, feedback="focus on fairness"), service, revised) == 0
    assert "revision 2" in revised.stdout.getvalue()  # type: ignore[attr-defined]
    approved = console()
    assert await run_research(args(approve=session.id), service, approved) == 0
    assert "Research report" in approved.stdout.getvalue()  # type: ignore[attr-defined]
    assert "Step 1/" in approved.stderr.getvalue()  # type: ignore[attr-defined]
    shown, listed = console(), console()
    await run_research(args(show=session.id), service, shown)
    await run_research(args(list=True), service, listed)
    assert "Research report" in shown.stdout.getvalue()  # type: ignore[attr-defined]
    assert session.id in listed.stdout.getvalue() and "COMPLETED" in listed.stdout.getvalue()  # type: ignore[attr-defined]


async def test_interactive_choices_revise_then_approve(service: ResearchService) -> None:
    out = console("2\nonly TypeScript projects\n9\n1\n", interactive=True)
    code = await run_research(args(goal="Should we migrate from Redux to Zustand?"), service, out)
    text = out.stdout.getvalue()  # type: ignore[attr-defined]
    assert code == 0 and "revision 2" in text and "Research report" in text
    assert "Type 1, 2 or 3" in out.stderr.getvalue()  # type: ignore[attr-defined]
    [session] = await service.store.list_sessions()
    assert session.status is S.COMPLETED and [f.text for f in session.feedback] == ["only TypeScript projects"]


async def test_quick_scan_runs_straight_away_and_json_output(service: ResearchService) -> None:
    out = console()
    out.as_json = True
    assert await run_research(args(goal="latest version of React"), service, out) == 0
    reply = json.loads(out.stdout.getvalue())  # type: ignore[attr-defined]
    assert "Research report" in reply["markdown"] and "error" not in reply


@pytest.mark.parametrize(("overrides", "code"), [({}, 1), ({"goal": ""}, 1), ({"revise": "x"}, 2), ({"approve": "../etc"}, 1),
                                                 ({"show": "00000000-0000-4000-8000-000000000000"}, 1)])
async def test_bad_cli_use_is_explained(service: ResearchService, overrides: dict, code: int) -> None:
    out = console()
    assert await run_research(args(**overrides), service, out) == code
    assert (out.stdout.getvalue() + out.stderr.getvalue()).strip()  # type: ignore[attr-defined]


async def test_someone_else_cannot_approve_from_the_cli(service: ResearchService) -> None:
    from tests.research.conftest import deep_plan, session_id_of

    plan = await deep_plan(service, user="U1")  # asked in chat by U1
    out = console()
    assert await run_research(args(approve=session_id_of(plan)), service, out) == 1
    assert "Only the person" in out.stderr.getvalue()  # type: ignore[attr-defined]


async def test_finished_or_unknown_sessions_exit_1_with_the_reason_on_stderr(service: ResearchService) -> None:
    done = console()
    assert await run_research(args(goal="latest version of React"), service, done) == 0
    [session] = await service.store.list_sessions()
    for overrides in ({"approve": session.id}, {"cancel": "00000000-0000-4000-8000-000000000000"},
                      {"goal": "asdkjh qwe zzz"}):
        out = console()
        assert await run_research(args(**overrides), service, out) == 1, overrides
        assert out.stderr.getvalue().strip() and not out.stdout.getvalue().strip()  # type: ignore[attr-defined]
