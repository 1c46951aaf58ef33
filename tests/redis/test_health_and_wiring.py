"""REDIS_URL selects the shared stores; ``omg health`` reports store, GitHub and LLM reachability
(real processes for the command, MockTransport for the LLM probe's answers)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import httpx
import pytest

from bot.app import build_app
from core.errors import RateLimited, SourceAuthError, SourceUnavailable, StoreError
from core.health import CheckResult, check_github, check_llm_provider, overall, required_components
from core.store.research_redis import RedisResearchStore
from core.store.redis import RedisConversationStore, RedisEventDeduper
from core.store.settings import StoreSettings, safe_url
from core.store.wiring import open_shared_state
from tests.fakes.github import FakeGitHub
from tests.fakes.memory_source import MemorySource
from tests.fakes.openai_server import FakeOpenAIServer
from tests.redis.conftest import REDIS_URL
from tests.reliability.procs import ROOT, base_env

CLOSED = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_settings_and_safe_urls() -> None:
    assert not StoreSettings.from_env({}).uses_redis
    settings = StoreSettings.from_env({"REDIS_URL": "redis://:hunter22@db:6379/2", "OMG_REDIS_PREFIX": "bot1:"})
    assert settings.uses_redis and settings.prefix == "bot1:" and "hunter22" not in repr(settings)
    assert settings.redis_label == "redis://:***@db:6379/2"
    assert safe_url("rediss://user:pw@host/0") == "rediss://user:***@host/0"
    assert safe_url("redis://host:6379") == "redis://host:6379"
    assert StoreSettings.from_env({"REDIS_URL": "redis://x"}).sweep_seconds == 5.0  # sweeping on
    assert StoreSettings.from_env({}).sweep_seconds == 0.0  # files: the start-up resume is enough


async def test_unreachable_or_invalid_redis_stops_the_start_clearly() -> None:
    with pytest.raises(StoreError) as unreachable:
        await open_shared_state({"REDIS_URL": "redis://:s3cret-pw@127.0.0.1:1/0"})
    assert "Could not reach Redis" in unreachable.value.user_message
    assert "s3cret-pw" not in unreachable.value.user_message
    with pytest.raises(StoreError) as invalid:
        await open_shared_state({"REDIS_URL": "http://not-redis"})
    assert "REDIS_URL" in invalid.value.user_message


async def test_redis_url_selects_every_shared_store(tmp_path: Path, prefix: str) -> None:
    app = await build_app(env={"REDIS_URL": REDIS_URL, "OMG_REDIS_PREFIX": prefix, "OMG_GITHUB": "offline",
                               "OMG_DATA_DIR": str(tmp_path)})
    try:
        assert isinstance(app.store, RedisConversationStore)
        assert isinstance(app.deduper, RedisEventDeduper)
        assert app.research is not None and isinstance(app.research.store, RedisResearchStore)
        assert app.edit_bucket is not None and app.shared is not None and app.shared.kind == "redis"
        assert app.takeover is not None and await app.shared.presence.alive(app.takeover.owner)
        assert "redis at redis://127.0.0.1:6379" in await app.shared.ping()
    finally:
        await app.aclose()
    assert not list((tmp_path / "conversations").glob("*.json"))  # nothing went to files


async def test_without_redis_url_files_stay_the_default(tmp_path: Path) -> None:
    app = await build_app(env={"OMG_GITHUB": "offline", "OMG_DATA_DIR": str(tmp_path)})
    try:
        assert type(app.store).__name__ == "FileConversationStore"
        assert type(app.research.store).__name__ == "FileResearchStore"  # type: ignore[union-attr]
        assert app.edit_bucket is None and app.shared is not None and app.shared.kind == "files"
    finally:
        await app.aclose()


def test_required_components_and_overall_status() -> None:
    assert required_components(None) == {"store"}
    assert required_components("github, LLM ,bogus") == {"store", "github", "llm"}
    ok = CheckResult(name="store", status="ok", required=True)
    assert overall([ok, CheckResult(name="github", status="down")]) == "degraded"
    assert overall([ok, CheckResult(name="github", status="down", required=True)]) == "down"
    assert overall([ok, CheckResult(name="llm", status="off", required=True)]) == "down"
    assert overall([ok, CheckResult(name="llm", status="off")]) == "ok"


class PingFails(MemorySource):
    """A live source whose ping raises ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__(kind="github")
        self.error = error

    async def ping(self) -> None:
        raise self.error


@pytest.mark.parametrize("source, status, detail", [
    (None, "off", "offline catalog (OMG_GITHUB=offline)"),
    (MemorySource(kind="catalog"), "off", "offline catalog (OMG_GITHUB=offline)"),
    (MemorySource(kind="github"), "ok", "GitHub (fake)"),
    (PingFails(SourceAuthError()), "down", "GitHub rejected GITHUB_TOKEN (401)"),
    (PingFails(RateLimited()), "degraded", "reachable, rate limit reached"),
    (PingFails(SourceUnavailable()), "down", "unreachable (answers come from the offline catalog)"),
])
async def test_github_check_reads_the_source_contract(source: MemorySource | None, status: str, detail: str) -> None:
    result = await check_github(source)
    assert (result.status, result.detail) == (status, detail)


@pytest.mark.parametrize("status, expected", [(200, "ok"), (404, "ok"), (401, "down"), (403, "down"), (503, "down")])
async def test_llm_probe_answers(status: int, expected: str) -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, json={})

    result = await check_llm_provider("openai", "https://llm.example/v1", "sk-secret-key-123456",
                                      transport=httpx.MockTransport(answer))
    assert result.status == expected and "sk-secret" not in result.detail
    assert str(seen[0].url) == "https://llm.example/v1/models"
    gemini = await check_llm_provider("gemini", None, "AIzaKEY", transport=httpx.MockTransport(answer))
    assert gemini.status == expected and str(seen[1].url).endswith("/v1beta/models")
    assert "AIzaKEY" not in str(seen[1].url)  # the key travels in a header, never in the URL


async def _omg_health(env: dict[str, str], *args: str) -> tuple[int, dict]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", *args, cwd=ROOT, env=base_env(**env),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, json.loads(out or b"{}")


async def test_omg_health_command(tmp_path: Path) -> None:
    async with FakeGitHub() as github, FakeOpenAIServer() as llm:
        healthy = {"REDIS_URL": REDIS_URL, "OMG_DATA_DIR": str(tmp_path), **github.env(OMG_GITHUB="live"),
                   "LLM_PROVIDER": "openai", "OPENAI_API_KEY": "sk-test-health-0000000000",
                   "OPENAI_BASE_URL": llm.base_url}
        runs = await asyncio.gather(
            _omg_health(healthy, "--require", "store,github,llm"),
            _omg_health({**healthy, "REDIS_URL": CLOSED}),
            _omg_health({**healthy, "GITHUB_API_URL": "http://127.0.0.1:1"}, "--timeout", "3"),
            _omg_health({**healthy, "GITHUB_API_URL": "http://127.0.0.1:1"}, "--require", "github", "--timeout", "3"),
        )
    (code_ok, ok), (code_redis, no_redis), (code_degraded, degraded), (code_down, down) = runs
    checks = {c["name"]: c for c in ok["checks"]}
    assert code_ok == 0 and ok["status"] == "ok", ok
    assert checks["store"]["status"] == "ok" and "redis" in checks["store"]["detail"]
    assert checks["github"]["status"] == "ok" and checks["llm:openai"]["status"] == "ok"
    assert code_redis == 1 and no_redis["status"] == "down"
    assert {c["name"]: c["status"] for c in no_redis["checks"]}["store"] == "down"
    assert code_degraded == 0 and degraded["status"] == "degraded"  # the catalog answers meanwhile
    assert code_down == 1 and down["status"] == "down"
    assert "sk-test-health" not in json.dumps(runs)
