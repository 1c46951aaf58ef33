"""Fixtures: a fake GitHub on loopback and real clients pointed at it, with recorded sleeps."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core.github import GitHubClient, GitHubSettings, GitHubSource
from tests.fakes.github import FakeGitHub


class RecordedSleep:
    """Injected instead of asyncio.sleep: records the waits, returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
async def gh() -> AsyncIterator[FakeGitHub]:
    async with FakeGitHub() as fake:
        yield fake


@pytest.fixture
def sleep() -> RecordedSleep:
    return RecordedSleep()


def make_settings(gh: FakeGitHub, **overrides: object) -> GitHubSettings:
    settings = GitHubSettings.from_env(gh.env())
    return settings.model_copy(update={"read_timeout": 2.0, "backoff_seconds": 0.3, **overrides})


@pytest.fixture
async def client(gh: FakeGitHub, sleep: RecordedSleep) -> AsyncIterator[GitHubClient]:
    c = GitHubClient(make_settings(gh), sleep=sleep)
    yield c
    await c.aclose()


@pytest.fixture
async def source(client: GitHubClient) -> GitHubSource:
    return GitHubSource(client)
