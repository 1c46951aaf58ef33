"""Two instances' editors on one message share the Redis edit bucket: <= 1 edit per interval
in total, and a Retry-After heard by one holds the other back."""

from __future__ import annotations

import asyncio
import time

from core.pacing.editor import CoalescingEditor, RetryAfter
from core.store.buckets import RedisEditBucket

INTERVAL = 0.25


async def test_two_editors_of_one_message_stay_under_the_rate(redis_client, prefix) -> None:
    sent: list[tuple[float, str, str]] = []

    def edit_as(instance: str):  # type: ignore[no-untyped-def]
        async def edit(ref: tuple[str, str], content: str) -> None:
            sent.append((time.monotonic(), instance, content))
        return edit

    editors = [
        CoalescingEditor(edit_as(name), min_interval=INTERVAL, first_edit_delay=0.0,
                         bucket=RedisEditBucket(redis_client, prefix=prefix))
        for name in ("A", "B")
    ]
    ref = ("C1", "1700000000.000100")
    for step in range(6):
        for name, editor in zip("AB", editors):
            editor.submit(ref, f"{name} step {step}")
        await asyncio.sleep(0.05)
    await asyncio.gather(*(e.finish(ref, f"{n} final") for n, e in zip("AB", editors)))
    times = [t for t, _, _ in sent]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(sent) >= 3 and min(gaps) >= INTERVAL - 0.03, gaps
    assert {content for _, _, content in sent} >= {"A final", "B final"}  # finals always land
    for editor in editors:
        await editor.aclose()


async def test_a_retry_after_is_shared(redis_client, prefix) -> None:
    attempts: list[tuple[float, str]] = []
    refused = [True]

    async def first(ref: str, content: str) -> None:
        attempts.append((time.monotonic(), "A"))
        if refused[0]:
            refused[0] = False
            raise RetryAfter(0.6)

    async def second(ref: str, content: str) -> None:
        attempts.append((time.monotonic(), "B"))

    bucket_a = RedisEditBucket(redis_client, prefix=prefix)
    bucket_b = RedisEditBucket(redis_client, prefix=prefix)
    a = CoalescingEditor(first, min_interval=0.05, first_edit_delay=0.0, bucket=bucket_a)
    b = CoalescingEditor(second, min_interval=0.05, first_edit_delay=0.0, bucket=bucket_b)
    started = time.monotonic()
    a.submit("msg", "from A")
    await asyncio.sleep(0.1)  # A got its 429 (Retry-After 0.6 s)
    await b.finish("msg", "from B")
    b_at = next(t for t, who in attempts if who == "B")
    assert b_at - started >= 0.55  # B waited for the platform's Retry-After that A heard
    await a.aclose()
    await b.aclose()


async def test_a_broken_bucket_never_stops_an_edit() -> None:
    class Down:
        async def reserve(self, key: str, interval: float) -> float:
            raise ConnectionError("redis is away")

        async def block(self, key: str, seconds: float) -> None:
            raise ConnectionError("redis is away")

    delivered: list[str] = []

    async def edit(ref: str, content: str) -> None:
        delivered.append(content)

    editor = CoalescingEditor(edit, min_interval=0.01, bucket=Down())
    await editor.finish("m", "final")
    assert delivered == ["final"]
