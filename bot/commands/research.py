"""``omg research``: run research from the terminal, with the same approval rules as chat.

    omg research "<goal>" [--quick|--deep] [--yes] [--json]
    omg research --approve ID | --revise ID --feedback "..." | --cancel ID
    omg research --show ID | --list | --resume

Interactive (a terminal on stdin): a Deep Probe plan offers 1) Approve 2) Revise 3) Cancel.
Otherwise the plan and its session id are printed, and the follow-up commands decide on it.
Progress goes to stderr, plans and reports to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
from dataclasses import dataclass
from typing import IO

from core.errors import OmgError
from core.models import ActionClick, ActionKind, ConversationKey, LogEvent, ProgressEvent, Reply
from core.research.service import ResearchService, action_value, error_reply

CHOICES = {"1": ActionKind.APPROVE, "2": ActionKind.REVISE, "3": ActionKind.CANCEL,
           "approve": ActionKind.APPROVE, "revise": ActionKind.REVISE, "cancel": ActionKind.CANCEL}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("research", help="research a goal: Quick Scan or Deep Probe with an approved plan")
    parser.add_argument("goal", nargs="?", help="what to research")
    depth = parser.add_mutually_exclusive_group()
    depth.add_argument("--quick", action="store_const", const="quick_scan", dest="mode", help="force a Quick Scan")
    depth.add_argument("--deep", action="store_const", const="deep_probe", dest="mode", help="force a Deep Probe")
    follow = parser.add_mutually_exclusive_group()
    follow.add_argument("--approve", metavar="ID", help="approve a pending plan and run it")
    follow.add_argument("--revise", metavar="ID", help="revise a pending plan (with --feedback)")
    follow.add_argument("--cancel", metavar="ID", help="cancel a pending or running session")
    follow.add_argument("--show", metavar="ID", help="print a session's plan or report")
    follow.add_argument("--list", action="store_true", help="list research sessions")
    follow.add_argument("--resume", action="store_true", help="continue interrupted runs, then exit")
    parser.add_argument("--feedback", help="what should change in the plan (with --revise)")
    parser.add_argument("--yes", action="store_true", help="approve a Deep Probe plan without asking")
    parser.add_argument("--json", action="store_true", help="print replies as JSON")
    parser.set_defaults(func=lambda args: asyncio.run(_main(args)))


@dataclass
class Console:
    stdin: IO[str]
    stdout: IO[str]
    stderr: IO[str]
    interactive: bool
    as_json: bool = False

    async def progress(self, event: ProgressEvent) -> None:
        if isinstance(event, LogEvent):
            print(f"… {event.content}", file=self.stderr, flush=True)

    def show(self, reply: Reply) -> None:
        if self.as_json:
            print(json.dumps(reply.dump(), ensure_ascii=False), file=self.stdout, flush=True)
            return
        print(reply.markdown, file=self.stderr if reply.error else self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        print(prompt, end="", file=self.stderr, flush=True)
        line = self.stdin.readline()
        return line.strip() if line else None


def requester() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli:local"


async def _main(args: argparse.Namespace) -> int:
    from bot.app import open_app  # the composition root builds the same service the bots use

    app = await open_app()
    try:
        if app.research is None:
            print("Research isn't enabled.", file=sys.stderr)
            return 1
        console = Console(sys.stdin, sys.stdout, sys.stderr, interactive=sys.stdin.isatty(), as_json=args.json)
        return await run_research(args, app.research, console)
    finally:
        await app.aclose()


async def run_research(args: argparse.Namespace, service: ResearchService, console: Console) -> int:
    user = requester()
    try:
        if args.list:
            return await _list(service, console)
        if args.show:
            return await _show(service, args.show, console)
        if args.resume:
            ids = await service.resume_incomplete(wait=True)
            print(f"Resumed {len(ids)} session(s).", file=console.stderr)
            for session_id in ids:
                await _show(service, session_id, console)
            return 0
        for kind, session_id in ((ActionKind.APPROVE, args.approve), (ActionKind.REVISE, args.revise),
                                 (ActionKind.CANCEL, args.cancel)):
            if session_id:
                if kind is ActionKind.REVISE and not (args.feedback or "").strip():
                    print("Say what should change: --revise ID --feedback \"...\"", file=console.stderr)
                    return 2
                return await _decide(service, session_id, kind, user, console, args.feedback)
        if not args.goal:
            print('Give a goal: omg research "<goal>" [--quick|--deep]', file=console.stderr)
            return 1
        return await _start(args, service, user, console)
    except OmgError as exc:
        console.show(error_reply(exc, "cli"))
        return 1


async def _start(args: argparse.Namespace, service: ResearchService, user: str, console: Console) -> int:
    key = ConversationKey(platform="cli", channel="research", thread=user.replace(":", "-"))
    reply = await service.start(args.goal, key=key, requester=user, mode=args.mode, progress=console.progress)
    console.show(reply)
    while reply.actions and reply.error is None:
        session_id = reply.actions[0].value.split(":", 1)[0]
        if args.yes:
            choice: str | None = "1"
        elif console.interactive:
            choice = console.ask("\n1) Approve   2) Revise   3) Cancel  > ")
        else:
            print(f"\nSession {session_id} is waiting for review:\n"
                  f"  omg research --approve {session_id}\n"
                  f"  omg research --revise {session_id} --feedback \"...\"\n"
                  f"  omg research --cancel {session_id}", file=console.stderr)
            return 0
        kind = CHOICES.get((choice or "").lower())
        if choice is None:
            return 0
        if kind is None:
            print("Type 1, 2 or 3.", file=console.stderr)
            continue
        feedback = console.ask("What should change? > ") if kind is ActionKind.REVISE else None
        if kind is ActionKind.REVISE and not feedback:
            continue
        value = reply.actions[0].value + (f":{feedback}" if feedback else "")
        reply = await service.decide(ActionClick(key=key, kind=kind, value=value, user=user), console.progress)
        console.show(reply)
    return 1 if reply.error else 0


async def _decide(service: ResearchService, session_id: str, kind: ActionKind, user: str,
                  console: Console, feedback: str | None) -> int:
    session = await service.store.get(session_id)
    value = action_value(session) + (f":{feedback.strip()}" if feedback else "")
    reply = await service.decide(ActionClick(key=session.key, kind=kind, value=value, user=user), console.progress)
    console.show(reply)
    return 1 if reply.error else 0


async def _show(service: ResearchService, session_id: str, console: Console) -> int:
    session = await service.store.get(session_id)
    if session.report:
        reply = service.final_reply(session, session.key.conversation_id)
    elif session.plan is not None:
        reply = service.plan_reply(session, session.key.conversation_id)
    else:
        reply = Reply(conversation_id=session.key.conversation_id,
                      markdown=f"Session {session.id}: {session.status.value}.")
    console.show(reply)
    return 0


async def _list(service: ResearchService, console: Console) -> int:
    sessions = sorted(await service.store.list_sessions(), key=lambda s: s.created_at)
    if console.as_json:
        for s in sessions:
            print(json.dumps({"id": s.id, "status": s.status.value, "mode": s.mode, "query": s.query,
                              "createdAt": s.created_at.isoformat()}), file=console.stdout)
        return 0
    for s in sessions:
        mode = s.mode.label if s.mode else "-"
        print(f"{s.id}  {s.status.value:<14} {mode:<10} {s.query[:70]}", file=console.stdout)
    if not sessions:
        print("No research sessions yet.", file=console.stdout)
    return 0
