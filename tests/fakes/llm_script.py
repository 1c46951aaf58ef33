"""What the fake LLM servers answer: a script of replies, consumed one per request.

Both fakes (``openai_server``, ``gemini_server``) share this: a test pushes ``FakeReply`` items
(good JSON, fenced JSON, a ``<think>`` preamble, garbage, an HTTP error with headers, a slow
answer), or installs a ``responder`` function for open-ended runs (benchmarks, whole turns).
Every request body is recorded so tests can assert on the prompt the real SDK sent.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.loopback import serve_on_loopback, stop_serving


@dataclass(slots=True)
class FakeReply:
    """One scripted answer: either model text (with usage) or an HTTP error."""

    text: str = ""
    input_tokens: int = 10
    output_tokens: int = 5
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error_body: dict[str, Any] | None = None
    delay: float = 0.0  # seconds to wait before answering (a slow model)

    @classmethod
    def json(cls, payload: Any, *, input_tokens: int = 10, output_tokens: int = 5,
             delay: float = 0.0) -> "FakeReply":
        return cls(json.dumps(payload), input_tokens, output_tokens, delay=delay)

    @classmethod
    def error(cls, status: int, *, retry_after: float | None = None,
              body: dict[str, Any] | None = None, delay: float = 0.0) -> "FakeReply":
        headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
        return cls(status=status, headers=headers, error_body=body, delay=delay)


Responder = Callable[[dict[str, Any]], FakeReply]


class ScriptedLLMServer:
    """An aiohttp server on 127.0.0.1 (port 0) answering from a script; subclasses shape the wire."""

    def __init__(self, responder: Responder | None = None) -> None:
        self.script: deque[FakeReply] = deque()
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- scripting -------------------------------------------------------------------------------

    def push(self, *replies: FakeReply) -> "ScriptedLLMServer":
        self.script.extend(replies)
        return self

    def push_json(self, payload: Any, **kwargs: Any) -> "ScriptedLLMServer":
        return self.push(FakeReply.json(payload, **kwargs))

    def push_text(self, text: str, **kwargs: Any) -> "ScriptedLLMServer":
        return self.push(FakeReply(text=text, **kwargs))

    @property
    def calls(self) -> int:
        return len(self.requests)

    def _next(self, body: dict[str, Any]) -> FakeReply:
        if self.script:
            return self.script.popleft()
        if self.responder is not None:
            return self.responder(body)
        return FakeReply.error(500, body={"error": {"message": "fake server: script is empty"}})

    # -- lifecycle -------------------------------------------------------------------------------

    def routes(self) -> list[web.RouteDef]:
        raise NotImplementedError

    async def start(self) -> "ScriptedLLMServer":
        app = web.Application()
        app.add_routes(self.routes())
        self._runner, self.port = await serve_on_loopback(app, shutdown_timeout=0.2)
        return self

    async def close(self) -> None:
        await stop_serving(self._runner)
        self._runner = None

    async def __aenter__(self) -> "ScriptedLLMServer":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- one request -----------------------------------------------------------------------------

    async def answer(self, request: web.Request, shape: Callable[[FakeReply, dict], dict]) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            body = {}
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        reply = self._next(body)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.status != 200:
            payload = reply.error_body or {"error": {"code": reply.status, "message": "scripted error"}}
            return web.json_response(payload, status=reply.status, headers=reply.headers)
        return web.json_response(shape(reply, body), headers=reply.headers)
