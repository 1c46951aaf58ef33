"""The embedded default (files, no REDIS_URL) under crashes.

* ``kill -9`` while a session and a conversation are being written, five times over: the files
  always parse and hold the last saved state or a newer one (atomic temp + fsync + rename).
* ``kill -9`` of ``omg run`` mid-plan, then a new ``omg run`` on the same data directory: the
  run resumes after the last finished step and completes, its report posted in the thread.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp

from core.models import Conversation
from core.models.research import ResearchSession
from core.store.ids import file_stem
from tests.fakes.github import FakeGitHub
from tests.fakes.slack_api import TOKEN, FakeSlackApi
from tests.reliability.conftest import SECRET, eventually
from tests.reliability.procs import ROOT, BotProcess, base_env
from tests.reliability.slack_client import SlackSender, buttons
from tests.reliability.write_and_die import CONVERSATION_ID, SESSION_ID

GOAL = "Should our team migrate from Redux to Zustand for a large React app?"


def _read_state(data_dir: Path) -> tuple[int, int]:
    session = ResearchSession.model_validate_json((data_dir / "research" / f"{SESSION_ID}.json").read_bytes())
    path = data_dir / "conversations" / f"{file_stem(CONVERSATION_ID)}.json"
    conversation = Conversation.model_validate_json(path.read_bytes())
    return session.version, len(conversation.messages)


async def test_kill_during_writes_leaves_the_previous_files_intact(tmp_path: Path) -> None:
    rng = random.Random(8)
    last = (0, 0)
    for _ in range(5):
        process = subprocess.Popen([sys.executable, "-m", "tests.reliability.write_and_die", str(tmp_path)],
                                   cwd=ROOT, env=base_env(), stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None
        printed = process.stdout.readline().split()  # one save done: the process is writing
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        rest = process.stdout.read().split()
        process.stdout.close()
        saved = [int(x) for x in (rest or printed)[-2:]]
        version, messages = _read_state(tmp_path)  # parses: never a torn file
        assert version >= saved[0] > last[0] and messages >= saved[1] > last[1]
        last = (version, messages)
    leftovers = [p.name for p in tmp_path.rglob("*.json") if p.name.startswith(".")]
    assert leftovers == []  # temp files never take a real file's name


async def test_omg_run_killed_mid_plan_resumes_after_a_restart(tmp_path: Path) -> None:
    async with FakeGitHub(latency=0.15, search_budget=100_000, core_budget=1_000_000) as github, \
            FakeSlackApi() as fake, aiohttp.ClientSession() as http:
        env = {"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": fake.base_url,
               "OMG_LOG_LEVEL": "INFO", "OMG_SLACK_EDIT_INTERVAL": "0.2", **github.env(OMG_GITHUB="live")}
        slack = SlackSender(http, SECRET)
        bot = await BotProcess.start("files", env, tmp_path)  # no REDIS_URL: files under data/
        try:
            await slack.command(bot.url, "/research", f"{GOAL} --deep", user="UFRED")
            opened = await eventually(lambda: [m for m in fake.messages.values()
                                               if m.thread_ts is None and "UFRED" in m.text])
            thread_ts = opened[0].ts
            plan = await eventually(lambda: next((m for m in fake.thread("C1", thread_ts) if any(
                b["action_id"].startswith("omg:approve") for b in buttons(m))), None), timeout=30)
            approve = next(b for b in buttons(plan) if b["action_id"].startswith("omg:approve"))
            session_file = tmp_path / "data" / "research" / f"{approve['value'].split(':')[0]}.json"
            await slack.click(bot.url, plan, approve, user="UFRED")

            def checkpointed() -> list:
                data = json.loads(session_file.read_bytes())
                return data["results"] if 1 <= len(data["results"]) < len(data["plans"][-1]["steps"]) else []

            before = await eventually(checkpointed, timeout=60, every=0.01)
            bot.kill()
            after_kill = json.loads(session_file.read_bytes())
            assert after_kill["status"] == "EXECUTING"
            bot = await BotProcess.start("files", env, tmp_path)  # same data directory
            await eventually(lambda: json.loads(session_file.read_bytes())["status"] == "COMPLETED", timeout=90)
            done = json.loads(session_file.read_bytes())
            assert [r["stepId"] for r in done["results"]] == [s["stepId"] for s in done["plans"][-1]["steps"]]
            assert done["results"][: len(before)] == before
            await eventually(lambda: [m for m in fake.thread("C1", thread_ts) if "Research report" in m.text],
                             timeout=20)
        finally:
            await bot.stop()
