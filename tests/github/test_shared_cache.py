"""Two instances on one Redis share GitHub responses (the real Redis, db 15, a per-test prefix)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from core.github import GitHubClient, GitHubSource
from core.github.shared_cache import RedisSharedCache
from core.models import SearchParams
from tests.fakes.github import FakeGitHub
from tests.github.conftest import RecordedSleep, make_settings
from tests.redis.conftest import REDIS_URL

NAMES = ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js"]


@pytest.fixture
async def redis() -> AsyncIterator[tuple[Any, str]]:
    client = Redis.from_url(REDIS_URL)
    prefix = f"omgtest:{uuid.uuid4().hex[:8]}:"
    yield client, prefix
    async for key in client.scan_iter(f"{prefix}*"):
        await client.delete(key)
    await client.aclose()


def _instance(gh: FakeGitHub, redis: tuple[Any, str], **cache: Any) -> GitHubSource:
    shared = RedisSharedCache(redis[0], prefix=redis[1], **cache)
    return GitHubSource(GitHubClient(make_settings(gh), sleep=RecordedSleep(), shared=shared))


async def _search_turn(source: GitHubSource) -> None:
    found = await source.search(SearchParams(keywords=["state"], synonym_groups=[["react"]]), limit=10)
    names = [r.full_name for r in found][:5] + NAMES
    await asyncio.gather(*(source.get_signals(n, depth="light") for n in names),
                         *(source.get_readme(n) for n in names))


async def test_the_second_instance_reuses_the_first_instance_s_fetch(redis: tuple[Any, str]) -> None:
    async with FakeGitHub(token="t", search_budget=1000) as gh:
        first, second = _instance(gh, redis), _instance(gh, redis)
        await _search_turn(first)
        assert gh.count("/graphql") == 2 and gh.count("/search/") == 0  # the search, the signals
        gh.reset_log()
        await _search_turn(second)
        assert gh.calls == [], "every response came from the shared cache"
        assert second.client.stats.shared_hits == 2
        await first.aclose()
        await second.aclose()


async def test_a_burst_across_instances_makes_one_call(redis: tuple[Any, str]) -> None:
    async with FakeGitHub(token="t", latency=0.1) as gh:
        instances = [_instance(gh, redis) for _ in range(4)]
        await asyncio.gather(*(s.get_signals("d3/d3", depth="light") for s in instances))
        assert gh.count("/graphql") == 1
        for source in instances:
            await source.aclose()


async def test_large_bodies_stay_per_instance_and_a_dead_redis_is_a_miss(redis: tuple[Any, str]) -> None:
    async with FakeGitHub(token="t") as gh:
        first, second = _instance(gh, redis, max_bytes=10), _instance(gh, redis, max_bytes=10)
        await first.get_signals("d3/d3", depth="light")
        await second.get_signals("d3/d3", depth="light")
        assert gh.count("/graphql") == 2
        broken = Redis.from_url("redis://127.0.0.1:1/15", socket_connect_timeout=0.2)
        third = _instance(gh, (broken, "x:"), lock_seconds=0.2)
        assert (await third.get_signals("d3/d3", depth="light")).releases is not None
        for source in (first, second, third):
            await source.aclose()
        await broken.aclose()
