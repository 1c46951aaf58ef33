"""Nothing lost under concurrency: follow-ups from separate processes, and the daily LLM spend.

    python -m bench lost_writes

1. 20 simultaneous ``omg ask --conversation ID`` processes continue one conversation (after a
   first message): the user messages kept, out of 21, on the file store and on Redis
   (``REDIS_URL``, default the local redis://127.0.0.1:6379/15 under a fresh prefix).
2. 20 runs of 24 concurrent priced calls on one ``DailyBudget`` (``omg stats`` reads the file):
   the runs whose recorded spend equals the sum of the priced calls exactly.
Offline, no tokens: the processes answer from the bundled catalog.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import sys
import tempfile
from datetime import date
from pathlib import Path

from core.llm.budget import DailyBudget, read_spend
from core.models import Conversation
from core.store.files import FileConversationStore

FOLLOW_UPS = 20
CONVERSATION = "cli:bench-lost-writes"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")


def _env(data_dir: Path, redis_prefix: str | None) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(data_dir), "OMG_DATA_DIR": str(data_dir),
           "OMG_GITHUB": "offline", "LLM_PROVIDER": "none"}
    if redis_prefix is not None:
        env |= {"REDIS_URL": REDIS_URL, "OMG_REDIS_PREFIX": redis_prefix}
    return env


async def _ask(text: str, env: dict[str, str]) -> int:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "ask", text, "--conversation", CONVERSATION,
        env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await process.wait()


async def _stored(data_dir: Path, redis_prefix: str | None) -> Conversation | None:
    if redis_prefix is None:
        return await FileConversationStore(data_dir).get(CONVERSATION)
    from redis.asyncio import Redis

    from core.store.redis import RedisConversationStore

    client = Redis.from_url(REDIS_URL)
    try:
        return await RedisConversationStore(client, prefix=redis_prefix).get(CONVERSATION)
    finally:
        await client.delete(*[k async for k in client.scan_iter(f"{redis_prefix}*")] or ["-"])
        await client.aclose()


async def follow_ups(label: str, redis_prefix: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp), redis_prefix)
        await _ask("find react state management libraries", env)
        codes = await asyncio.gather(*(_ask(f"what about option {n}?", env) for n in range(FOLLOW_UPS)))
        stored = await _stored(Path(tmp), redis_prefix)
    kept = sum(1 for m in (stored.messages if stored else []) if m.role == "user")
    print(f"  {label:<40} user messages kept {kept}/{FOLLOW_UPS + 1}"
          f"   exit codes {sorted(set(codes))}   target 21/21  {'OK' if kept == FOLLOW_UPS + 1 else 'MISS'}")


async def spend_runs(runs: int = 20, calls: int = 24) -> None:
    exact = 0
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            day = date(2026, 3, 1)
            budget = DailyBudget(1.0, path=Path(tmp) / str(run), today=lambda: day)
            rng = random.Random(run)
            priced = [rng.randint(1, 4096) / 2**20 for _ in range(calls)]  # sums exactly in any order
            await asyncio.gather(*(budget.add("T1", usd) for usd in priced))
            exact += read_spend(Path(tmp) / str(run), day) == {"T1": sum(priced)}
    print(f"  {'omg stats spend == sum of priced calls':<40} {exact}/{runs} runs"
          f"   target {runs}/{runs}  {'OK' if exact == runs else 'MISS'}")


def main() -> None:
    asyncio.run(spend_runs())
    asyncio.run(follow_ups("20 parallel `omg ask`, file store", None))
    asyncio.run(follow_ups("20 parallel `omg ask`, Redis", f"omg-bench-{secrets.token_hex(4)}:"))


if __name__ == "__main__":
    main()
