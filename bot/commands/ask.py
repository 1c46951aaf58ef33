"""``omg ask "<message>" [--conversation ID] [--json]``: one message in a stored conversation."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid

from bot.app import open_app
from bot.shell.render import TerminalRenderer
from core.models import ConversationKey, IncomingMessage
from core.errors import InvalidId
from core.store.ids import check_id


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("ask", help="answer one message (scripts: --json)")
    parser.add_argument("message")
    parser.add_argument("--conversation", help="conversation id to continue (default: a new one)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.set_defaults(func=lambda args: asyncio.run(_ask(args)))


async def _ask(args: argparse.Namespace) -> int:
    conversation_id = args.conversation or f"cli-{uuid.uuid4().hex[:12]}"
    try:
        check_id(conversation_id)
    except InvalidId:
        problem = (
            "That conversation id isn't valid: use at most 200 letters, digits, '.', '-', '_', "
            "':' or '@' (no '..')."
        )
        if args.json:
            print(json.dumps({"error": "invalid_conversation_id", "message": problem}))
        else:
            print(problem, file=sys.stderr)
        return 2
    app = await open_app()
    try:
        reply = await app.service.handle_message(
            IncomingMessage(
                key=ConversationKey(platform="cli", channel="local", thread=conversation_id),
                conversation_id=conversation_id,
                text=args.message,
                author="cli",
            )
        )
    finally:
        await app.aclose()
    if args.json:
        payload = {
            "conversation_id": reply.conversation_id,
            "intent": reply.intent.value if reply.intent else None,
            "confidence": reply.confidence,
            "structured_data": reply.structured_data.dump() if reply.structured_data else None,
            "markdown": reply.markdown,
            "suggestions": reply.suggestions,
        }
        print(json.dumps(payload, ensure_ascii=False))
    else:
        renderer = TerminalRenderer(color=sys.stdout.isatty())
        print(renderer.markdown(reply.markdown))
        if reply.footer:
            print(renderer.dim(reply.footer))
        if reply.suggestions:
            print(renderer.dim("Try: " + " · ".join(reply.suggestions)))
        print(renderer.dim(f"(conversation: {reply.conversation_id})"), file=sys.stderr)
    return 0
