"""Expected conditions (rate limit, not found, timeout, bad input) are one WARNING line, no traceback."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from bot.app import build_app
from bot.testing import TestBackend
from core.errors import RateLimited
from core.models import Reply
from core.github import FallbackSource
from tests.fakes.github import FakeGitHub
from tests.fakes.memory_source import MemorySource

SEARCH = "find react state management libraries"


def said(reply: Reply) -> str:
    return reply.markdown + "\n" + (reply.footer or "")


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.exc_info or r.stack_info]


async def test_github_rate_limits_and_unknown_repositories_log_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with FakeGitHub() as gh:
        app = await build_app(env={**gh.env(), "OMG_GITHUB_CONNECT_TIMEOUT": "30"}, memory=True)
        try:
            bot = TestBackend(app)
            await bot.ask(SEARCH)
            gh.secondary_rate_limit("/repos/", retry_after=600, times=None)
            app.source.primary.client.clear_cache()  # type: ignore[attr-defined]
            # a spent limit degrades to the snapshot, and the footer says why
            assert "GitHub rate limit reached" in said(await bot.ask("analyze the second one"))
            gh.faults.clear()
            gh.rate_limit("/search/", reset_in=1800, times=None)
            assert "GitHub rate limit reached" in said(await bot.ask("find rust web frameworks"))
            gh.faults.clear()
            await bot.ask("analyze nobody-here/nothing-at-all")
            for text in ("", "   ", "x" * 40_000, "\x00\x07 hi", "../../etc/passwd", "<!channel>"):
                await bot.ask(text or " ")
        finally:
            await app.aclose()
    assert tracebacks(caplog) == []


class RateLimitedGitHub(MemorySource):
    """A primary source whose ping meets a rate limit (GitHub answered: it is reachable)."""

    async def ping(self) -> None:
        raise RateLimited(datetime(2026, 3, 1, 12, 30, tzinfo=UTC))


async def test_a_rate_limited_probe_is_one_warning_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    source = FallbackSource(RateLimitedGitHub(), MemorySource(kind="catalog"))
    assert await source.probe() is True
    [line] = [r for r in caplog.records if r.name.startswith("omg.github")]
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert getattr(line, "error") == "rate_limited"
