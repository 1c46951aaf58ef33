"""A process that saves a research session and a conversation as fast as it can, until killed.

    python -m tests.reliability.write_and_die DATA_DIR

Uses the real file stores (the embedded default). Each save makes the files ~2 MB, so a SIGKILL
from the test lands in the middle of a write most of the time. After each successful save it
prints ``<session version> <conversation messages>``; whatever the moment of the kill, the files
must then hold that state or a later one, and parse.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from core.errors import SessionNotFound
from core.models import ConversationKey, Message
from core.models.research import ResearchSession
from core.store.research import FileResearchStore
from core.store import FileConversationStore

SESSION_ID = "22222222-3333-4444-8555-666666666666"
CONVERSATION_ID = "slack:T1:C1:1700000000.000100"
KEY = ConversationKey(platform="slack", team="T1", channel="C1", thread="1700000000.000100")
FILLER = "x" * 1_000_000


async def main(data_dir: Path) -> None:
    sessions = FileResearchStore(data_dir)
    conversations = FileConversationStore(data_dir)
    try:
        session = await sessions.get(SESSION_ID)
    except SessionNotFound:
        session = ResearchSession(id=SESSION_ID, query="q", requester="U1", key=KEY)
    conversation = await conversations.get_or_create(CONVERSATION_ID, KEY)
    while True:
        session.query = f"version {session.version + 1} {FILLER}"
        await sessions.save(session, expected_version=session.version)
        conversation.append(Message(role="user", content=f"message {len(conversation.messages)} {FILLER}"),
                            max_messages=1000)
        await conversations.save(conversation)
        print(session.version, len(conversation.messages), flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
