"""What every ``google-genai`` adapter shares: the client, one call, its errors, its text.

``GeminiAdapter`` holds a ``genai.Client`` (the SDK's retries off, ``base_url`` for proxies,
gateways and the tests' fake server) and serves ``Model.request`` with one ``generate_content``
call from our chat messages (system messages become the system instruction) with the request's
timeout. The SDK's errors become the ``core.errors`` LLM errors (``map_error``: 429 ->
``LLMRateLimited`` with the server's retry delay, 5xx / 408 / 409 -> ``LLMUnavailable``, the rest
``LLMRejected``). The adapters (``GeminiModel``, ``GroundedGeminiModel``) override ``_config``
(what they add to the request) and ``_read`` (the ``ModelResponse`` of the answer).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Any

import aiohttp
from google import genai
from google.genai import errors, types
from pydantic import BaseModel

from core.errors import LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable
from core.llm.contract import ChatMessage, ModelResponse
from core.llm.retry import retry_after_seconds
from core.llm.settings import GEMINI_MODEL

_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)s\s*$")


class GeminiAdapter(ABC):
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

    def _config(self, schema: type[BaseModel]) -> dict[str, Any]:
        """What this adapter adds to the request's ``GenerateContentConfig``."""
        return {}

    @abstractmethod
    def _read(self, response: types.GenerateContentResponse) -> ModelResponse:
        """The ``ModelResponse`` (text, token usage, model) of a successful call."""

    async def request(
        self,
        messages: list[ChatMessage],
        *,
        schema: type[BaseModel],
        timeout: float,
        max_output_tokens: int | None,
        temperature: float,
    ) -> ModelResponse:
        response = await self._generate(
            messages, timeout=timeout, temperature=temperature,
            max_output_tokens=max_output_tokens, **self._config(schema),
        )
        return self._read(response)

    async def _generate(
        self, messages: list[ChatMessage], *, timeout: float, **config: Any
    ) -> types.GenerateContentResponse:
        """One ``generate_content`` call, no retries; ``config`` adds to the request's config."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        contents = [
            types.Content(role="model" if m.role == "assistant" else "user",
                          parts=[types.Part(text=m.content)])
            for m in messages
            if m.role != "system"
        ]
        request_config = types.GenerateContentConfig(
            system_instruction=system or None,
            http_options=types.HttpOptions(
                timeout=max(1, int(timeout * 1000)),
                retry_options=types.HttpRetryOptions(attempts=1),
            ),
            **config,
        )
        try:
            return await self._client.aio.models.generate_content(
                model=self.model_name, contents=contents, config=request_config
            )
        except TimeoutError:
            raise LLMTimeout() from None
        except errors.APIError as exc:
            raise map_error(exc) from None
        except (OSError, aiohttp.ClientError):  # connection refused, reset, server went away
            raise LLMUnavailable() from None

    async def aclose(self) -> None:
        await self._client.aio.aclose()


def response_text(response: types.GenerateContentResponse) -> str:
    """The answer's text parts (``response.text`` warns on non-text parts; thoughts skipped)."""
    for candidate in response.candidates or []:
        parts = candidate.content.parts if candidate.content else None
        texts = [p.text for p in parts or [] if p.text and not p.thought]
        if texts:
            return "".join(texts)
    return ""


def map_error(exc: errors.APIError) -> Exception:
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
