"""Whole turns through the real Coordinator: agents -> DefaultSynthesizer -> Reply (and memory).

The classifier and the data agents are scripted stand-ins (injected, no patching); the
Companion, the Clarifier and the synthesizer are the real ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.agents.base import AgentContext, AgentResult
from core.agents.clarifier import Clarifier
from core.agents.companion import Companion
from core.coordinator import Coordinator
from core.models import (
    ActionKind,
    Classification,
    ConversationKey,
    IncomingMessage,
    Intent,
    Message,
)
from core.store import MemoryConversationStore
from core.synth import DefaultSynthesizer
from tests.synth.factories import NOW, comparison, repo_detail, repo_list

KEY = ConversationKey(platform="test", channel="C1", thread="T1")
SCRIPT = {
    "find react state management libraries": Classification(intent=Intent.SEARCH, confidence=0.95),
    "analyze the second one": Classification(intent=Intent.ANALYZE, confidence=0.93, repos=["reduxjs/redux"]),
    "compare the first two": Classification(intent=Intent.COMPARE, confidence=0.92,
                                            repos=["pmndrs/zustand", "reduxjs/redux"]),
    "thanks": Classification(intent=Intent.CHAT, confidence=0.97),
    "tell me more": Classification(intent=Intent.CLARIFY, confidence=0.5),
    "what can you do?": Classification(intent=Intent.CHAT, confidence=0.96),
}


class ScriptClassifier:
    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        return SCRIPT[message]


class DataAgent:
    def __init__(self, name: str, make) -> None:
        self.name = name
        self.make = make

    async def run(self, ctx: AgentContext) -> AgentResult:
        return AgentResult(data=self.make(ctx))


def coordinator() -> Coordinator:
    return Coordinator(
        store=MemoryConversationStore(),
        classifier=ScriptClassifier(),
        agents={
            Intent.SEARCH: DataAgent("search", lambda ctx: repo_list(12)),
            Intent.ANALYZE: DataAgent("auditor", lambda ctx: repo_detail(1)),
            Intent.COMPARE: DataAgent("comparator", lambda ctx: comparison(2)),
            Intent.CHAT: Companion(),
            Intent.CLARIFY: Clarifier(),
        },
        synthesizer=DefaultSynthesizer(clock=lambda: NOW),
    )


async def say(coord: Coordinator, text: str, key: ConversationKey = KEY):
    return await coord.handle(IncomingMessage(key=key, text=text))


async def test_a_conversation_reads_well_end_to_end() -> None:
    coord = coordinator()
    search = await say(coord, "find react state management libraries")
    assert "I found **12 repositories**" in search.markdown
    assert len(search.structured_data.items) == 10
    assert [a.label for a in search.actions][:3] == [
        "Analyze pmndrs/zustand", "Analyze reduxjs/redux", "Compare pmndrs/zustand vs reduxjs/redux"
    ]
    assert search.footer is None and "offline snapshot" in search.markdown  # said once, in the text

    detail = await say(coord, "analyze the second one")
    assert detail.markdown.startswith("_Following up on the React state management repositories we found..._")
    assert "## reduxjs/redux" in detail.markdown

    compared = await say(coord, "compare the first two")
    assert "### Key differences" in compared.markdown

    thanks = await say(coord, "thanks")
    assert thanks.markdown.startswith("You're welcome!")
    assert "pmndrs/zustand" in thanks.markdown  # points back at the latest results

    help_reply = await say(coord, "what can you do?")
    assert "**Research**" in help_reply.markdown

    conversation = await coord.store.get(KEY.conversation_id)
    stored = conversation.messages[1].structured_data
    assert len(stored.items) == 10  # the thread keeps what the user saw


async def test_tell_me_more_with_no_context_asks_with_options() -> None:
    reply = await say(coordinator(), "tell me more")
    assert "I'm not sure what you'd like to know more about" in reply.markdown
    assert [a.kind for a in reply.actions[:2]] == [ActionKind.OPTION, ActionKind.OPTION]
    assert [a.label for a in reply.actions] == [
        "Find React state management libraries", "What can you do?", "Start a new search"
    ]
