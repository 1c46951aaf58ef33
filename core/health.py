"""Health: is the store, GitHub and each configured LLM provider reachable right now?

    report = await check_health(shared=..., source=..., llm=..., require={"store"})
    report.status      "ok" | "degraded" (something optional is down) | "down" (a required one)
    report.checks      one ``CheckResult`` per dependency: store, github, llm:<provider>

The store is always required (without it nothing can be remembered); GitHub and the LLMs are
optional by default because the bot answers without them (offline catalog, local models), and
become required when listed in ``require`` (``OMG_HEALTH_REQUIRE`` / ``omg health --require``).
Every check has a deadline, none raises, and no detail ever carries a key or a token.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Collection, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import httpx
from pydantic import Field

from core.errors import RateLimited, SourceAuthError, SourceUnavailable
from core.models import WireModel, utcnow

if TYPE_CHECKING:
    from core.llm import LLMServices
    from core.sources.base import RepoSource
    from core.store.wiring import SharedState

Status = Literal["ok", "degraded", "down", "off"]
GEMINI_API_URL = "https://generativelanguage.googleapis.com"
COMPONENTS = ("store", "github", "llm")


class CheckResult(WireModel):
    name: str
    status: Status
    required: bool = False
    detail: str = ""
    latency_ms: float | None = None


class HealthReport(WireModel):
    status: Literal["ok", "degraded", "down"]
    checks: list[CheckResult]
    instance: str | None = None
    at: datetime = Field(default_factory=utcnow)

    @property
    def healthy(self) -> bool:
        """False when a required dependency is down (``omg health`` exits non-zero)."""
        return self.status != "down"


def required_components(raw: str | None) -> set[str]:
    """``"store,github"`` -> {"store", "github"}; the store is always in."""
    names = {part.strip().lower() for part in (raw or "").split(",") if part.strip()}
    return {"store"} | (names & set(COMPONENTS))


async def _timed(name: str, probe: Awaitable[CheckResult], timeout: float) -> CheckResult:
    started = time.perf_counter()
    try:
        result = await asyncio.wait_for(probe, timeout)
    except TimeoutError:
        result = CheckResult(name=name, status="down", detail=f"no answer within {timeout:g} s")
    except Exception as exc:  # noqa: BLE001 - a health check reports, it never raises
        result = CheckResult(name=name, status="down", detail=f"failed ({type(exc).__name__})")
    result.latency_ms = round((time.perf_counter() - started) * 1000, 1)
    return result


async def check_store(shared: SharedState | None, data_dir: Path, error: str | None = None) -> CheckResult:
    if shared is None:
        return CheckResult(name="store", status="down", detail=error or "not configured")
    label = await shared.ping(data_dir)
    return CheckResult(name="store", status="ok", detail=label)


async def check_github(source: RepoSource | None) -> CheckResult:
    """``source``: the live GitHub source ``omg health`` builds (a bare ``GitHubSource``: a
    ``FallbackSource`` names the catalog in ``info`` during an outage), or None -- or an offline
    source, ``info.kind == "catalog"`` -- when OMG_GITHUB=offline: then there is no GitHub to check."""
    if source is None or source.info.kind == "catalog":
        return CheckResult(name="github", status="off", detail="offline catalog (OMG_GITHUB=offline)")
    try:
        await source.ping()
    except SourceAuthError:
        return CheckResult(name="github", status="down", detail="GitHub rejected GITHUB_TOKEN (401)")
    except RateLimited:
        return CheckResult(name="github", status="degraded", detail="reachable, rate limit reached")
    except SourceUnavailable:
        return CheckResult(name="github", status="down",
                           detail="unreachable (answers come from the offline catalog)")
    return CheckResult(name="github", status="ok", detail=source.info.label)


def _probe_request(name: str, base_url: str | None, api_key: str) -> tuple[str, dict[str, str]]:
    if name == "gemini":
        return f"{(base_url or GEMINI_API_URL).rstrip('/')}/v1beta/models", {"x-goog-api-key": api_key}
    return f"{(base_url or '').rstrip('/')}/models", {"Authorization": f"Bearer {api_key}"}


async def check_llm_provider(
    name: str, base_url: str | None, api_key: str, *, breaker_state: str = "closed",
    transport: httpx.AsyncBaseTransport | None = None, timeout: float = 3.0,
) -> CheckResult:
    """Reachable = the provider answers HTTP at all; 401/403 = the key is refused."""
    check = f"llm:{name}"
    url, headers = _probe_request(name, base_url, api_key)
    try:
        async with httpx.AsyncClient(timeout=timeout, transport=transport) as client:
            response = await client.get(url, headers=headers)
    except httpx.HTTPError as exc:
        return CheckResult(name=check, status="down", detail=f"unreachable ({type(exc).__name__})")
    if response.status_code in (401, 403):
        return CheckResult(name=check, status="down", detail=f"key refused ({response.status_code})")
    if response.status_code >= 500:
        return CheckResult(name=check, status="down", detail=f"server error ({response.status_code})")
    if breaker_state != "closed":
        return CheckResult(name=check, status="degraded", detail=f"reachable; circuit {breaker_state}")
    return CheckResult(name=check, status="ok", detail="reachable")


def _llm_probes(llm: LLMServices | None, timeout: float) -> dict[str, Awaitable[CheckResult]]:
    if llm is None or not llm.clients:
        return {}
    probes: dict[str, Awaitable[CheckResult]] = {}
    for name, client in llm.clients.items():
        config = llm.settings.providers[name]
        state = client.breaker.state.value
        probes[f"llm:{name}"] = check_llm_provider(
            name, config.base_url, config.api_key, breaker_state=state, timeout=timeout
        )
    return probes


async def check_health(
    *,
    shared: SharedState | None,
    source: RepoSource | None,
    llm: LLMServices | None,
    data_dir: Path = Path(".data"),
    require: Collection[str] = ("store",),
    timeout: float = 5.0,
    instance: str | None = None,
    store_error: str | None = None,
) -> HealthReport:
    probes: dict[str, Awaitable[CheckResult]] = {
        "store": check_store(shared, data_dir, store_error),
        "github": check_github(source),
        **_llm_probes(llm, timeout),
    }
    results = await asyncio.gather(*(_timed(n, p, timeout) for n, p in probes.items()))
    if llm is None or not llm.clients:
        results.append(CheckResult(name="llm", status="off", detail="no provider configured (local models)"))
    for result in results:
        result.required = result.name.split(":", 1)[0] in require
    return HealthReport(status=overall(results), checks=results, instance=instance)


def overall(results: list[CheckResult]) -> Literal["ok", "degraded", "down"]:
    if any(r.required and r.status in ("down", "off") for r in results):
        return "down"  # a required dependency that is down, or not configured at all
    if any(r.status in ("down", "degraded") for r in results):
        return "degraded"
    return "ok"


def report_env(env: Mapping[str, str]) -> set[str]:
    return required_components(env.get("OMG_HEALTH_REQUIRE"))
