"""Core settings, read from the environment (and a .env file, which never overrides it).

Each subsystem owns its own settings class next to its code (``core.llm.settings``,
``core.github.settings``, ...) with the same ``from_env`` shape; ``.env.example`` lists them all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from dotenv import dotenv_values
from pydantic import BaseModel, Field


def load_environment(dotenv_path: str | os.PathLike[str] | None = ".env") -> dict[str, str]:
    """The process environment over the .env file's values (the environment wins)."""
    merged: dict[str, str] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        merged.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
    merged.update(os.environ)
    return merged


def env_float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    try:
        return float(raw) if raw else default
    except ValueError:
        return default


def env_int(env: Mapping[str, str], name: str, default: int) -> int:
    return int(env_float(env, name, default))


class CoreSettings(BaseModel):
    data_dir: Path = Path(".data")
    confidence_threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    ambiguity_margin: float = Field(default=0.12, ge=0.0, le=1.0)
    max_messages_per_conversation: int = 50
    max_conversations_in_memory: int = 10_000
    conversation_ttl_seconds: float = 3600.0
    max_message_chars: int = 4000
    agent_timeout_seconds: float = 15.0
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "CoreSettings":
        return cls(
            data_dir=Path(env.get("OMG_DATA_DIR") or ".data"),
            confidence_threshold=env_float(env, "OMG_CONFIDENCE_THRESHOLD", 0.7),
            ambiguity_margin=env_float(env, "OMG_AMBIGUITY_MARGIN", 0.12),
            max_messages_per_conversation=env_int(env, "OMG_MAX_MESSAGES", 50),
            conversation_ttl_seconds=env_float(env, "OMG_CONVERSATION_TTL", 3600.0),
            max_message_chars=env_int(env, "OMG_MAX_MESSAGE_CHARS", 4000),
            agent_timeout_seconds=env_float(env, "OMG_AGENT_TIMEOUT", 15.0),
            log_level=(env.get("OMG_LOG_LEVEL") or "INFO").upper(),
        )
