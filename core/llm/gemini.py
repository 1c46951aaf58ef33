"""Gemini through ``google-genai`` (a Flash model by default) with a JSON response schema.

``genai.Client(...).aio.models.generate_content`` with ``response_mime_type="application/json"``
and ``response_json_schema`` (the pydantic model's JSON Schema). The SDK's retries are off
(``HttpRetryOptions(attempts=1)``); ``GEMINI_BASE_URL`` goes in ``http_options.base_url`` for
proxies, gateways and the tests' fake server (``core.llm.gemini_base`` holds what the Gemini
adapters share).
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from pydantic import BaseModel

from core.llm.contract import ModelResponse, TokenUsage
from core.llm.gemini_base import GeminiAdapter, response_text


class GeminiModel(GeminiAdapter):
    def _config(self, schema: type[BaseModel]) -> dict[str, Any]:
        return {"response_mime_type": "application/json",
                "response_json_schema": gemini_schema(schema)}

    def _read(self, response: types.GenerateContentResponse) -> ModelResponse:
        usage = response.usage_metadata
        return ModelResponse(
            text=response_text(response),
            usage=TokenUsage(
                (usage.prompt_token_count or 0) if usage else 0,
                ((usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0))
                if usage else 0,
            ),
            model=response.model_version or self.model_name,
        )


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
