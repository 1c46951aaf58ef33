"""Lenient parsing of the ``omg classify`` wire format into ``Message`` objects.

In history only ``type`` and the repositories' ``fullName`` are guaranteed inside
``structured_data`` (which may be absent or partial): anything else is optional, unknown
shapes are dropped, and nothing here ever raises on bad input.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from core.classifier.context import CONTEXT_MESSAGES
from core.models import (
    Clarification,
    Comparison,
    ComparisonRow,
    Message,
    RepoDetailData,
    RepositoryDetail,
    RepoList,
    ScoredRepository,
    StructuredData,
    structured_data_adapter,
)


def _full_name(item: Any) -> str | None:
    if isinstance(item, str):
        return item.strip() or None
    if isinstance(item, dict):
        for key in ("fullName", "full_name", "name"):
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
        if isinstance(item.get("repo"), dict):
            return _full_name(item["repo"])
    return None


def _names(items: Any) -> list[str]:
    if not isinstance(items, list):
        return []
    return [n for n in (_full_name(i) for i in items) if n]


def structured_from_wire(raw: Any) -> StructuredData | None:
    """Best effort: the full model when it validates, else a minimal one from type + full names."""
    if not isinstance(raw, dict):
        return None
    kind = raw.get("type")
    try:
        return structured_data_adapter.validate_python(raw)
    except ValidationError:
        pass
    if kind == "repo_list":
        return RepoList(items=[ScoredRepository(full_name=n) for n in _names(raw.get("items"))])
    if kind == "repo_detail":
        name = _full_name(raw.get("repo"))
        return RepoDetailData(repo=RepositoryDetail(full_name=name)) if name else None
    if kind == "comparison":
        return Comparison(items=[ComparisonRow(repo=ScoredRepository(full_name=n)) for n in _names(raw.get("items"))])
    if kind == "clarification":
        question = raw.get("question") if isinstance(raw.get("question"), str) else ""
        options = [o for o in raw.get("options", []) if isinstance(o, str)] if isinstance(raw.get("options"), list) else []
        return Clarification(question=question, options=options)
    return None


def message_from_wire(raw: Any) -> Message | None:
    if not isinstance(raw, dict):
        return None
    role = raw.get("role") if raw.get("role") in ("user", "assistant") else "assistant"
    content = raw.get("content") if isinstance(raw.get("content"), str) else ""
    data = raw.get("structured_data", raw.get("structuredData"))
    return Message(role=role, content=content, structured_data=structured_from_wire(data))


def history_from_wire(raw: Any) -> list[Message]:
    """The last 3 parseable messages of ``raw`` (anything unreadable is skipped)."""
    if not isinstance(raw, list):
        return []
    messages = [m for m in (message_from_wire(item) for item in raw) if m is not None]
    return messages[-CONTEXT_MESSAGES:]
