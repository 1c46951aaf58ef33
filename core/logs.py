"""Structured JSON-lines logging with secret redaction.

Every log record goes through ``RedactingFilter``: known secret values (any environment
variable whose name ends in TOKEN, KEY, SECRET or PASSWORD) and well-known token shapes
(Slack xox*/xapp, GitHub ghp_/github_pat_, OpenAI-style sk-, Google AIza) are replaced by
``[REDACTED]`` before anything is written.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable, Mapping
from typing import IO, Any

_TOKEN_SHAPES = re.compile(
    r"(xox[abposr]-[A-Za-z0-9-]{6,}|xapp-[A-Za-z0-9-]{6,}|gh[pousr]_[A-Za-z0-9]{20,}"
    r"|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{16,}|AIza[A-Za-z0-9_-]{20,})"
)
_SECRET_NAMES = ("TOKEN", "KEY", "SECRET", "PASSWORD")
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def secret_values(env: Mapping[str, str]) -> list[str]:
    return [
        v for k, v in env.items() if v and len(v) >= 6 and k.upper().endswith(_SECRET_NAMES)
    ]


class Redactor:
    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, "[REDACTED]")
        return _TOKEN_SHAPES.sub("[REDACTED]", text)


class JsonFormatter(logging.Formatter):
    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                payload[key] = value
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        return self._redact(json.dumps(payload, default=str, ensure_ascii=False))


def configure_logging(
    level: str = "WARNING", *, env: Mapping[str, str] | None = None, stream: IO[str] | None = None
) -> logging.Handler:
    """Install one JSON handler on the root logger (idempotent) and return it."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_omg", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(Redactor(secret_values(env or {}))))
    handler._omg = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    return handler
