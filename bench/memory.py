"""Memory held by the in-memory conversation store: 1,000 conversations of 10 messages.

Each conversation alternates user messages and assistant answers; every assistant answer
carries a 10-repository repo_list with scores (the realistic worst case). Target: <= 20 MB.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from datetime import UTC, datetime

from bench._util import report
from core.models import (
    Conversation,
    ConversationKey,
    DimensionScores,
    Message,
    RepoList,
    ResultMeta,
    ScoredRepository,
)
from core.store import MemoryConversationStore

N_CONVERSATIONS = 1_000
MESSAGES = 10


def repo_list(seed: int) -> RepoList:
    items = [
        ScoredRepository(
            full_name=f"owner{seed % 97}/project-{seed}-{i}",
            description="A fast, small and flexible state-management library for React apps " * 2,
            url=f"https://github.com/owner{seed % 97}/project-{seed}-{i}",
            stars=1000 + i * 37 + seed,
            forks=100 + i,
            language="TypeScript",
            open_issues=40 + i,
            topics=["react", "state", "hooks"],
            pushed_at=datetime(2026, 8, 1, tzinfo=UTC),
            star_growth_6m=1200,
            scores=DimensionScores(maturity=7.5, activity=8.1, documentation=6.0, community=7.0,
                                   ease_of_use=6.5, maintenance=7.2, relevance=8.8, overall=7.4,
                                   reasons={"activity": "pushed 3 weeks ago"}),
            why="Popular, actively maintained React state library.",
        )
        for i in range(10)
    ]
    return RepoList(items=items, meta=ResultMeta(source="catalog", query="react state management"))


def conversation(n: int) -> Conversation:
    conv = Conversation(
        id=f"slack:T1:C{n % 50}:{n}", key=ConversationKey(platform="slack", team="T1", channel=f"C{n % 50}", thread=str(n))
    )
    for m in range(MESSAGES // 2):
        conv.append(Message(role="user", content="find react state management libraries", author="U1"), max_messages=50)
        conv.append(Message(role="assistant", content="Based on your query, I found 10 repositories... " * 8,
                            structured_data=repo_list(n * 10 + m)), max_messages=50)
    return conv


async def measure() -> float:
    conversations = [conversation(n) for n in range(N_CONVERSATIONS)]
    gc.collect()
    tracemalloc.start()
    store = MemoryConversationStore(max_conversations=N_CONVERSATIONS)
    for conv in conversations:
        await store.save(conv)
    del conversations
    gc.collect()
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(store) == N_CONVERSATIONS
    return current / 1_000_000


def main() -> None:
    print(f"memory of {N_CONVERSATIONS:,} stored conversations x {MESSAGES} messages (5 repo lists each)")
    mb = asyncio.run(measure())
    report("MemoryConversationStore resident size", mb, "MB", 20.0)


if __name__ == "__main__":
    main()
