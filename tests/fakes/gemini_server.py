"""A fake Gemini ``models/{model}:generateContent`` endpoint (the Gemini Developer API shape).

Point the real ``google-genai`` client at it with ``http_options={"base_url": server.base_url}``.
Errors use Google's envelope; a 429 may carry both a ``Retry-After`` header and a
``google.rpc.RetryInfo`` detail (``FakeGeminiServer.rate_limited``).

Grounded answers (Gemini with the Google Search tool): ``FakeGeminiServer.grounded(text, pages,
supports, queries)`` scripts a candidate with ``groundingMetadata`` (``groundingChunks`` of
``{web: {uri, title}}``, ``webSearchQueries``, ``groundingSupports`` whose segments carry the
byte offsets and text of the supported sentence) and ``toolUsePromptTokenCount`` in the usage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.llm_script import FakeReply, Responder, ScriptedLLMServer

__all__ = ["FakeGeminiServer", "FakeReply", "GroundedReply"]

_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 429: "RESOURCE_EXHAUSTED",
           500: "INTERNAL", 503: "UNAVAILABLE"}


@dataclass(slots=True)
class GroundedReply(FakeReply):
    """A grounded answer: ``grounding`` is the candidate's ``groundingMetadata`` (wire shape)."""

    grounding: dict[str, Any] = field(default_factory=dict)
    tool_use_tokens: int = 0


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

    @staticmethod
    def grounded(
        text: str,
        pages: Sequence[tuple[str, str]] = (),
        supports: Sequence[tuple[str, Sequence[int]]] = (),
        queries: Sequence[str] = (),
        *,
        input_tokens: int = 10,
        output_tokens: int = 5,
        tool_use_tokens: int = 0,
        delay: float = 0.0,
    ) -> GroundedReply:
        """``pages``: (uri, title) per grounding chunk; ``supports``: (a sentence of ``text``,
        the chunk indices that support it), with decreasing confidence scores."""
        data = text.encode("utf-8")
        wire_supports = []
        for sentence, indices in supports:
            start = data.find(sentence.encode("utf-8"))
            segment: dict[str, Any] = {"endIndex": start + len(sentence.encode("utf-8")),
                                       "text": sentence}
            if start > 0:  # proto3 JSON leaves a zero startIndex out
                segment["startIndex"] = start
            wire_supports.append({
                "segment": segment,
                "groundingChunkIndices": list(indices),
                "confidenceScores": [round(0.9 - 0.1 * i, 2) for i in range(len(indices))],
            })
        grounding: dict[str, Any] = {
            "webSearchQueries": list(queries),
            "groundingChunks": [{"web": {"uri": uri, "title": title}} for uri, title in pages],
            "groundingSupports": wire_supports,
            "searchEntryPoint": {"renderedContent": "<div>search chips</div>"},
        }
        return GroundedReply(text=text, input_tokens=input_tokens, output_tokens=output_tokens,
                             delay=delay, grounding=grounding, tool_use_tokens=tool_use_tokens)

    async def _generate(self, request: web.Request) -> web.Response:
        model, _, method = request.match_info["action"].partition(":")
        if method != "generateContent":
            return web.json_response({"error": {"code": 404, "message": "not found"}}, status=404)
        self.paths.append(request.path)
        return await self.answer(request, lambda reply, body: self._shape(reply, model))

    def _shape(self, reply: FakeReply, model: str) -> dict[str, Any]:
        candidate: dict[str, Any] = {
            "content": {"role": "model", "parts": [{"text": reply.text}]},
            "finishReason": "STOP",
            "index": 0,
        }
        usage: dict[str, Any] = {
            "promptTokenCount": reply.input_tokens,
            "candidatesTokenCount": reply.output_tokens,
            "totalTokenCount": reply.input_tokens + reply.output_tokens,
        }
        if isinstance(reply, GroundedReply):
            candidate["groundingMetadata"] = reply.grounding
            if reply.tool_use_tokens:
                usage["toolUsePromptTokenCount"] = reply.tool_use_tokens
                usage["totalTokenCount"] += reply.tool_use_tokens
        return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": model or self.model}
