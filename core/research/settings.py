"""Research settings, read from the environment (every variable is described in .env.example)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from core.config import env_float, env_int
from core.research.goal import DEFAULT_MAX_GOAL_CHARS

LLM_MAX_OUTPUT_TOKENS = 1200  # the analyzer's, planner's and step analysis's JSON answers


def _web_mode(raw: str | None) -> Literal["auto", "off"]:
    """``OMG_RESEARCH_WEB_SEARCH``: auto (default; on when Gemini is configured) or off."""
    value = (raw or "").strip().lower()
    return "off" if value in ("off", "0", "false", "no", "none") else "auto"


def _admins(raw: str | None) -> frozenset[str]:
    return frozenset(part.strip() for part in (raw or "").split(",") if part.strip())


class ResearchSettings(BaseModel):
    data_dir: Path = Path(".data")
    admins: frozenset[str] = frozenset()  # user ids that may decide on anyone's plan
    review_ttl_seconds: float = Field(default=24 * 3600.0, gt=0)
    step_timeout_seconds: float = Field(default=60.0, gt=0)
    turn_budget_seconds: float = Field(default=2.8, gt=0)  # analysis + planning with an LLM
    llm_timeout_seconds: float = Field(default=2.5, gt=0)  # one LLM call
    max_goal_chars: int = Field(default=DEFAULT_MAX_GOAL_CHARS, ge=50)
    results_per_query: int = Field(default=10, ge=1, le=50)
    browse_top: int = Field(default=5, ge=1, le=20)  # repositories a BROWSE step reads
    lease_grace_seconds: float = Field(default=30.0, ge=0)
    web_search: Literal["auto", "off"] = "auto"  # Gemini grounded on Google Search when configured
    web_timeout_seconds: float = Field(default=20.0, gt=0)  # one grounded search, retries included

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "ResearchSettings":
        return cls(
            data_dir=Path(env.get("OMG_DATA_DIR") or ".data"),
            admins=_admins(env.get("OMG_RESEARCH_ADMINS")),
            review_ttl_seconds=env_float(env, "OMG_REVIEW_TTL", 24 * 3600.0),
            step_timeout_seconds=env_float(env, "OMG_RESEARCH_STEP_TIMEOUT", 60.0),
            turn_budget_seconds=env_float(env, "OMG_RESEARCH_TURN_BUDGET", 2.8),
            llm_timeout_seconds=env_float(env, "OMG_RESEARCH_LLM_TIMEOUT", 2.5),
            max_goal_chars=env_int(env, "OMG_RESEARCH_MAX_GOAL_CHARS", DEFAULT_MAX_GOAL_CHARS),
            results_per_query=env_int(env, "OMG_RESEARCH_RESULTS_PER_QUERY", 10),
            browse_top=env_int(env, "OMG_RESEARCH_BROWSE_TOP", 5),
            web_search=_web_mode(env.get("OMG_RESEARCH_WEB_SEARCH")),
            web_timeout_seconds=env_float(env, "OMG_RESEARCH_WEB_TIMEOUT", 20.0),
        )

    @property
    def lease_seconds(self) -> float:
        """A live executor renews its lease before every step, and a step never outlasts its timeout."""
        return self.step_timeout_seconds + self.lease_grace_seconds
