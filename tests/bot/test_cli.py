"""``omg ask`` through a real subprocess: the JSON shape, stored conversations, bad ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def omg(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OMG_GITHUB": "offline", "LLM_PROVIDER": "none", "OMG_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_ask_json_shape_and_a_stored_conversation(tmp_path) -> None:
    first = omg("ask", "find react state management libraries", "--conversation", "team-1", "--json",
                data_dir=tmp_path)
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    assert set(answer) == {"conversation_id", "intent", "confidence", "structured_data", "markdown",
                           "suggestions"}
    assert answer["conversation_id"] == "team-1" and answer["intent"] == "search"
    names = [item["fullName"] for item in answer["structured_data"]["items"]]
    follow = json.loads(omg("ask", "analyze the second one", "--conversation", "team-1", "--json",
                            data_dir=tmp_path).stdout)
    assert follow["intent"] == "analyze"
    assert follow["structured_data"]["repo"]["fullName"] == names[1]  # survived the restart


def test_ask_refuses_a_hostile_id_with_a_clear_message(tmp_path) -> None:
    done = omg("ask", "hi", "--conversation", "../../etc/passwd", "--json", data_dir=tmp_path)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] == "invalid_conversation_id"
    assert not (tmp_path / "conversations").exists() or not any((tmp_path / "conversations").iterdir())


def test_an_offline_app_imports_no_sdk_it_does_not_use(tmp_path: Path) -> None:
    """LLM SDKs load only with a provider, Discord only for its backend or discord-sync,
    prompt_toolkit only for an interactive prompt, scikit-learn and SciPy only to train a local
    model, redis only with REDIS_URL, prometheus_client only with OMG_METRICS_PORT: each costs
    start-up time and memory."""
    script = (
        "import asyncio, sys\n"
        "from bot.app import build_app\n"
        "from bot.cli import build_parser\n"
        "from core.models import ConversationKey, IncomingMessage\n"
        "async def main():\n"
        "    app = await build_app(memory=True)\n"
        "    key = ConversationKey(platform='cli', channel='local', thread='t')\n"
        "    for text in ('a faster grep', 'analyze the first one', 'compare the first two'):\n"
        "        await app.service.handle_message(IncomingMessage(key=key, conversation_id='t', text=text,"
        " author='cli'))\n"
        "    await app.aclose()\n"
        "build_parser()\n"
        "asyncio.run(main())\n"
        "print(' '.join(m for m in ('openai', 'google.genai', 'discord', 'aiohttp', 'slack_bolt',"
        " 'prompt_toolkit', 'sklearn', 'scipy', 'redis', 'prometheus_client') if m in sys.modules))\n"
    )
    env = {**os.environ, "OMG_GITHUB": "offline", "LLM_PROVIDER": "none", "OMG_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_the_memory_setting_is_harmless_to_call_again() -> None:
    from bot.cli import return_freed_memory

    return_freed_memory()
    return_freed_memory()
