"""Hostile input against a real bot process, with real-looking secrets in its environment.

One ``python -m bot run`` (Slack HTTP mode, Redis) talks to a fake GitHub that requires a token
and fails on demand (403 / 404 / 422 / 5xx / timeouts), and to fake OpenAI and Gemini servers
that only ever answer malformed JSON. It gets empty, blank, 40,000-character, control-character,
right-to-left and emoji messages and malformed Slack requests. Each gets a friendly reply or a
clean refusal; the process never dies; an earlier conversation is intact at the end; and no
token, key or secret ever appears in its logs (DEBUG level, every library included) or replies.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import string
import zlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from core.models import Conversation
from tests.fakes.github import FakeGitHub
from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.llm_script import FakeReply
from tests.fakes.openai_server import FakeOpenAIServer
from tests.reliability.conftest import Cluster, eventually, open_cluster
from tests.reliability.slack_client import next_ts

pytestmark = pytest.mark.asyncio(loop_scope="module")
SORRY = "Something went wrong on my side"


def _random(alphabet: str, n: int) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


ALNUM = string.ascii_letters + string.digits
SECRETS = {
    "SLACK_BOT_TOKEN": f"xoxb-{_random(string.digits, 12)}-{_random(ALNUM, 24)}",
    "SLACK_SIGNING_SECRET": _random("0123456789abcdef", 32),
    "GITHUB_TOKEN": f"ghp_{_random(ALNUM, 36)}",
    "OPENAI_API_KEY": f"sk-{_random(ALNUM, 40)}",
    "GEMINI_API_KEY": f"AIza{_random(ALNUM, 35)}",
}
GARBAGE = [
    '{"intent": "search", "confidence": ',  # cut off
    "Sure! Here is the JSON you asked for: intent=search",  # prose
    '{"intent": 42, "confidence": "very high", "steps": "none"}',  # wrong types
    "```json\n{]\n```",  # broken fence
    "",  # nothing at all
    # a model echoing credentials it should never have seen: logged (as invalid output), redacted
    f'{{"intent": "search", "debug": "{SECRETS["GITHUB_TOKEN"]} {SECRETS["OPENAI_API_KEY"]}"',
]


_answers = itertools.count()


def garbage(body: dict[str, Any]) -> FakeReply:
    """Every LLM call gets the next malformed answer, in turn."""
    return FakeReply(text=GARBAGE[next(_answers) % len(GARBAGE)])


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def hostile(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    async with FakeGitHub(token=SECRETS["GITHUB_TOKEN"], search_budget=100_000) as github, \
            FakeOpenAIServer(responder=garbage) as openai, FakeGeminiServer(responder=garbage) as gemini:
        env = {
            **github.env(OMG_GITHUB="live", OMG_GITHUB_OUTAGE_SECONDS="0", OMG_GITHUB_TIMEOUT="1",
                         OMG_GITHUB_RETRIES="2"),
            "LLM_PROVIDER": "openai", "OPENAI_API_KEY": SECRETS["OPENAI_API_KEY"],
            "OPENAI_BASE_URL": openai.base_url, "GEMINI_API_KEY": SECRETS["GEMINI_API_KEY"],
            "GEMINI_BASE_URL": gemini.base_url, "LLM_RETRY_BASE_DELAY": "0", "OMG_LOG_LEVEL": "DEBUG",
        }
        async with open_cluster(tmp_path_factory.mktemp("hostile"), instances=1,
                                slack_token=SECRETS["SLACK_BOT_TOKEN"],
                                secret=SECRETS["SLACK_SIGNING_SECRET"], **env) as cluster:
            cluster.extras.update(github=github, openai=openai, gemini=gemini, first=await _first_thread(cluster))
            yield cluster


async def _first_thread(cluster: Cluster) -> str:
    """A normal conversation before the abuse starts; it must be intact at the end."""
    ts = next_ts()
    await cluster.slack.mention(cluster.a.url, "find react state management libraries", ts=ts)
    await eventually(lambda: cluster.answers(ts), timeout=30)
    return ts


async def ask(cluster: Cluster, text: str) -> str:
    """Mention the bot with ``text`` in a new thread; returns everything it replied there."""
    ts = next_ts()
    status, _ = await cluster.slack.mention(cluster.a.url, text, ts=ts)
    assert status == 200
    replies = await eventually(lambda: cluster.replies(ts), timeout=30)
    assert cluster.a.alive(), cluster.a.tail()
    text_out = "\n".join(m.text + json.dumps(m.blocks, ensure_ascii=False) for m in replies)
    assert SORRY not in text_out and "Traceback" not in text_out, text_out[:500]
    return text_out


@pytest.mark.parametrize("text, expect", [
    ("", "didn't catch a question"),
    (" \t \u00a0 \u3000 ", "didn't catch a question"),
    ("find " + "react state libraries " * 1820, "first 4,000 characters"),  # ~40,000 characters
    ("find \x00\x07\x1b[31mreact\x1b[0m state\u202e libraries\x7f", ""),
    ("ابحث عن مكتبات react لإدارة الحالة", ""),
    ("🚀🔥 find 🦀 rust http client libraries 🙏🏽👨‍👩‍👧", ""),
    ("Z̷̢̛a̴l̸g̵o̶ t̷e̵x̸t̴ " * 40, ""),
])
async def test_odd_messages_get_a_friendly_reply(hostile: Cluster, text: str, expect: str) -> None:
    reply = await ask(hostile, text)
    assert expect.lower() in reply.lower()


@pytest.mark.parametrize("case", ["rate_limit_403", "not_found_404", "invalid_422", "server_5xx", "timeout"])
async def test_github_failures_get_a_friendly_reply(hostile: Cluster, case: str) -> None:
    github: FakeGitHub = hostile.extras["github"]
    text, expect = "find python web frameworks", ""
    search = "/search/|/graphql"  # with a token the searches go over GraphQL, REST when it fails
    if case == "rate_limit_403":
        fault = github.rate_limit(search, times=None)
        expect = "rate limit"
    elif case == "not_found_404":
        fault, text, expect = None, "analyze nosuchowner-zz/definitely-missing-repo", "couldn't find"
    elif case == "invalid_422":
        fault = github.fail(search, 422, times=None, message="Validation Failed")
    elif case == "server_5xx":
        fault = github.fail(search, 502, times=None)
    else:
        fault = github.slow(search, 3.0, times=None)
    try:
        reply = await ask(hostile, text)
    finally:
        if fault is not None:
            github.faults.remove(fault)
    assert expect.lower() in reply.lower(), reply[:800]


async def test_research_with_an_llm_that_answers_garbage(hostile: Cluster) -> None:
    from tests.reliability.test_two_instances import reports, research_plan

    thread_ts, plan, approve = await research_plan(hostile, "UGRACE", goal="Should we adopt Bazel or keep Gradle for our monorepo?")
    await hostile.slack.click(hostile.a.url, plan, approve, user="UGRACE")
    await eventually(lambda: reports(hostile, thread_ts), timeout=60)
    assert hostile.extras["openai"].calls + hostile.extras["gemini"].calls > 0  # the LLMs were asked


def _form(payload: Any) -> bytes:
    import urllib.parse
    return urllib.parse.urlencode({"payload": payload if isinstance(payload, str) else json.dumps(payload)}).encode()


MALFORMED: list[tuple[str, bytes, str, dict[str, str]]] = [
    ("not json", b"{this is not json", "application/json", {}),
    ("empty body", b"", "application/json", {}),
    ("json array", b"[1, 2, 3]", "application/json", {}),
    ("callback without event", json.dumps({"type": "event_callback", "team_id": "T1"}).encode(), "application/json", {}),
    ("event without fields", json.dumps({"type": "event_callback", "team_id": "T1", "event_id": "EvX1",
                                         "event": {"type": "app_mention"}}).encode(), "application/json", {}),
    ("event with wrong types", json.dumps({"type": "event_callback", "team_id": "T1", "event_id": "EvX2",
                                           "event": {"type": "message", "user": ["U1"], "text": {"a": 1},
                                                     "ts": 5, "channel": None}}).encode(), "application/json", {}),
    ("unknown event type", json.dumps({"type": "event_callback", "team_id": "T1", "event_id": "EvX3",
                                       "event": {"type": "🦄" * 100}}).encode(), "application/json", {}),
    ("payload not json", _form("{nope"), "application/x-www-form-urlencoded", {}),
    ("block actions without actions", _form({"type": "block_actions", "user": {"id": "U1"}, "team": {"id": "T1"}}),
     "application/x-www-form-urlencoded", {}),
    ("action with a hostile value", _form({
        "type": "block_actions", "user": {"id": "U1"}, "team": {"id": "T1"}, "channel": {"id": "C1"},
        "container": {"type": "message", "message_ts": "1.1", "channel_id": "C1"},
        "actions": [{"type": "button", "action_id": "omg:approve:0", "value": "../../etc/passwd:1"}]}),
     "application/x-www-form-urlencoded", {}),
    ("command without fields", b"command=%2Fresearch", "application/x-www-form-urlencoded", {}),
    ("huge body", b'{"type": "event_callback", "pad": "' + b"x" * 3_000_000 + b'"}', "application/json", {}),
]


@pytest.mark.parametrize("name, body, content_type, headers", MALFORMED, ids=[m[0] for m in MALFORMED])
async def test_malformed_slack_requests_are_refused_cleanly(
    hostile: Cluster, name: str, body: bytes, content_type: str, headers: dict[str, str]
) -> None:
    status, text = await hostile.slack.post(hostile.a.url, body, content_type, headers=headers)
    assert status < 500 or status == 413, (name, status, text[:200])
    assert "Traceback" not in text and SECRETS["SLACK_SIGNING_SECRET"] not in text
    await asyncio.sleep(0.1)
    assert hostile.a.alive(), hostile.a.tail()


async def test_forged_requests_are_rejected(hostile: Cluster) -> None:
    event = {"type": "app_mention", "user": "UEVE", "text": "<@UBOT> hi", "ts": next_ts(), "channel": "C1"}
    body = json.dumps({"type": "event_callback", "team_id": "T1", "event_id": "EvForged", "event": event}).encode()
    status, _ = await hostile.slack.post(hostile.a.url, body, "application/json", signed=False)
    assert status == 401
    assert hostile.bot_messages(event["ts"]) == []


async def test_nothing_was_lost_and_nothing_leaked(hostile: Cluster) -> None:
    first = hostile.extras["first"]
    await hostile.slack.say(hostile.a.url, "compare the first two", thread_ts=first)
    await eventually(lambda: len(hostile.answers(first)) == 2, timeout=30)
    blob = hostile.redis.get(f"{hostile.prefix}conv:slack:T1:C1:{first}")
    stored = Conversation.model_validate_json(zlib.decompress(blob))
    assert [m.content for m in stored.messages if m.role == "user"] == [
        "find react state management libraries", "compare the first two"]
    assert hostile.a.alive()

    logs = hostile.a.log_text()
    assert len(logs.splitlines()) > 100 and '"level": "debug"' in logs  # a verbose, complete log
    assert hostile.extras["github"].calls and all(c.authorization for c in hostile.extras["github"].calls)
    assert "[REDACTED]" in logs  # the echoed credentials were logged -- redacted
    replies = json.dumps([m.as_dict() for m in hostile.fake.messages.values()], ensure_ascii=False)
    for name, value in SECRETS.items():
        assert value not in logs, f"{name} leaked into the logs"
        assert value not in replies, f"{name} leaked into a reply"
        assert value[:12] not in logs, f"the start of {name} leaked into the logs"
