"""Gemini through ``google-genai`` (a Flash model by default) with a JSON response schema.

``genai.Client(...).aio.models.generate_content`` with ``response_mime_type="application/json"``
and ``response_json_schema`` (the pydantic model's JSON Schema). The SDK's retries are off
(``HttpRetryOptions(attempts=1)``); ``GEMINI_BASE_URL`` goes in ``http_options.base_url`` for
proxies, gateways and the tests' fake server.
"""

from __future__ import annotations

import re
from typing import Any

import aiohttp
from google import genai
from google.genai import errors, types
from pydantic import BaseModel

from core.errors import LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable
from core.llm.contract import ChatMessage, ModelResponse, TokenUsage
from core.llm.retry import retry_after_seconds
from core.llm.settings import GEMINI_MODEL

_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)s\s*$")


class GeminiModel:
    def __init__(
        self,
        *,
        api_key: str,
        model: str = GEMINI_MODEL,
        base_url: str | None = None,
        provider: str = "gemini",
        client: genai.Client | None = None,
    ) -> None:
        self.provider = provider
        self.model_name = model
        options = types.HttpOptions(
            base_url=base_url or None, retry_options=types.HttpRetryOptions(attempts=1)
        )
        # vertexai=False: never let GOOGLE_GENAI_USE_VERTEXAI in the environment switch backends.
        self._client = client or genai.Client(api_key=api_key, vertexai=False, http_options=options)

    async def request(
        self,
        messages: list[ChatMessage],
        *,
        schema: type[BaseModel],
        timeout: float,
        max_output_tokens: int | None,
        temperature: float,
    ) -> ModelResponse:
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        contents = [
            types.Content(role="model" if m.role == "assistant" else "user",
                          parts=[types.Part(text=m.content)])
            for m in messages
            if m.role != "system"
        ]
        config = types.GenerateContentConfig(
            system_instruction=system or None,
            response_mime_type="application/json",
            response_json_schema=gemini_schema(schema),
            temperature=temperature,
            max_output_tokens=max_output_tokens,
            http_options=types.HttpOptions(
                timeout=max(1, int(timeout * 1000)),
                retry_options=types.HttpRetryOptions(attempts=1),
            ),
        )
        try:
            response = await self._client.aio.models.generate_content(
                model=self.model_name, contents=contents, config=config
            )
        except TimeoutError:
            raise LLMTimeout() from None
        except errors.APIError as exc:
            raise _map_error(exc) from None
        except (OSError, aiohttp.ClientError):  # connection refused, reset, server went away
            raise LLMUnavailable() from None
        usage = response.usage_metadata
        return ModelResponse(
            text=_text(response),
            usage=TokenUsage(
                (usage.prompt_token_count or 0) if usage else 0,
                ((usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0))
                if usage else 0,
            ),
            model=response.model_version or self.model_name,
        )

    async def aclose(self) -> None:
        await self._client.aio.aclose()


# The JSON Schema keywords Gemini's response_json_schema documents as supported.
_SUPPORTED = {
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items",
    "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties",
    "additionalProperties", "required", "propertyOrdering",
}


def gemini_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema without the keywords Gemini does not support (``default``,
    ``maxLength``...); pydantic still validates them on the answer."""
    return _prune(schema.model_json_schema())


def _prune(node: Any) -> Any:
    if isinstance(node, list):
        return [_prune(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "const":  # a one-value Literal
            out["enum"] = [value]
        elif key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {name: _prune(sub) for name, sub in value.items()}
        elif key in _SUPPORTED:
            out[key] = _prune(value)
    return out


def _text(response: types.GenerateContentResponse) -> str:
    """The answer's text parts (``response.text`` warns on non-text parts; thoughts skipped)."""
    for candidate in response.candidates or []:
        parts = candidate.content.parts if candidate.content else None
        texts = [p.text for p in parts or [] if p.text and not p.thought]
        if texts:
            return "".join(texts)
    return ""


def _map_error(exc: errors.APIError) -> Exception:
    code = int(exc.code or 0)
    if code == 429:
        headers = getattr(exc.response, "headers", None)
        return LLMRateLimited(retry_after_seconds(headers) or _retry_delay(exc.details))
    if code >= 500 or code in (408, 409):
        return LLMUnavailable(code)
    return LLMRejected(code, str(exc.message or exc.status or ""))


def _retry_delay(details: Any) -> float | None:
    """``google.rpc.RetryInfo.retryDelay`` ("12s") from the error details, if any."""
    try:
        items = details.get("error", details).get("details") or []
    except AttributeError:
        return None
    for item in items:
        if isinstance(item, dict) and str(item.get("@type", "")).endswith("RetryInfo"):
            match = _DURATION.match(str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None
