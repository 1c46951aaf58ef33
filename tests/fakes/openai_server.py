"""A fake OpenAI-compatible ``/chat/completions`` endpoint (DeepSeek, OpenAI, gateways).

Point the real ``openai`` SDK at ``server.base_url`` and script the answers::

    async with FakeOpenAIServer() as server:
        server.push_json({"intent": "search", "confidence": 0.9, "reasoning": "find"})
        ... AsyncOpenAI(base_url=server.base_url, api_key="test") ...
"""

from __future__ import annotations

import itertools
from typing import Any

from aiohttp import web

from tests.fakes.llm_script import FakeReply, Responder, ScriptedLLMServer

__all__ = ["FakeOpenAIServer", "FakeReply"]


class FakeOpenAIServer(ScriptedLLMServer):
    def __init__(self, responder: Responder | None = None, *, model: str = "deepseek-chat") -> None:
        super().__init__(responder)
        self.model = model
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/v1/chat/completions", self._completions)]

    async def _completions(self, request: web.Request) -> web.Response:
        return await self.answer(request, self._shape)

    def _shape(self, reply: FakeReply, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": body.get("model") or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            },
        }
