"""``omg stats [--json] [--day YYYY-MM-DD] [--conversation ID]``: LLM setup, prices and spend."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import date

from core.config import CoreSettings, load_environment
from core.errors import InvalidId
from core.llm.budget import read_spend
from core.llm.report import llm_report, render_report
from core.llm.settings import LLMSettings
from core.store import FileConversationStore
from core.store.ids import check_id


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("stats", help="LLM providers, prices, today's spend per workspace")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument("--day", help="UTC day to report (default: today)")
    parser.add_argument("--conversation", help="also show one conversation's accumulated cost")
    parser.set_defaults(func=lambda args: asyncio.run(_stats(args)))


async def _stats(args: argparse.Namespace) -> int:
    try:
        day = date.fromisoformat(args.day) if args.day else None
    except ValueError:
        print("--day takes a date like 2026-03-01.", file=sys.stderr)
        return 2
    env = load_environment()
    core = CoreSettings.from_env(env)
    settings = LLMSettings.from_env(env, data_dir=core.data_dir)
    spend = read_spend(settings.budget_dir, day) if settings.budget_dir else {}
    report = llm_report(settings, spend, day=day)
    if args.conversation:
        try:
            check_id(args.conversation)
        except InvalidId:
            print("That conversation id isn't valid.", file=sys.stderr)
            return 2
        store = FileConversationStore(core.data_dir)
        conversation = await store.get(args.conversation)
        await store.close()
        report["conversation"] = (
            {"id": conversation.id, **conversation.cost.dump()} if conversation else None
        )
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(render_report(report))
    if args.conversation:
        cost = report["conversation"]
        print(f"Conversation {args.conversation}: " + (
            "not found" if cost is None else
            f"{cost['calls']} LLM calls, {cost['inputTokens']} in / {cost['outputTokens']} out "
            f"tokens, ${cost['usd']:.4f}"))
    return 0
