"""Set-up: settings from the environment, Socket Mode end to end, the manifests."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from bot.slack.assistant import SUGGESTED_PROMPTS

from bot.slack import SlackBackend
from bot.base import SetupError
from bot.slack.settings import SlackSettings
from tests.fakes.slack_api import APP_TOKEN, BOT_USER, TEAM, TOKEN, FakeSlackApi
from tests.slack.scripted import build_bot_app

MANIFESTS = Path(__file__).resolve().parents[2] / "manifests"


def test_settings_from_the_environment():
    socket = SlackSettings.from_env({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1",
                                     "SLACK_API_URL": "http://127.0.0.1:9/api", "PORT": "8080"})
    assert socket.socket_mode and socket.api_url == "http://127.0.0.1:9/api/" and socket.port == 8080
    http = SlackSettings.from_env({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "sekrit"})
    assert not http.socket_mode and http.port == 3000 and http.api_url == "https://slack.com/api/"
    assert http.problems() == []
    assert "xoxb-1" not in repr(http) and "sekrit" not in repr(http)


async def test_missing_settings_are_explained():
    backend = SlackBackend(build_bot_app().ports, settings=SlackSettings(bot_token="xoxb-1"))
    with pytest.raises(SetupError, match="SLACK_APP_TOKEN .* or SLACK_SIGNING_SECRET"):
        await backend.start()


async def test_a_rejected_token_is_explained():
    async with FakeSlackApi(token="xoxb-other") as fake:
        settings = SlackSettings(bot_token=TOKEN, signing_secret="s", api_url=fake.base_url, port=0)
        with pytest.raises(SetupError, match=r"refused SLACK_BOT_TOKEN \(invalid_auth\)"):
            await SlackBackend(build_bot_app().ports, settings=settings).start()


async def test_socket_mode_acknowledges_and_answers():
    async with FakeSlackApi() as fake:
        settings = SlackSettings(bot_token=TOKEN, app_token=APP_TOKEN, api_url=fake.base_url)
        backend = SlackBackend(build_bot_app().ports, settings=settings)
        await backend.start()
        try:
            ts = f"{time.time():.6f}"
            event = {"type": "message", "user": "UALICE", "text": "hello over a socket", "ts": ts,
                     "channel": "D1", "channel_type": "im", "team": TEAM}
            body = {"type": "event_callback", "team_id": TEAM, "event_id": "EvS1", "event": event,
                    "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}]}
            first = await fake.socket_send("events_api", body)
            retry = await fake.socket_send("events_api", body, retry_attempt=1)
            help_id = await fake.socket_send("slash_commands", {
                "command": "/omg", "text": "help", "user_id": "UALICE", "channel_id": "C1",
                "team_id": TEAM, "trigger_id": "t1"})
            await fake.socket_ack(first)
            await fake.socket_ack(retry)
            assert "/research" in (await fake.socket_ack(help_id))["payload"]["text"]
            await asyncio.wait_for(backend.idle(), 5)
            answers = [m for m in fake.thread("D1", ts) if m.user == BOT_USER]
            assert len(answers) == 1 and "You said: hello over a socket" in answers[0].text
        finally:
            await backend.shutdown()


@pytest.mark.parametrize("name", ["slack-socket-mode.yaml", "slack-http.yaml"])
def test_manifests_ask_for_what_the_adapter_uses(name: str):
    text = (MANIFESTS / name).read_text()
    listed = set(re.findall(r"^\s+- ([a-z_.:]+)\s*$", text, re.MULTILINE))
    scopes = {"app_mentions:read", "assistant:write", "channels:history", "chat:write", "commands",
              "groups:history", "im:history", "mpim:history"}
    events = {"app_mention", "assistant_thread_started", "assistant_thread_context_changed",
              "message.channels", "message.groups", "message.im", "message.mpim"}
    assert scopes | events <= listed
    assert "command: /omg" in text and "command: /research" in text
    assert "assistant_view:" in text  # Slack requires it with assistant:write
    for prompt in SUGGESTED_PROMPTS:  # the panel shows the same prompts as a new thread
        assert f"message: {prompt['message']}" in text
    socket = "socket_mode_enabled: true" in text
    assert socket == (name == "slack-socket-mode.yaml")
    if not socket:
        assert text.count("https://YOUR-PUBLIC-HOST/slack/events") == 4
