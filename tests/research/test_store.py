"""Session storage: compare-and-swap writes, isolation, hostile ids, crashes mid-write.

The tests taking a ``store`` are the ``ResearchStore`` contract: they run here on the file and
memory stores and in ``tests/redis/test_research_store.py`` on Redis."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.errors import InvalidId, SessionNotFound, VersionConflict
from core.models import ConversationKey
from core.models.research import ResearchSession, ResearchStatus
from core.store.research import FileResearchStore, MemoryResearchStore, new_session_id, update
from tests.research.store_crash import SESSION_ID

ROOT = Path(__file__).resolve().parents[2]
KEY = ConversationKey(platform="test", channel="c", thread="t")


def new(query: str = "q") -> ResearchSession:
    return ResearchSession(id=new_session_id(), query=query, requester="U1", key=KEY)


@pytest.fixture(params=["file", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    return FileResearchStore(tmp_path) if request.param == "file" else MemoryResearchStore()


async def test_save_checks_the_expected_version(store) -> None:  # type: ignore[no-untyped-def]
    session = new()
    await store.save(session, expected_version=0)
    assert session.version == 1
    with pytest.raises(VersionConflict):
        await store.save(new().model_copy(update={"id": session.id}), expected_version=0)  # exists
    stale = await store.get(session.id)
    session.query = "changed"
    await store.save(session, expected_version=1)
    stale.query = "lost update"
    with pytest.raises(VersionConflict):
        await store.save(stale, expected_version=1)
    loaded = await store.get(session.id)
    assert loaded.query == "changed" and loaded.version == 2
    assert stale.version == 1  # a refused write leaves the caller's copy as it was


async def test_update_retries_on_conflict_and_never_loses_a_change(store) -> None:  # type: ignore[no-untyped-def]
    session = new()
    await store.save(session, expected_version=0)

    def add(n: int):  # type: ignore[no-untyped-def]
        return lambda s: s.history.append({"n": n})

    await asyncio.gather(*(update(store, session.id, add(n), attempts=100) for n in range(20)))
    stored = await store.get(session.id)
    assert sorted(h["n"] for h in stored.history) == list(range(20))
    assert stored.version == 21


async def test_concurrent_sessions_never_touch_each_other(tmp_path: Path) -> None:
    store = FileResearchStore(tmp_path)
    sessions = [new(f"goal {i}") for i in range(40)]
    await asyncio.gather(*(store.save(s, expected_version=0) for s in sessions))
    for round_ in range(3):
        await asyncio.gather(*(update(store, s.id, lambda x, r=round_: x.history.append({"r": r})) for s in sessions))
    files = sorted(p.name for p in (tmp_path / "research").glob("*.json"))
    assert files == sorted(f"{s.id}.json" for s in sessions)
    for s in sessions:
        stored = await store.get(s.id)
        assert stored.query == s.query and stored.version == 4 and len(stored.history) == 3


HOSTILE = ["../x", "..", "a/b", "/etc/passwd", "", "x" * 300, "11111111-2222-4333-8444-555555555555/../x",
           "11111111-2222-4333-8444-55555555555\x00", "C:\\x", "11111111-2222-4333-8444-555555555555.json",
           "11111111222243338444555555555555", "{11111111-2222-4333-8444-555555555555}", "ÄÖ"]


@pytest.mark.parametrize("bad", HOSTILE)
async def test_hostile_ids_are_refused(store, bad: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidId):
        await store.get(bad)
    session = new()
    session.id = bad
    with pytest.raises(InvalidId):
        await store.save(session, expected_version=0)
    assert not any(p.name not in ("research",) for p in tmp_path.iterdir() if p.is_file())


async def test_unknown_and_corrupt_sessions_are_not_found(tmp_path: Path) -> None:
    store = FileResearchStore(tmp_path)
    with pytest.raises(SessionNotFound):
        await store.get(new_session_id())
    broken = new_session_id()
    (tmp_path / "research" / f"{broken}.json").write_text("{not json")
    with pytest.raises(SessionNotFound):
        await store.get(broken)
    good = new()
    await store.save(good, expected_version=0)
    assert [s.id for s in await store.list_sessions()] == [good.id]  # the corrupt file is skipped
    with pytest.raises(VersionConflict):  # and nothing overwrites it blindly
        await store.save(new().model_copy(update={"id": broken}), expected_version=0)


async def test_list_filters_by_status(store) -> None:  # type: ignore[no-untyped-def]
    a, b = new(), new()
    b.status = ResearchStatus.EXECUTING
    await store.save(a, expected_version=0)
    await store.save(b, expected_version=0)
    assert [s.id for s in await store.list_sessions({ResearchStatus.EXECUTING})] == [b.id]


async def test_feedback_wait_markers(store) -> None:  # type: ignore[no-untyped-def]
    session_id = new_session_id()
    assert await store.feedback_wait("slack:T1:C1:123.45") is None
    await store.set_feedback_wait("slack:T1:C1:123.45", session_id)
    assert await store.feedback_wait("slack:T1:C1:123.45") == session_id
    await store.set_feedback_wait("slack:T1:C1:123.45", None)
    assert await store.feedback_wait("slack:T1:C1:123.45") is None
    with pytest.raises(InvalidId):
        await store.set_feedback_wait("../../etc", session_id)


def _run(mode: str, data_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.research.store_crash", mode, str(data_dir)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)


async def test_a_crash_between_write_and_rename_leaves_the_previous_file_intact(tmp_path: Path) -> None:
    process = _run("before-rename", tmp_path)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    leftovers = list((tmp_path / "research").glob(".*.tmp"))
    assert leftovers and b"second version" in leftovers[0].read_bytes()  # the new data never landed
    store = FileResearchStore(tmp_path)
    session = await store.get(SESSION_ID)
    assert session.query == "first version" and session.version == 1
    assert [s.id for s in await store.list_sessions()] == [SESSION_ID]
    session.query = "after restart"
    await store.save(session, expected_version=1)  # and the store keeps working


async def test_kill_minus_nine_during_big_writes_never_tears_the_file(tmp_path: Path) -> None:
    for delay in (0.3, 0.55):
        process = _run("loop", tmp_path)
        assert process.stdout is not None and process.stdout.readline().strip() == "saved"
        time.sleep(delay)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        raw = (tmp_path / "research" / f"{SESSION_ID}.json").read_bytes()
        data = json.loads(raw)  # parses: never a torn write
        assert data["query"].startswith(f"version {data['version']}") or data["version"] == 1
        (tmp_path / "research" / f"{SESSION_ID}.json").unlink()
