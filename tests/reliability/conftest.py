"""Real bot processes sharing the real Redis (127.0.0.1:6379, REDIS_TEST_URL to change) and a
fake Slack Web API on loopback. An unreachable Redis FAILS these tests, never skips them.

``cluster`` starts two ``python -m bot run`` instances (Slack HTTP mode, offline GitHub) once per
test module; each module gets its own Redis key prefix, so modules and runs never collide.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import uuid
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
import redis

from core.models import Conversation
from core.store.ids import file_stem
from tests.fakes.slack_api import BOT_USER, TOKEN, FakeSlackApi, StoredMessage
from tests.reliability.procs import BotProcess
from tests.reliability.slack_client import SlackSender, buttons

REDIS_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
SECRET = "reliability-signing-secret"


def require_redis() -> redis.Redis:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001 - any connection problem means "no Redis"
        pytest.fail(f"Redis is required but unreachable at {REDIS_URL}: {exc!r}")
    return client


async def eventually(check: Callable[[], Any], timeout: float = 20.0, every: float = 0.05) -> Any:
    """Poll ``check`` until it returns something truthy; fail with the last value after ``timeout``."""
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await asyncio.sleep(every)
    raise AssertionError(f"condition not met within {timeout:g} s (last value: {value!r})")


def is_status(message: StoredMessage) -> bool:
    """The in-progress status message (replaced by the reply when the turn ends)."""
    return ":hourglass_flowing_sand:" in json.dumps(message.blocks)


def is_answer(message: StoredMessage) -> bool:
    """A finished coordinator answer: it carries the 👍 / 👎 feedback buttons."""
    return any(e.get("action_id", "").startswith("omg:feedback")
               for b in message.blocks if b["type"] == "context_actions" for e in b["elements"])


@dataclass
class Cluster:
    fake: FakeSlackApi
    bots: list[BotProcess]
    slack: SlackSender
    redis: redis.Redis | None  # None: the embedded default (files), one instance
    prefix: str
    workdir: Path
    env: dict[str, str] = field(repr=False)
    extras: dict[str, Any] = field(default_factory=dict)  # fakes a module shares with its tests

    @property
    def a(self) -> BotProcess:
        return self.bots[0]

    @property
    def b(self) -> BotProcess:
        return self.bots[1]

    def bot_messages(self, thread_ts: str, channel: str = "C1") -> list[StoredMessage]:
        return [m for m in self.fake.thread(channel, thread_ts) if m.user == BOT_USER and m.ts != thread_ts]

    def replies(self, thread_ts: str, channel: str = "C1") -> list[StoredMessage]:
        """What the bot said in the thread once nothing is in progress there ([] while working)."""
        messages = self.bot_messages(thread_ts, channel)
        return [] if any(is_status(m) for m in messages) else messages

    def answers(self, thread_ts: str, channel: str = "C1") -> list[StoredMessage]:
        return [m for m in self.bot_messages(thread_ts, channel) if is_answer(m)]

    async def start_bot(self, name: str, **extra_env: str) -> BotProcess:
        bot = await BotProcess.start(name, {**self.env, **extra_env}, self.workdir / name)
        self.bots.append(bot)
        return bot

    def conversation(self, thread_ts: str, channel: str = "C1") -> Conversation | None:
        """The stored conversation of a thread: from Redis, or the first bot's files without it."""
        conversation_id = f"slack:T1:{channel}:{thread_ts}"
        if self.redis is not None:
            blob = self.redis.get(f"{self.prefix}conv:{conversation_id}")
            return Conversation.model_validate_json(zlib.decompress(blob)) if blob else None
        path = Path(self.bots[0].env["OMG_DATA_DIR"]) / "conversations" / f"{file_stem(conversation_id)}.json"
        return Conversation.model_validate_json(path.read_bytes()) if path.exists() else None


def cluster_env(fake: FakeSlackApi, prefix: str, **extra: str) -> dict[str, str]:
    return {
        "SLACK_BOT_TOKEN": fake.token, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": fake.base_url,
        "OMG_GITHUB": "offline", "REDIS_URL": REDIS_URL, "OMG_REDIS_PREFIX": prefix,
        "OMG_LOG_LEVEL": "INFO", "OMG_SLACK_EDIT_INTERVAL": "0.2", "OMG_RESEARCH_SWEEP": "0.3",
        "OMG_INSTANCE_HEARTBEAT": "3", "OMG_SHUTDOWN_GRACE": "5", **extra,
    }


@contextlib.asynccontextmanager
async def open_cluster(
    workdir: Path, *, instances: int = 2, slack_token: str = TOKEN, secret: str = SECRET,
    use_redis: bool = True, **extra_env: str,
) -> AsyncIterator[Cluster]:
    """A fake Slack Web API and ``instances`` bot processes sharing one Redis key prefix
    (``use_redis=False``: one instance keeping its state in files, the embedded default)."""
    client = require_redis() if use_redis else None
    prefix = f"omgtest:{uuid.uuid4().hex[:8]}:"
    fake = FakeSlackApi(token=slack_token)
    await fake.start()
    env = cluster_env(fake, prefix, SLACK_BOT_TOKEN=slack_token, SLACK_SIGNING_SECRET=secret, **extra_env)
    if client is None:
        env.pop("REDIS_URL")
    http = aiohttp.ClientSession()
    cluster = Cluster(fake, [], SlackSender(http, secret), client, prefix, workdir, env)
    try:
        await asyncio.gather(*(cluster.start_bot(f"bot{n}") for n in range(instances)))
        cluster.bots.sort(key=lambda bot: bot.name)
        yield cluster
    finally:
        await asyncio.gather(*(bot.stop() for bot in cluster.bots), return_exceptions=True)
        await http.close()
        await fake.stop()
        if client is not None:
            for key in client.scan_iter(f"{prefix}*"):
                client.delete(key)
            client.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    async with open_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running
