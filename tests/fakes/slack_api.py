"""A fake Slack Web API on loopback, for tests and benchmarks of the Slack adapter.

Point the real ``AsyncWebClient(base_url=fake.base_url)`` at it. It records every call, keeps the
messages it was sent (so ``chat.update``, ``chat.delete`` and ``conversations.replies`` behave),
validates every Block Kit payload against Slack's limits (``validate_message``; a violation is
answered ``invalid_blocks`` like Slack does, and kept in ``violations``), and has switches::

    fake.ratelimit("chat.update", times=1, retry_after=1)   # 429 + Retry-After
    fake.max_message_chars = 4000                            # msg_too_long above this
    fake.fail("chat.postMessage", "not_in_channel")          # any Slack error, once

Socket Mode too: ``apps.connections.open`` hands out a WebSocket on the same server, and
``await fake.socket_send("events_api", body)`` delivers an envelope; acks land in ``socket_acks``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block

from tests.fakes.loopback import serve_on_loopback, stop_serving

BOT_USER = "UBOT"
BOT_ID = "BBOT"
TEAM = "T1"
TOKEN = "xoxb-test-token"
APP_TOKEN = "xapp-test-token"

_BLOCK_TYPES = {"section", "context", "actions", "divider", "header", "rich_text", "image", "markdown",
                "table", "context_actions"}
MAX_MARKDOWN_TOTAL = 12_000  # all markdown blocks of one message together


@dataclass
class Call:
    method: str
    args: dict[str, Any]
    at: float
    ok: bool = True
    error: str | None = None


@dataclass
class _Switch:
    error: str
    times: int
    status: int = 200
    retry_after: float | None = None


def _text_of(element: Any) -> str:
    if isinstance(element, dict):
        inner = element.get("text")
        return inner if isinstance(inner, str) else _text_of(inner) if inner else ""
    return ""


def message_chars(args: dict[str, Any]) -> int:
    """Visible characters of a message: its text plus the text in its blocks."""
    total = len(args.get("text") or "")
    for block in args.get("blocks") or []:
        total += len(_text_of(block))
        for item in block.get("fields", []) + block.get("elements", []):
            total += len(_text_of(item)) if isinstance(item.get("text"), (dict, str)) else 0
    return total


def sdk_problems(block: dict[str, Any]) -> list[str]:
    """What slack_sdk's own block models say about a block: it must parse, keep every key we
    sent (an unknown key is dropped by the model) and pass the model's validators."""
    try:
        model = Block.parse(block)
        if model is None:
            return ["slack_sdk does not know this block"]
        model.validate_json()
        lost = set(block) - set(model.to_dict())
    except (SlackObjectFormationError, TypeError, ValueError) as exc:
        return [f"slack_sdk: {exc}"]
    return [f"slack_sdk dropped {sorted(lost)}"] if lost else []


def validate_message(args: dict[str, Any]) -> list[str]:
    """Slack's Block Kit limits, as a list of violations (empty when valid)."""
    problems: list[str] = []
    blocks = args.get("blocks")
    text = args.get("text")
    if not blocks and not text:
        problems.append("no text and no blocks")
    if blocks is None:
        return problems
    if not isinstance(text, str) or not text.strip():
        problems.append("blocks without a plain text fallback")
    if len(blocks) > 50:
        problems.append(f"{len(blocks)} blocks (max 50)")
    block_ids: set[str] = set()
    action_ids: set[str] = set()
    markdown_total = sum(len(b.get("text", "")) for b in blocks if b.get("type") == "markdown")
    if markdown_total > MAX_MARKDOWN_TOTAL:
        problems.append(f"markdown blocks total {markdown_total} characters (max {MAX_MARKDOWN_TOTAL})")
    if sum(1 for b in blocks if b.get("type") == "table") > 1:
        problems.append("more than one table block")
    for n, block in enumerate(blocks):
        kind = block.get("type")
        where = f"block {n} ({kind})"
        if kind not in _BLOCK_TYPES:
            problems.append(f"{where}: unknown type")
        problems += [f"{where}: {p}" for p in sdk_problems(block)]
        if "block_id" in block:
            if len(block["block_id"]) > 255 or block["block_id"] in block_ids:
                problems.append(f"{where}: bad or duplicate block_id")
            block_ids.add(block["block_id"])
        if kind == "section":
            body = block.get("text")
            fields = block.get("fields") or []
            if not body and not fields:
                problems.append(f"{where}: no text and no fields")
            if body is not None and not (1 <= len(body.get("text", "")) <= 3000):
                problems.append(f"{where}: text length {len(body.get('text', ''))} (1..3000)")
            if len(fields) > 10 or any(not 1 <= len(f.get("text", "")) <= 2000 for f in fields):
                problems.append(f"{where}: fields over the limits")
        elif kind == "header":
            if not 1 <= len(block.get("text", {}).get("text", "")) <= 150:
                problems.append(f"{where}: header text length")
        elif kind == "context":
            elements = block.get("elements") or []
            if not 1 <= len(elements) <= 10:
                problems.append(f"{where}: {len(elements)} elements (1..10)")
            if any(not 1 <= len(e.get("text", "")) <= 3000 for e in elements if "text" in e):
                problems.append(f"{where}: element text length")
        elif kind == "actions":
            elements = block.get("elements") or []
            if not 1 <= len(elements) <= 25:
                problems.append(f"{where}: {len(elements)} elements (1..25)")
            for button in elements:
                label = button.get("text", {}).get("text", "")
                action_id = button.get("action_id", "")
                if button.get("type") != "button":
                    continue
                if not 1 <= len(label) <= 75:
                    problems.append(f"{where}: button text length {len(label)} (1..75)")
                if len(button.get("value", "")) > 2000:
                    problems.append(f"{where}: button value over 2000")
                if not action_id or len(action_id) > 255 or action_id in action_ids:
                    problems.append(f"{where}: bad or duplicate action_id {action_id!r}")
                action_ids.add(action_id)
                if button.get("style") not in (None, "primary", "danger"):
                    problems.append(f"{where}: bad button style")
    return problems


@dataclass
class StoredMessage:
    channel: str
    ts: str
    text: str
    blocks: list[dict] = field(default_factory=list)
    thread_ts: str | None = None
    user: str = BOT_USER
    bot_id: str | None = BOT_ID
    streamed: bool = False  # written by chat.startStream / appendStream / stopStream

    def as_dict(self) -> dict[str, Any]:
        data = {"type": "message", "ts": self.ts, "text": self.text, "user": self.user}
        if self.bot_id:
            data["bot_id"] = self.bot_id
        if self.thread_ts:
            data["thread_ts"] = self.thread_ts
        if self.blocks:
            data["blocks"] = self.blocks
        return data


class FakeSlackApi:
    def __init__(self, *, token: str = TOKEN, app_token: str = APP_TOKEN) -> None:
        self.token = token
        self.app_token = app_token
        self.socket_acks: list[dict[str, Any]] = []
        self._sockets: list[web.WebSocketResponse] = []
        self._socket_ready = asyncio.Event()
        self._envelopes = itertools.count(1)
        self.calls: list[Call] = []
        self.violations: list[str] = []
        self.responses: list[dict[str, Any]] = []  # what was sent to response_url endpoints
        self.messages: dict[tuple[str, str], StoredMessage] = {}
        self.streaming: set[tuple[str, str]] = set()  # messages started and not yet stopped
        self.max_message_chars: int | None = None
        self._switches: dict[str, list[_Switch]] = defaultdict(list)
        self._ts = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------

    async def __aenter__(self) -> "FakeSlackApi":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        app = web.Application()
        app.add_routes([web.route("*", "/api/{method}", self._api),
                        web.post("/response/{id}", self._response), web.get("/socket", self._socket)])
        self._runner, self.port = await serve_on_loopback(app)

    async def stop(self) -> None:
        await stop_serving(self._runner, self._sockets)
        self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    def response_url(self, name: str = "1") -> str:
        return f"http://127.0.0.1:{self.port}/response/{name}"

    # -- switches and seeds --------------------------------------------------------------------

    def ratelimit(self, method: str, *, times: int = 1, retry_after: float = 1) -> None:
        self._switches[method].append(_Switch("ratelimited", times, 429, retry_after))

    def fail(self, method: str, error: str, *, times: int = 1) -> None:
        self._switches[method].append(_Switch(error, times))

    def add_message(self, channel: str, ts: str, text: str, *, user: str = "UHUMAN",
                    thread_ts: str | None = None) -> None:
        self.messages[(channel, ts)] = StoredMessage(channel, ts, text, thread_ts=thread_ts,
                                                     user=user, bot_id=None)

    # -- what happened -------------------------------------------------------------------------

    def calls_to(self, method: str, *, ok: bool | None = True) -> list[Call]:
        return [c for c in self.calls if c.method == method and (ok is None or c.ok == ok)]

    def thread(self, channel: str, thread_ts: str) -> list[StoredMessage]:
        """Messages in a thread (the parent included), oldest first, as they are now."""
        found = [m for m in self.messages.values()
                 if m.channel == channel and (m.ts == thread_ts or m.thread_ts == thread_ts)]
        return sorted(found, key=lambda m: float(m.ts))

    def update_times(self) -> dict[tuple[str, str], list[float]]:
        """When each message was successfully updated."""
        times: dict[tuple[str, str], list[float]] = defaultdict(list)
        for call in self.calls_to("chat.update"):
            times[(call.args["channel"], call.args["ts"])].append(call.at)
        return dict(times)

    def min_update_gap(self) -> float | None:
        gaps = [b - a for ts in self.update_times().values() for a, b in zip(ts, ts[1:])]
        return min(gaps) if gaps else None

    # -- Socket Mode ---------------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"type": "hello", "num_connections": 1,
                                      "connection_info": {"app_id": "A1"}}))
        self._socket_ready.set()
        async for message in ws:
            if message.type.name == "TEXT":
                self.socket_acks.append(json.loads(message.data))
        self._sockets.remove(ws)
        return ws

    async def socket_send(self, kind: str, payload: dict[str, Any], *, retry_attempt: int = 0) -> str:
        """Deliver an envelope (``events_api``, ``interactive``, ``slash_commands``); returns its id."""
        await asyncio.wait_for(self._socket_ready.wait(), 5)
        envelope_id = f"env-{next(self._envelopes)}"
        await self._sockets[-1].send_str(json.dumps({
            "envelope_id": envelope_id, "type": kind, "payload": payload,
            "accepts_response_payload": kind != "events_api",
            "retry_attempt": retry_attempt, "retry_reason": "timeout" if retry_attempt else "",
        }))
        return envelope_id

    async def socket_ack(self, envelope_id: str, timeout: float = 5.0) -> dict[str, Any]:
        async def wait() -> dict[str, Any]:
            while True:
                for ack in self.socket_acks:
                    if ack.get("envelope_id") == envelope_id:
                        return ack
                await asyncio.sleep(0.005)
        return await asyncio.wait_for(wait(), timeout)

    # -- the API ---------------------------------------------------------------------------------

    async def _response(self, request: web.Request) -> web.Response:
        self.responses.append(await request.json())
        return web.Response(text="ok")

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await _arguments(request)
        call = Call(method, args, time.monotonic())
        self.calls.append(call)
        expected = self.app_token if method == "apps.connections.open" else self.token
        if request.headers.get("Authorization") != f"Bearer {expected}":
            return self._error(call, "invalid_auth")
        switch = self._take_switch(method)
        if switch is not None:
            headers = {}
            if switch.retry_after is not None:
                headers["Retry-After"] = f"{switch.retry_after:g}"
            return self._error(call, switch.error, status=switch.status, headers=headers)
        handler = getattr(self, "_" + method.replace(".", "_"), None)
        result = handler(args) if handler else {}
        if "error" in result:
            return self._error(call, result["error"], extra=result)
        return web.json_response({"ok": True, **result})

    def _take_switch(self, method: str) -> _Switch | None:
        queue = self._switches.get(method)
        if not queue:
            return None
        switch = queue[0]
        switch.times -= 1
        if switch.times <= 0:
            queue.pop(0)
        return switch

    def _error(self, call: Call, error: str, *, status: int = 200, headers: dict | None = None,
               extra: dict | None = None) -> web.Response:
        call.ok, call.error = False, error
        body = {**(extra or {}), "ok": False, "error": error}
        return web.json_response(body, status=status, headers=headers or {})

    def _next_ts(self) -> str:
        return f"{1_700_000_000 + next(self._ts) / 10_000:.6f}"

    def _check(self, args: dict[str, Any]) -> dict[str, Any] | None:
        problems = validate_message(args)
        if problems:
            self.violations.extend(problems)
            return {"error": "invalid_blocks", "errors": problems}
        if self.max_message_chars is not None and message_chars(args) > self.max_message_chars:
            return {"error": "msg_too_long"}
        return None

    def _auth_test(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"url": "https://fake.slack.com/", "team": "Fake", "user": "oh-my-github",
                "team_id": TEAM, "user_id": BOT_USER, "bot_id": BOT_ID}

    def _apps_connections_open(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"url": f"ws://127.0.0.1:{self.port}/socket"}

    def _chat_postMessage(self, args: dict[str, Any]) -> dict[str, Any]:
        refused = self._check(args)
        if refused:
            return refused
        ts = self._next_ts()
        channel = args.get("channel", "")
        stored = StoredMessage(channel, ts, args.get("text", ""), args.get("blocks") or [],
                               thread_ts=args.get("thread_ts"))
        self.messages[(channel, ts)] = stored
        return {"channel": channel, "ts": ts, "message": stored.as_dict()}

    def _chat_update(self, args: dict[str, Any]) -> dict[str, Any]:
        stored = self.messages.get((args.get("channel", ""), args.get("ts", "")))
        if stored is None:
            return {"error": "message_not_found"}
        refused = self._check(args)
        if refused:
            return refused
        stored.text, stored.blocks = args.get("text", ""), args.get("blocks") or []
        return {"channel": stored.channel, "ts": stored.ts, "text": stored.text}

    def _chat_delete(self, args: dict[str, Any]) -> dict[str, Any]:
        if self.messages.pop((args.get("channel", ""), args.get("ts", "")), None) is None:
            return {"error": "message_not_found"}
        return {"channel": args["channel"], "ts": args["ts"]}

    def _chat_postEphemeral(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._check(args) or {"message_ts": self._next_ts()}

    def _conversations_replies(self, args: dict[str, Any]) -> dict[str, Any]:
        messages = self.thread(args.get("channel", ""), args.get("ts", ""))
        if not messages:
            return {"error": "thread_not_found"}
        return {"messages": [m.as_dict() for m in messages], "has_more": False}

    # -- streaming: one message that grows, then gets its blocks ----------------------------------

    @staticmethod
    def _streamed_text(args: dict[str, Any]) -> str | None:
        """``markdown_text`` and the text of ``markdown_text`` chunks (None: a malformed chunk)."""
        text = args.get("markdown_text") or ""
        for chunk in args.get("chunks") or []:
            if not isinstance(chunk, dict) or chunk.get("type") not in ("markdown_text", "task_update", "plan"):
                return None
            if chunk["type"] == "markdown_text":
                if not isinstance(chunk.get("text"), str):
                    return None
                text += chunk["text"]
        return text

    def _chat_startStream(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = args.get("channel", "")
        if not args.get("thread_ts"):
            return {"error": "invalid_arguments"}  # streams are replies to a person's message
        if not channel.startswith("D") and not (args.get("recipient_user_id") and args.get("recipient_team_id")):
            return {"error": "invalid_arguments"}  # channels need the recipient
        text = self._streamed_text(args)
        if text is None:
            return {"error": "invalid_chunks"}
        if len(text) > MAX_MARKDOWN_TOTAL:
            return {"error": "msg_too_long"}
        ts = self._next_ts()
        self.messages[(channel, ts)] = StoredMessage(channel, ts, text, thread_ts=args["thread_ts"], streamed=True)
        self.streaming.add((channel, ts))
        return {"channel": channel, "ts": ts}

    def _chat_appendStream(self, args: dict[str, Any]) -> dict[str, Any]:
        key = (args.get("channel", ""), args.get("ts", ""))
        if key not in self.streaming:
            return {"error": "message_not_in_streaming_state"}
        text = self._streamed_text(args)
        if not text or len(text) > MAX_MARKDOWN_TOTAL:
            return {"error": "invalid_arguments"}
        self.messages[key].text += text
        return {"channel": key[0], "ts": key[1]}

    def _chat_stopStream(self, args: dict[str, Any]) -> dict[str, Any]:
        key = (args.get("channel", ""), args.get("ts", ""))
        if key not in self.streaming:
            return {"error": "message_not_in_streaming_state"}
        blocks = args.get("blocks") or []
        problems = validate_message({"text": "streamed", "blocks": blocks}) if blocks else []
        if problems:
            self.violations.extend(problems)
            return {"error": "invalid_blocks", "errors": problems}
        text = self._streamed_text(args)
        if text is None:
            return {"error": "invalid_chunks"}
        self.streaming.discard(key)
        stored = self.messages[key]
        stored.text += text
        stored.blocks = blocks
        return {"channel": key[0], "ts": key[1]}

    # -- the assistant surface ---------------------------------------------------------------------

    def _assistant_threads_setStatus(self, args: dict[str, Any]) -> dict[str, Any]:
        loading = args.get("loading_messages") or []
        if isinstance(loading, str):
            loading = json.loads(loading)
        if not args.get("channel_id") or not args.get("thread_ts") or "status" not in args:
            return {"error": "invalid_arguments"}
        if len(loading) > 10 or any(not isinstance(m, str) or not m for m in loading):
            return {"error": "invalid_arguments"}
        return {}

    def _assistant_threads_setTitle(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("channel_id") or not args.get("thread_ts") or not args.get("title"):
            return {"error": "invalid_arguments"}
        return {}

    def _assistant_threads_setSuggestedPrompts(self, args: dict[str, Any]) -> dict[str, Any]:
        prompts = args.get("prompts") or []
        if not args.get("channel_id") or not args.get("thread_ts") or not 1 <= len(prompts) <= 4:
            return {"error": "invalid_arguments"}
        if any(not p.get("title") or not p.get("message") for p in prompts):
            return {"error": "invalid_arguments"}
        return {}


async def _arguments(request: web.Request) -> dict[str, Any]:
    """The SDK sends ``params`` in the query string (even on POST), ``json`` or form in the body."""
    args: dict[str, Any] = dict(request.query)
    if request.method != "GET" and request.content_type == "application/json":
        data = await request.json()
        args.update(data if isinstance(data, dict) else {})
    elif request.method != "GET":
        form = await request.post()
        args.update({k: v for k, v in form.items() if isinstance(v, str)})
    for key in ("blocks", "attachments", "prompts", "loading_messages", "chunks"):
        if isinstance(args.get(key), str):
            try:
                args[key] = json.loads(args[key])
            except ValueError:
                pass
    return args
