"""A fake Gemini ``models/{model}:generateContent`` endpoint (the Gemini Developer API shape).

Point the real ``google-genai`` client at it with ``http_options={"base_url": server.base_url}``.
Errors use Google's envelope; a 429 may carry both a ``Retry-After`` header and a
``google.rpc.RetryInfo`` detail (``FakeGeminiServer.rate_limited``).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakes.llm_script import FakeReply, Responder, ScriptedLLMServer

__all__ = ["FakeGeminiServer", "FakeReply"]

_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 429: "RESOURCE_EXHAUSTED",
           500: "INTERNAL", 503: "UNAVAILABLE"}


class FakeGeminiServer(ScriptedLLMServer):
    def __init__(self, responder: Responder | None = None, *, model: str = "gemini-2.5-flash") -> None:
        super().__init__(responder)
        self.model = model
        self.paths: list[str] = []

    @property
    def base_url(self) -> str:
        return self.root_url

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/{version}/models/{action}", self._generate)]

    @staticmethod
    def error(status: int, *, retry_after: float | None = None,
              retry_delay: str | None = None, delay: float = 0.0) -> FakeReply:
        body: dict[str, Any] = {"error": {"code": status, "message": "scripted error",
                                          "status": _STATUS.get(status, "UNKNOWN")}}
        if retry_delay is not None:
            body["error"]["details"] = [
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay}
            ]
        return FakeReply.error(status, retry_after=retry_after, body=body, delay=delay)

    async def _generate(self, request: web.Request) -> web.Response:
        model, _, method = request.match_info["action"].partition(":")
        if method != "generateContent":
            return web.json_response({"error": {"code": 404, "message": "not found"}}, status=404)
        self.paths.append(request.path)
        return await self.answer(request, lambda reply, body: self._shape(reply, model))

    def _shape(self, reply: FakeReply, model: str) -> dict[str, Any]:
        return {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": reply.text}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": reply.input_tokens,
                "candidatesTokenCount": reply.output_tokens,
                "totalTokenCount": reply.input_tokens + reply.output_tokens,
            },
            "modelVersion": model or self.model,
        }
