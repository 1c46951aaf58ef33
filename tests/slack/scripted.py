"""A small scripted core for the Slack tests and benchmark: the real ``BotService`` and
``Coordinator`` around a scripted classifier, agents that report progress, a synthesizer, and a
research handler with requester-only, versioned plans (no ``mock.patch``: injected pieces)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.app import BotApp
from core.agents.base import AgentContext, AgentResult
from core.errors import NotAllowed, StaleAction
from core.models import (
    Action,
    ActionClick,
    ActionKind,
    Classification,
    ConversationKey,
    DimensionScores,
    IncomingMessage,
    Intent,
    LogEvent,
    Message,
    ProgressSink,
    RepoCard,
    RepoCardsSection,
    Reply,
    RepoList,
    ScoredRepository,
    TextEvent,
    TextSection,
)
from core.research.goal import split_mode_flags
from core.synth.base import Synthesis, SynthesisContext
from tests.fakes.scripted_app import scripted_bot_app

LONG_ANSWER_CHARS = 13_000


class ScriptedClassifier:
    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        words = message.lower()
        if words.startswith(("find", "search")):
            return Classification(intent=Intent.SEARCH, confidence=0.95, reasoning="find")
        return Classification(intent=Intent.CHAT, confidence=0.9, reasoning="chat")


@dataclass
class SearchAgent:
    step_delay: float = 0.0
    extra_steps: int = 0  # more progress events, for pacing benchmarks
    name: str = "search"

    async def run(self, ctx: AgentContext) -> AgentResult:
        await ctx.progress(LogEvent(content=f"Searching GitHub for {ctx.message[5:]}"))
        await asyncio.sleep(self.step_delay)
        for page in range(1, self.extra_steps + 1):
            await ctx.progress(LogEvent(content=f"Reading result page {page}"))
            await asyncio.sleep(self.step_delay)
        await ctx.progress(LogEvent(content="Scoring 2 candidates"))
        await asyncio.sleep(self.step_delay)
        items = [
            ScoredRepository(full_name="pmndrs/zustand", stars=45_300, language="TypeScript",
                             why="Small and fast.", scores=DimensionScores(overall=8.4)),
            ScoredRepository(full_name="pmndrs/jotai", stars=18_200, language="TypeScript",
                             why="Atomic state.", scores=DimensionScores(overall=7.9)),
        ]
        return AgentResult(data=RepoList(items=items), text="Found 2 repositories.")


@dataclass
class ChatAgent:
    name: str = "chat"
    seen: list[str] = field(default_factory=list)

    async def run(self, ctx: AgentContext) -> AgentResult:
        self.seen.append(ctx.message)
        if "long answer" in ctx.message:
            await ctx.progress(TextEvent(delta="Writing a long answer…"))
            paragraph = "This paragraph is part of a deliberately long answer. " * 9
            paragraphs = [f"{n}. {paragraph}" for n in range(LONG_ANSWER_CHARS // len(paragraph) + 1)]
            return AgentResult(text="\n\n".join(paragraphs))
        turns = len(ctx.conversation.messages) // 2
        return AgentResult(text=f"You said: {ctx.message} (turn {turns + 1})")


class ScriptedSynthesizer:
    def synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        if isinstance(result.data, RepoList):
            cards = [
                RepoCard(position=n, full_name=r.full_name, html_url=r.html_url, stars=r.stars,
                         language=r.language, overall=r.scores.overall, facts=f"{r.stars} stars",
                         why=r.why)
                for n, r in enumerate(result.data.items, 1)
            ]
            document = [TextSection(markdown=result.text or ""), RepoCardsSection(title="", cards=cards)]
            return Synthesis(document=document, data=result.data, suggestions=["compare the first two"])
        return Synthesis(markdown=result.text or "", suggestions=[])


@dataclass
class Session:
    requester: str
    version: int = 1
    decided: str | None = None


class FakeResearch:
    """Plans need approval by their requester; a click carries ``<session>:<version>``."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}
        self.decisions: list[tuple[str, str]] = []

    async def start(self, goal: str, *, key: ConversationKey, requester: str, mode: str | None,
                    progress: ProgressSink) -> Reply:
        goal, flag = split_mode_flags(goal)  # as the real orchestrator reads the goal
        mode = mode or (flag.value if flag else None)
        sid = f"s{len(self.sessions) + 1}"
        self.sessions[sid] = Session(requester)
        await progress(LogEvent(content="Planning the research"))
        value = f"{sid}:1"
        return Reply(
            conversation_id=key.conversation_id,
            markdown=f"**Research plan** for *{goal}* (mode: {mode or 'auto'})\n1. Search GitHub",
            actions=[Action(kind=ActionKind.APPROVE, label="Approve", value=value),
                     Action(kind=ActionKind.REVISE, label="Revise", value=value),
                     Action(kind=ActionKind.CANCEL, label="Cancel", value=value)],
        )

    async def decide(self, click: ActionClick, progress: ProgressSink) -> Reply:
        sid, version = click.value.split(":")
        session = self.sessions[sid]
        cid = click.key.conversation_id
        if click.user != session.requester:
            return Reply(conversation_id=cid, markdown=NotAllowed().user_message, error="not_allowed")
        if session.decided or int(version) != session.version:
            return Reply(conversation_id=cid, markdown=StaleAction().user_message, error="stale")
        session.decided = click.kind.value
        self.decisions.append((click.user, click.kind.value))
        if click.kind is ActionKind.APPROVE:
            await progress(LogEvent(content="Executing step 1: Search GitHub"))
            return Reply(conversation_id=cid, markdown="## Report\nZustand is the pick.")
        return Reply(conversation_id=cid, markdown=f"Plan {click.kind.value}d.")

    async def take_feedback(self, incoming: IncomingMessage, progress: ProgressSink) -> Reply | None:
        return None  # a Revise click here decides at once: no feedback is awaited


def build_bot_app(*, step_delay: float = 0.0, extra_steps: int = 0) -> BotApp:
    chat = ChatAgent()
    agents = {Intent.SEARCH: SearchAgent(step_delay, extra_steps), Intent.CHAT: chat,
              Intent.ANALYZE: chat, Intent.COMPARE: chat, Intent.CLARIFY: chat}
    return scripted_bot_app(classifier=ScriptedClassifier(), agents=agents,
                            synthesizer=ScriptedSynthesizer(), research=FakeResearch())
