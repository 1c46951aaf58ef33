from __future__ import annotations

import pytest

from core.errors import ConversationDamaged, InvalidId
from core.models import Conversation, ConversationKey, Message
from core.store import FileConversationStore, MemoryConversationStore, MemoryEventDeduper

KEY = ConversationKey(platform="test", channel="C1", thread="T1")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def conversation(cid: str = "c1", n: int = 2) -> Conversation:
    conv = Conversation(id=cid, key=KEY)
    for i in range(n):
        conv.append(Message(role="user", content=f"m{i}"), max_messages=50)
    return conv


@pytest.fixture(params=["memory", "file"])
def store(request, tmp_path):
    if request.param == "memory":
        return MemoryConversationStore()
    return FileConversationStore(tmp_path)


async def test_unknown_id_is_a_new_conversation(store) -> None:
    conv = await store.get_or_create("never-seen", KEY)
    assert conv.id == "never-seen" and conv.messages == []
    assert await store.get("never-seen") is None


async def test_roundtrip_and_delete(store) -> None:
    await store.save(conversation("c1", 3))
    loaded = await store.get("c1")
    assert loaded is not None and [m.content for m in loaded.messages] == ["m0", "m1", "m2"]
    await store.delete("c1")
    assert await store.get("c1") is None


@pytest.mark.parametrize("bad", ["../etc/passwd", "a/b", "", "x" * 201, "a\x00b", ".."])
async def test_hostile_ids_are_refused(store, bad: str) -> None:
    with pytest.raises(InvalidId):
        await store.get(bad)


async def test_memory_store_idle_ttl_and_bound() -> None:
    clock = Clock()
    store = MemoryConversationStore(ttl_seconds=3600, max_conversations=2, clock=clock)
    await store.save(conversation("a"))
    clock.now = 10
    await store.save(conversation("b"))
    await store.save(conversation("c"))  # evicts the least recently used: "a"
    assert await store.get("a") is None
    assert await store.get("b") is not None
    clock.now = 10 + 3601
    assert await store.get("c") is None  # idle too long


async def test_memory_store_returns_private_copies() -> None:
    store = MemoryConversationStore()
    await store.save(conversation("a", 1))
    first = await store.get("a")
    first.messages.clear()
    again = await store.get("a")
    assert len(again.messages) == 1


def test_message_bound() -> None:
    conv = conversation("a", 0)
    for i in range(60):
        conv.append(Message(role="user", content=str(i)), max_messages=50)
    assert len(conv.messages) == 50 and conv.messages[0].content == "10"


async def test_file_store_survives_restart_and_corruption(tmp_path) -> None:
    await FileConversationStore(tmp_path).save(conversation("keep", 2))
    reopened = FileConversationStore(tmp_path)
    assert len((await reopened.get("keep")).messages) == 2
    files = list((tmp_path / "conversations").glob("*.json"))
    assert len(files) == 1 and "keep" not in files[0].name  # names are hashes, not ids
    files[0].write_text("{not json")
    with pytest.raises(ConversationDamaged):  # said, never silently treated as new
        await reopened.get("keep")
    [kept] = (tmp_path / "conversations").glob("*.damaged-*")
    assert kept.read_text() == "{not json"  # the damaged bytes are kept for diagnosis
    assert await reopened.get("keep") is None  # set aside: the next turn starts afresh


async def test_deduper_answers_once_within_ttl() -> None:
    clock = Clock()
    dedup = MemoryEventDeduper(clock=clock)
    assert await dedup.first_time("e1", ttl_seconds=60)
    assert not await dedup.first_time("e1", ttl_seconds=60)
    clock.now = 61
    assert await dedup.first_time("e1", ttl_seconds=60)
