"""LLM settings from the environment (and ``.env``): which provider serves which task, keys,
base URLs, models, timeouts, retries, the breaker, prices and the daily budget.

Provider choice, per task:
  * ``LLM_PROVIDER`` = deepseek | openai | gemini | none; unset (or ``auto``) picks the first
    provider with a key, in that order;
  * ``LLM_CLASSIFIER_PROVIDER`` overrides it for intent classification;
  * ``LLM_RESEARCH_PROVIDER`` overrides it for the research analyzer / planner, which otherwise
    uses Gemini whenever ``GEMINI_API_KEY`` is set (the research spec's default);
  * a provider without its key is ``none``: the local paths serve.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, Field

from core.config import env_float, env_int
log = logging.getLogger("omg.llm.settings")

DEEPSEEK_BASE_URL = "https://api.deepseek.com"
DEEPSEEK_MODEL = "deepseek-chat"  # DeepSeek V3
OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENAI_MODEL = "gpt-4o-mini"
GEMINI_MODEL = "gemini-2.5-flash"

PROVIDERS = ("deepseek", "openai", "gemini")
NONE = "none"
TASKS = ("classify", "translate", "readme", "narrative", "text_scores", "research")


class ProviderConfig(BaseModel):
    name: str
    api_key: str = Field(default="", repr=False)
    base_url: str | None = None
    model: str

    @property
    def configured(self) -> bool:
        return bool(self.api_key)


class LLMSettings(BaseModel):
    providers: dict[str, ProviderConfig]
    general_provider: str = NONE
    classifier_provider: str = NONE
    research_provider: str = NONE
    json_mode: bool = True
    default_timeout: float = 10.0
    research_timeout: float = 10.0
    retry_attempts: int = 3
    retry_base_delay: float = 0.5
    retry_max_delay: float = 8.0
    breaker_failures: int = 3
    breaker_cooldown: float = 30.0
    daily_budget_usd: float | None = 1.0
    prices_json: str = ""
    budget_dir: Path | None = None
    tasks: frozenset[str] = frozenset(TASKS)

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, data_dir: Path | None = None) -> "LLMSettings":
        providers = {
            "deepseek": ProviderConfig(
                name="deepseek", api_key=_get(env, "DEEPSEEK_API_KEY"),
                base_url=_get(env, "DEEPSEEK_BASE_URL") or DEEPSEEK_BASE_URL,
                model=_get(env, "DEEPSEEK_MODEL") or DEEPSEEK_MODEL,
            ),
            "openai": ProviderConfig(
                name="openai", api_key=_get(env, "OPENAI_API_KEY"),
                base_url=_get(env, "OPENAI_BASE_URL") or OPENAI_BASE_URL,
                model=_get(env, "OPENAI_MODEL") or OPENAI_MODEL,
            ),
            "gemini": ProviderConfig(
                name="gemini", api_key=_get(env, "GEMINI_API_KEY"),
                base_url=_get(env, "GEMINI_BASE_URL") or None,
                model=_get(env, "GEMINI_MODEL") or GEMINI_MODEL,
            ),
        }
        general = _choose(_get(env, "LLM_PROVIDER").lower(), providers, "LLM_PROVIDER")
        classifier = _choose(_get(env, "LLM_CLASSIFIER_PROVIDER").lower() or general,
                             providers, "LLM_CLASSIFIER_PROVIDER")
        research_raw = _get(env, "LLM_RESEARCH_PROVIDER").lower()
        if not research_raw:
            disabled = _get(env, "LLM_PROVIDER").lower() == NONE
            research_raw = general if disabled or not providers["gemini"].configured else "gemini"
        research = _choose(research_raw, providers, "LLM_RESEARCH_PROVIDER")
        budget_raw = _get(env, "LLM_DAILY_BUDGET_USD")
        budget = env_float(env, "LLM_DAILY_BUDGET_USD", 1.0)
        return cls(
            providers=providers,
            general_provider=general,
            classifier_provider=classifier,
            research_provider=research,
            json_mode=_get(env, "LLM_JSON_MODE").lower() not in ("0", "false", "no", "off"),
            default_timeout=env_float(env, "LLM_TIMEOUT", 10.0),
            research_timeout=env_float(env, "LLM_RESEARCH_TIMEOUT", 10.0),
            retry_attempts=max(1, env_int(env, "LLM_RETRY_ATTEMPTS", 3)),
            retry_base_delay=env_float(env, "LLM_RETRY_BASE_DELAY", 0.5),
            breaker_failures=max(1, env_int(env, "LLM_BREAKER_FAILURES", 3)),
            breaker_cooldown=env_float(env, "LLM_BREAKER_COOLDOWN", 30.0),
            daily_budget_usd=None if budget_raw.lower() in ("off", "unlimited") or budget <= 0 else budget,
            prices_json=_get(env, "LLM_PRICES"),
            budget_dir=(data_dir / "llm") if data_dir is not None else None,
            tasks=_tasks(_get(env, "LLM_TASKS")),
        )

    def task_enabled(self, task: str) -> bool:
        return task in self.tasks

    def provider_for(self, task: str) -> str:
        if task == "classify":
            return self.classifier_provider
        if task.startswith("research"):
            return self.research_provider
        return self.general_provider

    def describe(self) -> dict[str, str]:
        """What serves each task, for logs and ``omg stats`` (never a key)."""
        def one(name: str) -> str:
            if name == NONE:
                return "none (local paths)"
            cfg = self.providers[name]
            where = f" at {cfg.base_url}" if cfg.base_url else ""
            return f"{name}: {cfg.model}{where}"

        return {
            "classifier": one(self.classifier_provider),
            "general": one(self.general_provider),
            "research": one(self.research_provider),
        }


def _get(env: Mapping[str, str], name: str) -> str:
    return (env.get(name) or "").strip()


def _choose(raw: str, providers: Mapping[str, ProviderConfig], variable: str) -> str:
    if raw in ("", "auto"):
        return next((p for p in PROVIDERS if providers[p].configured), NONE)
    if raw == NONE:
        return NONE
    if raw not in providers:
        log.warning("unknown LLM provider; local paths serve",
                    extra={"variable": variable, "value": raw[:40], "known": list(PROVIDERS)})
        return NONE
    if not providers[raw].configured:
        log.warning("LLM provider has no API key; local paths serve",
                    extra={"variable": variable, "provider": raw,
                           "key_variable": f"{raw.upper()}_API_KEY"})
        return NONE
    return raw


def _tasks(raw: str) -> frozenset[str]:
    """``LLM_TASKS``: a comma list of the uses to enable (default: all of ``TASKS``)."""
    if not raw or raw.lower() == "all":
        return frozenset(TASKS)
    chosen = {t.strip().lower() for t in raw.split(",") if t.strip()}
    unknown = chosen - set(TASKS)
    if unknown:
        log.warning("unknown LLM_TASKS entries ignored",
                    extra={"unknown": sorted(unknown)[:10], "known": list(TASKS)})
    return frozenset(chosen & set(TASKS))
