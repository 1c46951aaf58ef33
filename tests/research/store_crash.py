"""A process that dies while writing a research session (run by test_store.py).

    python -m tests.research.store_crash before-rename DIR   # temp written + fsynced, then SIGKILL
    python -m tests.research.store_crash loop DIR            # big writes forever, until killed
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import tempfile
from pathlib import Path

from core.models import ConversationKey
from core.models.research import ResearchSession
from core.store.research import FileResearchStore

SESSION_ID = "11111111-2222-4333-8444-555555555555"
KEY = ConversationKey(platform="test", channel="c", thread="t")


def crash_before_rename(path: Path, data: bytes) -> None:
    fd, _tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.kill(os.getpid(), signal.SIGKILL)  # the crash: after the write, before the rename


async def main(mode: str, data_dir: Path) -> None:
    store = FileResearchStore(data_dir)
    session = ResearchSession(id=SESSION_ID, query="first version", requester="U1", key=KEY)
    await store.save(session, expected_version=0)
    print("saved", flush=True)
    if mode == "before-rename":
        crashing = FileResearchStore(data_dir, writer=crash_before_rename)
        session.query = "second version"
        await crashing.save(session, expected_version=1)
        return
    while True:  # "loop": ~4 MB per write, so a kill lands mid-write most of the time
        session.query = f"version {session.version + 1} " + "x" * 4_000_000
        await store.save(session, expected_version=session.version)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2])))
