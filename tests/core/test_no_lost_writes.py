"""Concurrent saves of one conversation keep every message and count every cost exactly once."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from core.models import Conversation, ConversationKey, Message, Reply
from core.research.costs import ResearchCosts
from core.store import FileConversationStore, MemoryConversationStore
from core.store.base import ConversationStore
from core.usage import UsageRecord, record_usage
from tests.core.save_in_process import KEY as SHARED_KEY

KEY = ConversationKey(platform="test", channel="C1", thread="T1")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["memory", "files"])
def store(request, tmp_path: Path) -> ConversationStore:  # type: ignore[no-untyped-def]
    return MemoryConversationStore() if request.param == "memory" else FileConversationStore(tmp_path)


async def test_two_turns_from_one_stale_state_keep_both_exchanges_and_costs(store: ConversationStore) -> None:
    seed = Conversation(id="t", key=KEY)
    seed.append(Message(role="user", content="hello"), max_messages=50)
    seed.cost.add(1, 1, 1 / 1024)
    await store.save(seed)
    first, second = await store.get("t"), await store.get("t")
    assert first is not None and second is not None
    for conversation, who in ((first, "A"), (second, "B")):
        conversation.append(Message(role="user", content=f"question {who}"), max_messages=50)
        conversation.cost.add(10, 5, 2 / 1024)
    await asyncio.gather(store.save(first), store.save(second))
    saved = await store.get("t")
    assert saved is not None
    assert [m.content for m in saved.messages] == ["hello", "question A", "question B"]
    assert (saved.cost.calls, saved.cost.input_tokens, saved.cost.usd) == (3, 21, 5 / 1024)


async def test_saving_the_same_copy_twice_counts_its_cost_once(store: ConversationStore) -> None:
    conversation = Conversation(id="t", key=KEY)
    conversation.cost.add(10, 5, 1 / 1024)
    await store.save(conversation)
    await store.save(conversation)
    conversation.cost.add(10, 5, 1 / 1024)
    await store.save(conversation)
    saved = await store.get("t")
    assert saved is not None and saved.cost.calls == 2 and saved.cost.usd == 2 / 1024


async def test_research_cost_survives_a_chat_turn_saved_meanwhile(store: ConversationStore) -> None:
    await store.save(Conversation(id=KEY.conversation_id, key=KEY))
    chat_turn = await store.get(KEY.conversation_id)  # a chat turn loaded the thread ...
    assert chat_turn is not None
    costs = ResearchCosts(store)
    with costs.bill(KEY) as bill:  # ... a research run charges it meanwhile ...
        record_usage(UsageRecord(task="research_plan", provider="p", model="m",
                                 input_tokens=100, output_tokens=50, usd=4 / 1024))
    await costs.charge(bill, Reply(conversation_id=KEY.conversation_id, markdown="report"))
    chat_turn.append(Message(role="user", content="thanks"), max_messages=50)
    chat_turn.cost.add(10, 5, 1 / 1024)
    await store.save(chat_turn)  # ... and the chat turn saves after it
    saved = await store.get(KEY.conversation_id)
    assert saved is not None and saved.cost.calls == 2 and saved.cost.usd == 5 / 1024


async def test_separate_processes_on_one_file_store_keep_every_message(tmp_path: Path) -> None:
    await FileConversationStore(tmp_path).save(Conversation(id="cli:shared", key=SHARED_KEY))
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.core.save_in_process", str(tmp_path), str(n), cwd=ROOT)
        for n in range(12)
    ]
    assert [await p.wait() for p in processes] == [0] * 12
    saved = await FileConversationStore(tmp_path).get("cli:shared")
    assert saved is not None
    assert sorted(m.content for m in saved.messages) == sorted(f"follow-up {n}" for n in range(12))
    assert saved.cost.calls == 12 and saved.cost.usd == 12 / 1024
