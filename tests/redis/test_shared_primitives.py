"""Locks, presence, edit buckets and conversation merges on the real Redis."""

from __future__ import annotations

import asyncio
import time

import pytest

from core.models import Conversation, ConversationKey, Message
from core.store.buckets import LocalEditBucket, RedisEditBucket
from core.store.redis import RedisConversationStore, RedisLocks, RedisPresence

KEY = ConversationKey(platform="slack", team="T1", channel="C1", thread="1.2")


async def test_lock_has_one_holder_and_only_it_releases(redis_client, prefix) -> None:
    locks = [RedisLocks(redis_client, prefix=prefix) for _ in range(3)]
    tokens = await asyncio.gather(*(lock.acquire("approve:s1", 5) for lock in locks for _ in range(7)))
    held = [t for t in tokens if t]
    assert len(held) == 1
    assert not await locks[1].release("approve:s1", "not-the-token")
    assert await locks[2].extend("approve:s1", held[0], 5)
    assert await locks[0].release("approve:s1", held[0])
    assert await locks[1].acquire("approve:s1", 5) is not None


async def test_lock_expires_by_itself(redis_client, prefix) -> None:
    locks = RedisLocks(redis_client, prefix=prefix)
    first = await locks.acquire("sweep", 0.05)
    assert first and await locks.acquire("sweep", 1) is None
    await asyncio.sleep(0.1)
    assert await locks.acquire("sweep", 1) is not None
    assert not await locks.release("sweep", first)  # an expired holder cannot free the next one


async def test_presence(redis_client, prefix) -> None:
    presence = RedisPresence(redis_client, prefix=prefix)
    await presence.beat("host:1:a", 0.2)
    assert await presence.alive("host:1:a") and not await presence.alive("host:2:b")
    await asyncio.sleep(0.3)
    assert not await presence.alive("host:1:a")  # stopped beating: gone
    await presence.beat("host:1:a", 5)
    await presence.leave("host:1:a")
    assert not await presence.alive("host:1:a")


async def test_edit_bucket_slots_are_shared(redis_client, prefix) -> None:
    buckets = [RedisEditBucket(redis_client, prefix=prefix) for _ in range(3)]
    waits = sorted(await asyncio.gather(*(b.reserve("slack:C1:1.0", 0.2) for b in buckets for _ in range(2))))
    # six reservations for one message: one slot every 0.2 s, whoever asked
    for n, wait in enumerate(waits):
        assert abs(wait - 0.2 * n) < 0.03, waits
    assert await buckets[0].reserve("slack:C1:other", 0.2) == 0.0  # another message: free
    await buckets[1].block("slack:C1:blocked", 1.5)  # a 429 heard by one instance...
    assert 1.3 < await buckets[2].reserve("slack:C1:blocked", 0.2) <= 1.5  # ...holds all back


async def test_local_bucket() -> None:
    now = [100.0]
    bucket = LocalEditBucket(clock=lambda: now[0], max_keys=2)
    assert await bucket.reserve("a", 1.0) == 0.0
    assert await bucket.reserve("a", 1.0) == 1.0
    await bucket.block("b", 5)
    assert await bucket.reserve("b", 1.0) == 5.0
    await bucket.reserve("c", 1.0)  # bounded: "a" is forgotten
    assert await bucket.reserve("a", 1.0) == 0.0


async def test_concurrent_turns_in_one_thread_on_two_instances_lose_nothing(redis_client, prefix) -> None:
    a = RedisConversationStore(redis_client, prefix=prefix, max_messages=50)
    b = RedisConversationStore(redis_client, prefix=prefix, max_messages=50)
    seed = Conversation(id="thread", key=KEY)
    seed.append(Message(role="user", content="hello"), max_messages=50)
    await a.save(seed)
    on_a, on_b = await a.get("thread"), await b.get("thread")  # both read the same state
    for conv, who in ((on_a, "A"), (on_b, "B")):
        conv.append(Message(role="user", content=f"question to {who}"), max_messages=50)
        conv.append(Message(role="assistant", content=f"answer from {who}"), max_messages=50)
        conv.cost.add(10, 5, 0.001)
    await asyncio.gather(a.save(on_a), b.save(on_b))
    merged = await a.get("thread")
    contents = [m.content for m in merged.messages]
    assert contents[0] == "hello" and len(contents) == 5
    assert {"question to A", "answer from A", "question to B", "answer from B"} <= set(contents)
    assert contents.index("question to A") < contents.index("answer from A")
    assert (merged.cost.calls, merged.cost.input_tokens) == (2, 20)  # each turn's cost, exactly once
    assert merged.cost.usd == pytest.approx(0.002)


async def test_merge_keeps_the_trim(redis_client, prefix) -> None:
    store = RedisConversationStore(redis_client, prefix=prefix, max_messages=4)
    conv = Conversation(id="long", key=KEY)
    for n in range(4):
        conv.append(Message(role="user", content=f"m{n}"), max_messages=4)
    await store.save(conv)
    mine = await store.get("long")
    mine.append(Message(role="user", content="m4"), max_messages=4)  # trims m0
    await store.save(mine)
    assert [m.content for m in (await store.get("long")).messages] == ["m1", "m2", "m3", "m4"]


async def test_corrupt_conversation_is_a_new_one(redis_client, prefix) -> None:
    store = RedisConversationStore(redis_client, prefix=prefix)
    await redis_client.set(f"{prefix}conv:broken", b"\x00garbage")
    assert await store.get("broken") is None
    assert (await store.get_or_create("broken", KEY)).messages == []
    start = time.monotonic()
    await store.save(Conversation(id="broken", key=KEY))  # overwrites the garbage
    assert time.monotonic() - start < 1
