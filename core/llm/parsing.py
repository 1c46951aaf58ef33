"""Structured output that survives real models.

Models wrap JSON in Markdown fences, prefix it with ``<think>...</think>`` reasoning (DeepSeek R1
style, Qwen, gateways that pass it through), or add a sentence before or after it. ``parse_output``
digs the first JSON object out of all that and validates it with pydantic; ``repair_messages``
builds the single follow-up turn that asks the model to fix an invalid answer.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from core.errors import LLMBadOutput
from core.llm.contract import ChatMessage, assistant, user

T = TypeVar("T", bound=BaseModel)

_THINK_BLOCK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


def strip_wrappers(text: str) -> str:
    """Drop reasoning blocks and code fences; return what should be the JSON document."""
    text = _THINK_BLOCK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:  # an unmatched closing tag: the reasoning started before the visible text
        text = text[closes[-1].end():]
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    return text.strip()


def extract_json(text: str) -> Any:
    """The first JSON object (or array) in ``text``, ignoring prose around it."""
    body = strip_wrappers(text)
    try:
        return json.loads(body)
    except ValueError:
        pass
    for start, ch in enumerate(body):
        if ch in "{[":
            try:
                value, _ = _DECODER.raw_decode(body, start)
                return value
            except ValueError:
                continue
    raise LLMBadOutput(text, "no JSON object found")


def parse_output(text: str, schema: type[T]) -> T:
    """Parse and validate; raise ``LLMBadOutput`` (with a short reason) when it does not fit."""
    if not text or not text.strip():
        raise LLMBadOutput(text, "empty answer")
    value = extract_json(text)
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        raise LLMBadOutput(text, _short_errors(exc)) from None


def _short_errors(exc: ValidationError, limit: int = 4) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def schema_hint(schema: type[BaseModel]) -> str:
    """One line the system prompt ends with (JSON mode needs the word JSON in the prompt)."""
    compact = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    return f"Reply with one JSON object only, no prose, matching this JSON Schema: {compact}"


def repair_messages(
    messages: list[ChatMessage], bad_text: str, reason: str, schema: type[BaseModel]
) -> list[ChatMessage]:
    """The conversation plus the invalid answer and one instruction to fix it."""
    shown = bad_text if len(bad_text) <= 2000 else bad_text[:2000] + "..."
    return [
        *messages,
        assistant(shown),
        user(
            f"That answer was not valid ({reason}). "
            f"{schema_hint(schema)} Answer again with the corrected JSON only."
        ),
    ]


def truncate_for_log(text: str, limit: int = 300) -> str:
    """One line, at most ``limit`` characters of ``text`` plus its full length."""
    shown = text.replace("\n", "\\n")
    return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(text)} chars)"
