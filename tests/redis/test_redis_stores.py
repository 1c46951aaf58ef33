from __future__ import annotations

import asyncio

from core.models import Conversation, ConversationKey, Message
from core.store.redis import RedisConversationStore, RedisEventDeduper

KEY = ConversationKey(platform="slack", team="T1", channel="C1", thread="1.2")


async def test_conversation_roundtrip_ttl_and_unknown_ids(redis_client, prefix) -> None:
    store = RedisConversationStore(redis_client, ttl_seconds=60, prefix=prefix)
    assert (await store.get_or_create("new-one", KEY)).messages == []
    conv = Conversation(id="c1", key=KEY)
    conv.append(Message(role="user", content="héllo 👋"), max_messages=50)
    await store.save(conv)
    loaded = await store.get("c1")
    assert loaded.messages[0].content == "héllo 👋"
    assert 0 < await redis_client.ttl(f"{prefix}conv:c1") <= 60
    await store.delete("c1")
    assert await store.get("c1") is None


async def test_two_instances_share_conversations(redis_client, prefix) -> None:
    a = RedisConversationStore(redis_client, prefix=prefix)
    b = RedisConversationStore(redis_client, prefix=prefix)
    conv = Conversation(id="shared", key=KEY)
    conv.append(Message(role="user", content="from A"), max_messages=50)
    await a.save(conv)
    assert (await b.get("shared")).messages[0].content == "from A"


async def test_deduper_first_delivery_wins_under_concurrency(redis_client, prefix) -> None:
    dedupers = [RedisEventDeduper(redis_client, prefix=prefix) for _ in range(4)]
    results = await asyncio.gather(*(d.first_time("Ev42", 30) for d in dedupers for _ in range(5)))
    assert results.count(True) == 1
