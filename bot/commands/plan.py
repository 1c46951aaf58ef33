"""``omg plan``: the research evaluation interface (JSON Lines in, JSON Lines out, offline).

Each input line is ``{"query": str, "mode"?: "quick_scan" | "deep_probe"}``; each output line is
``{"mode", "rationale", "status", "steps": [{"type", "description", "search_queries"}]}`` where
``status`` is the state reached without approval (REVIEW_PENDING for a Deep Probe, EXECUTING for
a Quick Scan, whose steps are not run here). Blank lines are skipped; a bad line gets
``{"mode": null, "rationale": null, "status": "ERROR", "steps": [], "error": code, "message": ...}``.
No LLM and no network: the local analyzer and planner answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import IO, Any

from core.errors import OmgError
from core.models import ConversationKey
from core.research.factory import offline_orchestrator
from core.research.goal import InvalidGoal
from core.research.orchestrator import Orchestrator

KEY = ConversationKey(platform="cli", channel="plan", thread="stdin")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "plan", help="research plans for JSON Lines on stdin (offline evaluation interface)"
    )
    parser.set_defaults(func=lambda args: asyncio.run(run_plan(sys.stdin, sys.stdout)))


def _error(code: str, message: str) -> dict[str, Any]:
    return {"mode": None, "rationale": None, "status": "ERROR", "steps": [], "error": code, "message": message}


async def plan_line(orchestrator: Orchestrator, line: str) -> dict[str, Any]:
    try:
        item = json.loads(line)
    except ValueError:
        return _error("bad_json", "This line isn't valid JSON.")
    if not isinstance(item, dict) or not isinstance(item.get("query"), str):
        return _error("bad_input", 'Each line must be an object with a string "query".')
    mode = item.get("mode")
    if mode is not None and not isinstance(mode, str):
        return _error("invalid_mode", '"mode" must be "quick_scan" or "deep_probe".')
    try:
        session, _ = await orchestrator.create(item["query"], requester="cli", key=KEY, mode=mode)
    except InvalidGoal as exc:
        return _error(exc.code, exc.user_message)
    except OmgError as exc:
        return _error("research_error", exc.user_message)
    plan = session.plan
    assert plan is not None and session.mode is not None
    return {
        "mode": session.mode.value,
        "rationale": plan.rationale,
        "status": session.status.value,
        "steps": [
            {"type": s.type.value, "description": s.description, "search_queries": s.search_queries}
            for s in plan.steps
        ],
    }


async def run_plan(stdin: IO[str], stdout: IO[str]) -> int:
    orchestrator = offline_orchestrator()
    for line in stdin:
        if not line.strip():
            continue
        try:
            answer = await plan_line(orchestrator, line)
        except Exception as exc:  # never crash on one line
            answer = _error("internal", f"Unexpected {type(exc).__name__}.")
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
        await orchestrator.store.close()  # sessions are not kept: memory stays flat over any input
    return 0
