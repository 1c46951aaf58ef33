"""Digging JSON out of what real models send, and validating it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import BaseModel

from core.errors import LLMBadOutput
from core.llm.parsing import extract_json, parse_output, strip_wrappers, truncate_for_log
from core.llm.retry import RetryPolicy, retry_after_seconds


class Out(BaseModel):
    a: int
    b: list[str] = []


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '```json\n{"a": 1}\n```',
        '```\n{"a": 1}\n```',
        'Here you go: ```JSON {"a": 1}``` hope it helps',
        '<think>let me think {"a": 2} no</think>{"a": 1}',
        '<THINK>\nmulti\nline\n</THINK>\n\n```json\n{"a": 1}\n```',
        'reasoning that leaked</think>{"a": 1}',
        'The answer is {"a": 1} and that is all.',
        '  \n{"a": 1, "b": []}\n',
        'Sure {not json} but then {"a": 1}',
    ],
)
def test_parses_what_models_send(text: str) -> None:
    assert parse_output(text, Out).a == 1


@pytest.mark.parametrize("text", ["", "   ", "no json here", "<think>{\"a\": 1}</think>", "{'a': 1}"])
def test_rejects_non_json(text: str) -> None:
    with pytest.raises(LLMBadOutput):
        parse_output(text, Out)


def test_schema_mismatch_reason_names_the_field() -> None:
    with pytest.raises(LLMBadOutput) as info:
        parse_output('{"a": "many", "b": "x"}', Out)
    assert "a:" in info.value.reason and "b:" in info.value.reason
    assert info.value.raw == '{"a": "many", "b": "x"}'


def test_arrays_and_strip() -> None:
    assert extract_json("```json\n[1, 2]\n```") == [1, 2]
    assert strip_wrappers("<think>x</think> y ") == "y"


def test_truncate_for_log() -> None:
    out = truncate_for_log("a\nb" * 500, limit=20)
    assert out.startswith("a\\nba\\nb") and out.endswith("(1500 chars)") and "\n" not in out


def test_retry_after_header_forms() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds({"retry-after": "3"}) == 3
    assert retry_after_seconds({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after_seconds({"retry-after": "Thu, 01 Jan 2026 12:00:07 GMT"}, now) == 7
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None and retry_after_seconds(None) is None


def test_backoff_is_exponential_capped_and_honours_retry_after() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=3, jitter=0, max_retry_after=30)
    assert [policy.backoff(n, None) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 3]
    assert policy.backoff(1, 4.0) == 4.0
    assert policy.backoff(1, 999) == 30
