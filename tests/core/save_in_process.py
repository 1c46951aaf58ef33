"""One separate process's turn on a shared file store (for the cross-process save test)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from core.models import ConversationKey, Message
from core.store.files import FileConversationStore

KEY = ConversationKey(platform="cli", channel="local", thread="shared")


async def turn(data_dir: Path, number: int) -> None:
    store = FileConversationStore(data_dir)
    conversation = await store.get_or_create("cli:shared", KEY)
    await asyncio.sleep(0.05)  # hold the stale copy while the other processes save theirs
    conversation.append(Message(role="user", content=f"follow-up {number}"), max_messages=50)
    conversation.cost.add(10, 5, 1 / 1024)
    await store.save(conversation)


if __name__ == "__main__":
    asyncio.run(turn(Path(sys.argv[1]), int(sys.argv[2])))
