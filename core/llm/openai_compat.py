"""OpenAI-compatible chat completions through the ``openai`` SDK (DeepSeek V3 by default).

DeepSeek, OpenAI and most gateways (OpenRouter, LiteLLM, vLLM, Ollama) speak this protocol; only
the base URL, key and model name differ. JSON mode (``response_format={"type": "json_object"}``)
makes the model emit one JSON object; the schema goes in the system prompt (JSON mode requires the
word "JSON" there). The SDK's own retries are off (``max_retries=0``): ``core.llm.retry`` is the
only retry loop.
"""

from __future__ import annotations

from typing import Any

import openai
from openai import AsyncOpenAI
from pydantic import BaseModel

from core.errors import LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable
from core.llm.contract import ChatMessage, ModelResponse, TokenUsage
from core.llm.parsing import schema_hint
from core.llm.retry import retry_after_seconds
from core.llm.settings import DEEPSEEK_BASE_URL, DEEPSEEK_MODEL



class OpenAICompatModel:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str = DEEPSEEK_BASE_URL,
        model: str = DEEPSEEK_MODEL,
        provider: str = "deepseek",
        json_mode: bool = True,
        client: AsyncOpenAI | None = None,
    ) -> None:
        self.provider = provider
        self.model_name = model
        self.json_mode = json_mode
        # Explicit base_url / key: the SDK would otherwise read OPENAI_BASE_URL / OPENAI_API_KEY
        # from os.environ behind our back (and DeepSeek has its own variables).
        self._client = client or AsyncOpenAI(
            api_key=api_key, base_url=base_url, max_retries=0, timeout=30.0
        )

    async def request(
        self,
        messages: list[ChatMessage],
        *,
        schema: type[BaseModel],
        timeout: float,
        max_output_tokens: int | None,
        temperature: float,
    ) -> ModelResponse:
        kwargs: dict[str, Any] = {}
        if self.json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        reasoning = _is_reasoning_model(self.model_name)
        if max_output_tokens:
            # OpenAI's newer models only take max_completion_tokens; DeepSeek and most
            # gateways take max_tokens.
            name = "max_completion_tokens" if self.provider == "openai" else "max_tokens"
            kwargs[name] = max_output_tokens * (4 if reasoning else 1)  # room for reasoning
        if not reasoning:  # o-series / gpt-5 reject a non-default temperature
            kwargs["temperature"] = temperature
        try:
            completion = await self._client.chat.completions.create(
                model=self.model_name,
                messages=_wire_messages(messages, schema),
                timeout=timeout,
                **kwargs,
            )
        except openai.APITimeoutError:
            raise LLMTimeout() from None
        except openai.RateLimitError as exc:
            raise LLMRateLimited(retry_after_seconds(exc.response.headers)) from None
        except openai.APIConnectionError:
            raise LLMUnavailable() from None
        except openai.APIStatusError as exc:
            if exc.status_code >= 500 or exc.status_code in (408, 409):
                raise LLMUnavailable(exc.status_code) from None
            raise LLMRejected(exc.status_code, exc.message) from None
        choice = completion.choices[0] if completion.choices else None
        text = (choice.message.content if choice and choice.message else None) or ""
        usage = completion.usage
        return ModelResponse(
            text=text,
            usage=TokenUsage(
                usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0
            ),
            model=completion.model or self.model_name,
        )

    async def aclose(self) -> None:
        await self._client.close()


def _is_reasoning_model(model: str) -> bool:
    name = model.rsplit("/", 1)[-1].lower()
    return name.startswith(("o1", "o3", "o4", "gpt-5")) or name == "deepseek-reasoner"


def _wire_messages(messages: list[ChatMessage], schema: type[BaseModel]) -> list[dict[str, str]]:
    wire = [{"role": m.role, "content": m.content} for m in messages]
    hint = schema_hint(schema)
    if wire and wire[0]["role"] == "system":
        wire[0] = {"role": "system", "content": f"{wire[0]['content']}\n\n{hint}"}
    else:
        wire.insert(0, {"role": "system", "content": hint})
    return wire

