"""The fake Discord's REST side: the state it keeps and the routes discord.py calls.

Messages, threads, interactions and commands live here; every call is recorded (``calls``), every
message is checked against Discord's limits (``discord_limits``; a violation is answered 400 like
Discord and kept in ``violations``), and switches make it answer like Discord does when things
go wrong: ``ratelimit(route, ...)`` (429 with ``Via`` and ``retry_after``), ``deny_threads``
(403 Missing Permissions on thread creation).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes import discord_payloads as p
from tests.fakes.discord_limits import message_violations

TOKEN = "fake-discord-token"
BOT_ID, APP_ID, GUILD_ID, CHANNEL_ID, DM_CHANNEL_ID = 9001, 9002, 7001, 7101, 7201
ALICE, BOB = 5001, 5002


@dataclass
class Call:
    method: str
    route: str  # the route template, e.g. "PATCH /channels/{cid}/messages/{mid}"
    path: str
    body: Any
    at: float
    status: int = 200


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    author: dict[str, Any]
    content: str
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    created_at: float = field(default_factory=time.monotonic)
    edits: list[float] = field(default_factory=list)  # when each successful edit landed
    # edits by PATCH /channels/{cid}/messages/{mid} only (not an interaction's own update)
    channel_edits: list[float] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # every content it had, oldest first
    deleted: bool = False
    interaction_id: int | None = None
    reference: int | None = None  # the message this one replies to

    @property
    def by_bot(self) -> bool:
        return self.author["id"] == str(BOT_ID)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])
                if "custom_id" in c]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    def text(self) -> str:
        """Content plus every embed's visible text (what a reader sees)."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", ""), e.get("footer", {}).get("text", "")]
            parts += [f"{f['name']} {f['value']}" for f in e.get("fields", [])]
        return "\n".join(x for x in parts if x)


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    channel_id: int
    user_id: int
    created_at: float
    responses: list[tuple[int, float]] = field(default_factory=list)  # (callback type, at)
    followups: list[int] = field(default_factory=list)
    original_message_id: int | None = None
    source_id: int | None = None  # the message a clicked component is on

    @property
    def answered_after(self) -> float | None:
        return self.responses[0][1] - self.created_at if self.responses else None


@dataclass
class _RateLimit:
    route: str
    times: int
    retry_after: float



class DiscordRest:
    def __init__(self) -> None:
        self.bot = p.user(BOT_ID, "oh-my-github", bot=True)
        self.users = {ALICE: p.user(ALICE, "alice"), BOB: p.user(BOB, "bob")}
        self.channels: dict[int, dict[str, Any]] = {
            CHANNEL_ID: p.text_channel(CHANNEL_ID, GUILD_ID, "general"),
            DM_CHANNEL_ID: p.dm_channel(DM_CHANNEL_ID, self.users[ALICE]),
        }
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.calls: list[Call] = []
        self.violations: list[str] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.deny_threads = False  # True: the bot lacks Create Public Threads
        self._limits: list[_RateLimit] = []

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event (the gateway side implements it)."""
        raise NotImplementedError

    def ratelimit(self, route: str, *, times: int = 1, retry_after: float = 0.5) -> None:
        """Answer the next ``times`` calls of ``route`` (e.g. "PATCH /channels/{cid}/messages/{mid}")
        with 429 and ``retry_after``."""
        self._limits.append(_RateLimit(route, times, retry_after))

    def calls_to(self, route: str) -> list[Call]:
        return [c for c in self.calls if c.route == route]

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body: Any = None
        if request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw and request.content_type == "application/json" else None
        route, args = _route(request.method, path)
        call = Call(request.method, route, path, body, time.monotonic())
        self.calls.append(call)
        limit = next((lim for lim in self._limits if lim.route == route and lim.times > 0), None)
        if limit is not None:
            limit.times -= 1
            call.status = 429
            return _json({"message": "You are being rate limited.", "retry_after": limit.retry_after,
                          "global": False}, 429, {
                "Via": "1.1 google", "Retry-After": str(max(1, round(limit.retry_after))),
                "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(limit.retry_after), "X-RateLimit-Scope": "user",
                "X-RateLimit-Bucket": "fake-" + route.replace(" ", ""),
            })
        handler = getattr(self, "_h_" + _handler_name(route), None)
        if handler is None:
            call.status = 404
            return _json({"message": f"Unknown route {route}", "code": 0}, 404)
        try:
            payload = handler(body or {}, request.query, **args)
        except _Reject as reject:
            call.status = reject.status
            return _json({"message": reject.message, "code": reject.code}, reject.status)
        if payload is None:
            call.status = 204
            return web.Response(status=204)
        if isinstance(payload, _Deferred):
            await payload.after()
            payload = payload.value
        return _json(payload, 200, {"X-RateLimit-Bucket": "fake-" + route.replace(" ", "")})

    # users / application / gateway
    def _h_get_me(self, body: Any, q: Any) -> Any:
        return self.bot

    def _h_get_application(self, body: Any, q: Any) -> Any:
        return {"id": str(APP_ID), "name": "oh-my-github", "icon": None, "description": "",
                "bot_public": True, "bot_require_code_grant": False, "verify_key": "00",
                "owner": self.users[ALICE], "flags": 0, "summary": ""}

    def _h_get_channel(self, body: Any, q: Any, cid: str) -> Any:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise _Reject(404, "Unknown Channel", 10003)
        return channel

    # messages
    def _h_post_message(self, body: Any, q: Any, cid: str) -> Any:
        self._check(body)
        reference = (body.get("message_reference") or {}).get("message_id")
        stored = self._store(int(cid), self.bot, body.get("content") or "",
                             embeds=body.get("embeds") or [], components=body.get("components") or [],
                             reference=int(reference) if reference else None)
        return self._message_payload(stored)

    def _h_patch_message(self, body: Any, q: Any, cid: str, mid: str) -> Any:
        stored = self._message(mid)
        if not stored.by_bot:
            raise _Reject(403, "Cannot edit a message authored by another user", 50005)
        self._edit(stored, body)
        stored.channel_edits.append(stored.edits[-1])
        return self._message_payload(stored)

    def _h_get_message(self, body: Any, q: Any, cid: str, mid: str) -> Any:
        return self._message_payload(self._message(mid))

    def _h_delete_message(self, body: Any, q: Any, cid: str, mid: str) -> Any:
        self._message(mid).deleted = True
        return None

    def _h_post_thread(self, body: Any, q: Any, cid: str, mid: str) -> Any:
        name = body.get("name") or ""
        if self.deny_threads:
            raise _Reject(403, "Missing Permissions", 50013)
        if not 1 <= len(name) <= 100:
            self.violations.append(f"thread name of {len(name)} characters")
            raise _Reject(400, "Invalid Form Body (name)", 50035)
        if int(mid) in self.channels:
            raise _Reject(400, "A thread has already been created for this message", 160004)
        parent = self.channels[int(cid)]
        thread = p.thread_channel(int(mid), GUILD_ID, int(parent["id"]), BOT_ID, name)
        self.channels[int(mid)] = thread
        return _Deferred(thread, lambda: self.dispatch(
            "THREAD_CREATE", {**thread, "newly_created": True}))

    # interactions
    def _h_post_callback(self, body: Any, q: Any, iid: str, token: str) -> Any:
        record = self.interactions.get(int(iid))
        if record is None or record.token != token:
            raise _Reject(404, "Unknown interaction", 10062)
        if record.responses:
            raise _Reject(400, "Interaction has already been acknowledged.", 40060)
        kind, data = body.get("type"), body.get("data") or {}
        record.responses.append((kind, time.monotonic()))
        message: StoredMessage | None = None
        if kind in (4, 5):  # a (deferred) channel message: Discord creates the response message
            self._check(data) if kind == 4 else None
            message = self._store(record.channel_id, self.bot, data.get("content") or "",
                                  embeds=data.get("embeds") or [],
                                  components=data.get("components") or [],
                                  flags=(data.get("flags") or 0) | (128 if kind == 5 else 0))
            message.interaction_id = record.id
            record.original_message_id = message.id
        elif kind == 7:  # update the message the component was on
            source = self._source_message(record)
            self._edit(source, data)
            message = source
            record.original_message_id = source.id
        elif kind == 6:  # deferred update: @original is the message the component was on
            record.original_message_id = record.source_id
        elif kind == 9:  # modal
            pass
        result: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": record.type,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
        }}
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            result["resource"] = {"type": kind, "message": self._message_payload(message)}
        return result

    def _h_post_followup(self, body: Any, q: Any, app: str, token: str) -> Any:
        record = self._by_token(token)
        self._check(body)
        loading = self.messages.get(record.original_message_id or 0)
        if loading is not None and loading.flags & 128 and not record.followups:
            loading.flags &= ~128  # the first follow-up replaces the "thinking…" message
            loading.flags |= (body.get("flags") or 0) & 64
            self._edit(loading, body)
            record.followups.append(loading.id)
            return self._message_payload(loading)
        stored = self._store(record.channel_id, self.bot, body.get("content") or "",
                             embeds=body.get("embeds") or [],
                             components=body.get("components") or [], flags=body.get("flags") or 0)
        stored.interaction_id = record.id
        record.followups.append(stored.id)
        return self._message_payload(stored)

    def _h_patch_webhook_message(self, body: Any, q: Any, app: str, token: str, mid: str) -> Any:
        record = self._by_token(token)
        target = record.original_message_id if mid == "@original" else int(mid)
        stored = self._message(str(target))
        stored.flags &= ~128
        self._edit(stored, body)
        return self._message_payload(stored)

    def _h_get_webhook_message(self, body: Any, q: Any, app: str, token: str, mid: str) -> Any:
        record = self._by_token(token)
        target = record.original_message_id if mid == "@original" else int(mid)
        return self._message_payload(self._message(str(target)))

    # application commands
    def _h_put_commands(self, body: Any, q: Any, app: str) -> Any:
        return self._put_commands("global", body)

    def _h_put_guild_commands(self, body: Any, q: Any, app: str, gid: str) -> Any:
        return self._put_commands(f"guild:{gid}", body)

    def _put_commands(self, scope: str, body: Any) -> Any:
        stored = [{**c, "id": str(p.snowflake()), "application_id": str(APP_ID), "version": "1",
                   "default_member_permissions": None, "type": c.get("type", 1)} for c in body]
        self.commands[scope] = stored
        return stored

    # -- helpers ---------------------------------------------------------------------------------

    def _check(self, body: dict[str, Any]) -> None:
        problems = message_violations(body)
        if problems:
            self.violations.extend(problems)
            raise _Reject(400, "Invalid Form Body: " + "; ".join(problems), 50035)

    def _store(self, channel_id: int, author: dict[str, Any], content: str, **kw: Any) -> StoredMessage:
        if channel_id not in self.channels:
            raise _Reject(404, "Unknown Channel", 10003)
        stored = StoredMessage(p.snowflake(), channel_id, author, content, **kw)
        self.messages[stored.id] = stored
        return stored

    def _edit(self, stored: StoredMessage, body: dict[str, Any]) -> None:
        merged = {"content": body.get("content", stored.content),
                  "embeds": body.get("embeds", stored.embeds),
                  "components": body.get("components", stored.components)}
        self._check(merged)
        stored.history.append(stored.content)
        stored.content = merged["content"] or ""
        stored.embeds = merged["embeds"] or []
        stored.components = merged["components"] or []
        stored.edits.append(time.monotonic())

    def _message(self, mid: str) -> StoredMessage:
        stored = self.messages.get(int(mid))
        if stored is None or stored.deleted:
            raise _Reject(404, "Unknown Message", 10008)
        return stored

    def _source_message(self, record: InteractionRecord) -> StoredMessage:
        if record.source_id is None:
            raise _Reject(400, "Interaction has no message to update", 0)
        return self._message(str(record.source_id))

    def _by_token(self, token: str) -> InteractionRecord:
        for record in self.interactions.values():
            if record.token == token:
                return record
        raise _Reject(404, "Unknown Webhook", 10015)

    def _message_payload(self, stored: StoredMessage) -> dict[str, Any]:
        channel = self.channels[stored.channel_id]
        payload = p.message(
            stored.id, channel, stored.author, stored.content,
            embeds=stored.embeds, components=stored.components, mentions=stored.mentions,
            flags=stored.flags, application_id=APP_ID if stored.by_bot else None,
            webhook_id=APP_ID if stored.interaction_id else None,
            edited_at=time.time() if stored.edits else None,
        )
        if stored.reference is not None:
            payload["type"] = 19  # a reply
            payload["message_reference"] = {"type": 0, "message_id": str(stored.reference),
                                            "channel_id": channel["id"],
                                            "guild_id": channel.get("guild_id")}
        return payload



class _Reject(Exception):
    def __init__(self, status: int, message: str, code: int) -> None:
        super().__init__(message)
        self.status, self.message, self.code = status, message, code


@dataclass
class _Deferred:
    """A response whose side effect (a gateway event) follows the REST answer's creation."""

    value: Any
    after: Callable[[], Any]


_ROUTES: list[tuple[str, list[str], str]] = [
    ("GET", ["users", "@me"], "get_me"),
    ("GET", ["oauth2", "applications", "@me"], "get_application"),
    ("GET", ["channels", "{cid}"], "get_channel"),
    ("POST", ["channels", "{cid}", "messages"], "post_message"),
    ("PATCH", ["channels", "{cid}", "messages", "{mid}"], "patch_message"),
    ("GET", ["channels", "{cid}", "messages", "{mid}"], "get_message"),
    ("DELETE", ["channels", "{cid}", "messages", "{mid}"], "delete_message"),
    ("POST", ["channels", "{cid}", "messages", "{mid}", "threads"], "post_thread"),
    ("POST", ["interactions", "{iid}", "{token}", "callback"], "post_callback"),
    ("POST", ["webhooks", "{app}", "{token}"], "post_followup"),
    ("PATCH", ["webhooks", "{app}", "{token}", "messages", "{mid}"], "patch_webhook_message"),
    ("GET", ["webhooks", "{app}", "{token}", "messages", "{mid}"], "get_webhook_message"),
    ("PUT", ["applications", "{app}", "commands"], "put_commands"),
    ("PUT", ["applications", "{app}", "guilds", "{gid}", "commands"], "put_guild_commands"),
]
_NAMES = {f"{m} /{'/'.join(parts)}": name for m, parts, name in _ROUTES}


def _route(method: str, path: str) -> tuple[str, dict[str, str]]:
    segments = [s for s in path.split("/") if s]
    for m, parts, _ in _ROUTES:
        if m != method or len(parts) != len(segments):
            continue
        args: dict[str, str] = {}
        for part, seg in zip(parts, segments, strict=True):
            if part.startswith("{"):
                args[part[1:-1]] = seg
            elif part != seg:
                break
        else:
            return f"{m} /{'/'.join(parts)}", args
    return f"{method} {path}", {}


def _handler_name(route: str) -> str:
    return _NAMES.get(route, "")


def _json(payload: Any, status: int, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when the content type is exactly "application/json"
    return web.Response(body=json.dumps(payload).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})
