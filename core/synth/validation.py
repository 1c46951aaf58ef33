"""Validate an agent's structured data against the ``StructuredData`` union.

Agents may hand over a model or a plain dict (camelCase or snake_case). Models are dumped and
validated again, so an instance built with ``model_construct`` or mutated after construction
cannot slip through. Invalid data is logged with the offending payload, truncated.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ValidationError

from core.errors import OmgError
from core.models import StructuredData, structured_data_adapter

log = logging.getLogger("omg.synth")

MAX_LOGGED_CHARS = 2000
MAX_LOGGED_ERRORS = 5


class InvalidData(OmgError):
    """Raised by ``validate_structured``; ``summary`` is a short description for logs."""

    code = "invalid_data"
    default_message = "Something went wrong on my side while writing that answer. Please try again."

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


def validate_structured(data: Any) -> StructuredData:
    """The validated union member, or ``InvalidData``."""
    payload = data
    if isinstance(data, BaseModel):
        try:
            payload = data.model_dump(mode="python", warnings=False)
        except Exception as exc:  # a model too broken to dump
            raise InvalidData(f"could not read the model: {type(exc).__name__}") from exc
    try:
        return structured_data_adapter.validate_python(payload)
    except ValidationError as exc:
        errors = [
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
            for err in exc.errors(include_url=False)[:MAX_LOGGED_ERRORS]
        ]
        more = exc.error_count() - len(errors)
        if more > 0:
            errors.append(f"... and {more} more")
        raise InvalidData("; ".join(errors)) from exc


def preview(data: Any, limit: int = MAX_LOGGED_CHARS) -> str:
    """The offending data as text for the log, cut to ``limit`` characters."""
    try:
        if isinstance(data, BaseModel):
            text = data.model_dump_json(warnings=False)
        else:
            text = repr(data)
    except Exception:  # the edge of a log line: a model too broken to print is still reported
        text = f"<unprintable {type(data).__name__}>"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} chars)"


def log_invalid(data: Any, problem: InvalidData, *, agent_intent: str, message: str) -> None:
    log.warning(
        "invalid structured data from agent",
        extra={
            "intent": agent_intent,
            "user_message": message[:200],
            "validation_errors": problem.summary,
            "offending_data": preview(data),
        },
    )
