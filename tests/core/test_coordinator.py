from __future__ import annotations

import asyncio

from core.config import CoreSettings
from core.coordinator import Coordinator, clean_text
from core.models import CollectingSink, ConversationKey, DoneEvent, IncomingMessage, Intent
from core.errors import RepoNotFound
from core.service import BotService
from core.store import MemoryConversationStore
from tests.core.fakes import EchoAgent, PlainSynthesizer, ScriptedClassifier

KEY = ConversationKey(platform="test", channel="C1", thread="T1")


def make(classifier=None, agent=None, **settings) -> Coordinator:
    agents = {intent: EchoAgent(intent.value) for intent in Intent}
    if agent is not None:
        agents[Intent.CHAT] = agent
    return Coordinator(
        store=MemoryConversationStore(),
        classifier=classifier or ScriptedClassifier(),
        agents=agents,
        synthesizer=PlainSynthesizer(),
        settings=CoreSettings(**settings),
    )


async def test_turn_flows_and_is_remembered() -> None:
    classifier = ScriptedClassifier()
    coord = make(classifier)
    sink = CollectingSink()
    reply = await coord.handle(IncomingMessage(key=KEY, text="hello"), sink)
    assert reply.markdown == "chat: hello" and reply.intent is Intent.CHAT
    assert reply.conversation_id == KEY.conversation_id
    assert sink.logs() == ["chat working"] and isinstance(sink.events[-1], DoneEvent)
    for text in ["two", "three", "four"]:
        await coord.handle(IncomingMessage(key=KEY, text=text))
    # the classifier never sees more than the last 3 messages
    assert max(len(h) for h in classifier.seen_history) == 3
    conv = await coord.store.get(KEY.conversation_id)
    assert len(conv.messages) == 8


async def test_empty_and_whitespace_messages_get_a_friendly_reply() -> None:
    coord = make()
    for text in ["", "   ", "\x00\x01"]:
        reply = await coord.handle(IncomingMessage(key=KEY, text=text))
        assert reply.error == "empty_message" and "didn't catch" in reply.markdown
    assert await coord.store.get(KEY.conversation_id) is None  # nothing stored


async def test_huge_message_is_cut_and_said_so() -> None:
    coord = make(max_message_chars=100)
    reply = await coord.handle(IncomingMessage(key=KEY, text="x" * 40_000))
    assert "first 100 characters" in reply.markdown


def test_clean_text_strips_control_characters_keeps_unicode() -> None:
    assert clean_text("héllo\x07 wörld 👋 مرحبا", 100) == ("héllo  wörld 👋 مرحبا", False)


async def test_agent_errors_become_friendly_replies() -> None:
    coord = make(agent=EchoAgent(fail=RepoNotFound("a/b")))
    reply = await coord.handle(IncomingMessage(key=KEY, text="x"))
    assert "couldn't find a/b" in reply.markdown and reply.error == "repo_not_found"
    coord = make(agent=EchoAgent(fail=ZeroDivisionError()))
    reply = await coord.handle(IncomingMessage(key=KEY, text="x"))
    assert reply.error == "internal" and "ZeroDivision" not in reply.markdown


async def test_agent_timeout() -> None:
    coord = make(agent=EchoAgent(delay=5), agent_timeout_seconds=0.05)
    reply = await coord.handle(IncomingMessage(key=KEY, text="x"))
    assert reply.error == "timeout"


async def test_turns_in_one_thread_are_serialized_and_none_is_lost() -> None:
    coord = make(agent=EchoAgent(delay=0.01))
    await asyncio.gather(*(coord.handle(IncomingMessage(key=KEY, text=str(i))) for i in range(10)))
    conv = await coord.store.get(KEY.conversation_id)
    assert len(conv.messages) == 20


async def test_duplicate_events_are_answered_once() -> None:
    service = BotService(make())
    first = await service.handle_message(IncomingMessage(key=KEY, text="hi", delivery_id="Ev1"))
    again = await service.handle_message(IncomingMessage(key=KEY, text="hi", delivery_id="Ev1"))
    assert not first.duplicate and again.duplicate and again.markdown == ""


def test_clean_text_drops_terminal_escape_sequences_whole() -> None:
    assert clean_text("find \x1b[31mred\x1b[0m react libs", 100) == ("find red react libs", False)
    assert clean_text("\x1b]0;title\x07hello", 100) == ("hello", False)
