"""Redis for the scale-out tests: the real server on 127.0.0.1:6379 (REDIS_TEST_URL to change).

An unreachable Redis FAILS these tests, never skips them: CI must prove them every time. Start
one with ``redis-server --port 6379 --save "" --appendonly no`` if your machine has none.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis
from redis.asyncio import Redis

REDIS_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
async def redis_client():
    client = Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except Exception as exc:  # noqa: BLE001 - any connection problem means "no Redis"
        await client.aclose()
        pytest.fail(f"Redis is required but unreachable at {REDIS_URL}: {exc!r}")
    yield client
    await client.aclose()


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix per test, so tests never see each other's keys (deleted afterwards)."""
    value = f"omgtest:{uuid.uuid4().hex[:8]}:"
    yield value
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        for key in client.scan_iter(f"{value}*"):
            client.delete(key)
    except redis.RedisError:
        pass  # an unreachable Redis already failed the test
    finally:
        client.close()
