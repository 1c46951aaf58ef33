"""A small scripted core for the Discord scenarios: the real ``BotService`` + ``Coordinator``
around a keyword classifier, agents that report progress, a plain synthesizer, and a research
handler with requester-only, versioned plans (the refusal codes core.research documents)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.app import BotApp
from core.agents.base import AgentContext, AgentResult
from core.models import (
    Action,
    ActionClick,
    ActionKind,
    ChoicesSection,
    Clarification,
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
    TextSection,
)
from core.synth.base import Synthesis, SynthesisContext
from tests.fakes.scripted_app import scripted_bot_app

LONG_ANSWER_CHARS = 9_000
LONG_SUGGESTION = (
    "Compare pmndrs/zustand vs pmndrs/jotai for a large team that cares about documentation, "
    "TypeScript types and long-term maintenance"
)
LONG_OPTION = (
    "Search for state management libraries that work with React Server Components and have "
    "more than ten thousand stars"
)
EVIL_DESCRIPTION = "Bear necessities @everyone <@&123> **bold** [phish](https://evil.example)"


class ScriptedClassifier:
    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        words = message.lower()
        for prefix, intent in (("find", Intent.SEARCH), ("search", Intent.SEARCH),
                               ("analyze", Intent.ANALYZE), ("compare", Intent.COMPARE)):
            if words.startswith(prefix):
                return Classification(intent=intent, confidence=0.95, reasoning=prefix)
        if "unclear" in words:
            return Classification(intent=Intent.CLARIFY, confidence=0.4, reasoning="unclear")
        return Classification(intent=Intent.CHAT, confidence=0.9, reasoning="chat")


@dataclass
class SearchAgent:
    step_delay: float = 0.0
    name: str = "search"

    async def run(self, ctx: AgentContext) -> AgentResult:
        for step in (f"Searching GitHub for {ctx.message}", "Scoring 2 candidates", "Ranking"):
            await ctx.progress(LogEvent(content=step))
            await asyncio.sleep(self.step_delay)
        items = [
            ScoredRepository(full_name="pmndrs/zustand", stars=45_300, language="TypeScript",
                             description=EVIL_DESCRIPTION, why="Small and fast.",
                             scores=DimensionScores(overall=8.4)),
            ScoredRepository(full_name="pmndrs/jotai", stars=18_200, language="TypeScript",
                             why="Atomic state.", scores=DimensionScores(overall=7.9)),
        ]
        return AgentResult(data=RepoList(items=items), text="Found 2 repositories.")


@dataclass
class ChatAgent:
    name: str = "chat"

    burst_events: int = 40
    burst_seconds: float = 2.4

    async def run(self, ctx: AgentContext) -> AgentResult:
        if ctx.message.lower().startswith("long"):
            return AgentResult(text=long_answer())
        if ctx.message.lower().startswith("burst"):  # many progress events in a short time
            for i in range(1, self.burst_events + 1):
                await ctx.progress(LogEvent(content=f"Step {i} of {self.burst_events}"))
                await asyncio.sleep(self.burst_seconds / self.burst_events)
        return AgentResult(text=f"You said: {ctx.message}")


@dataclass
class ClarifyAgent:
    name: str = "clarify"

    async def run(self, ctx: AgentContext) -> AgentResult:
        return AgentResult(data=Clarification(
            question="Did you mean one of these?", options=["Find react state libraries", LONG_OPTION]))


def long_answer() -> str:
    table = "| Repo | Stars |\n|---|---|\n| pmndrs/zustand | 45k |\n| pmndrs/jotai | 18k |"
    code = "```python\n" + "\n".join(f"print({i})" for i in range(40)) + "\n```"
    body = "\n\n".join(f"Paragraph {i}: " + "lorem ipsum dolor sit amet " * 12 for i in range(40))
    text = f"## A long answer\n\n{table}\n\n{code}\n\n{body}"
    return text[:LONG_ANSWER_CHARS]


class PlainSynthesizer:
    def synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        if isinstance(result.data, RepoList):
            cards = [RepoCard(position=i, full_name=r.full_name, html_url=r.html_url, stars=r.stars,
                              language=r.language, facts=f"{r.stars} stars", description=r.description,
                              why=r.why)
                     for i, r in enumerate(result.data.items, 1)]
            document = [TextSection(markdown=f"Found **{len(cards)}** repositories."),
                        RepoCardsSection(title="", cards=cards), TextSection(markdown="Want more?")]
            return Synthesis(document=document, data=result.data, suggestions=[
                "Analyze pmndrs/zustand", "Compare pmndrs/zustand vs pmndrs/jotai", LONG_SUGGESTION])
        if isinstance(result.data, Clarification):
            document = [TextSection(markdown=result.data.question),
                        ChoicesSection(options=result.data.options)]
            return Synthesis(document=document, data=result.data, suggestions=["Start a new search"])
        return Synthesis(markdown=result.text or "", suggestions=["What can you do?"])


@dataclass
class _Session:
    requester: str
    version: int = 1
    status: str = "review"


@dataclass
class ScriptedResearch:
    """Deep plans wait for the requester's decision; refusals come back as error replies."""

    step_delay: float = 0.0
    sessions: dict[str, _Session] = field(default_factory=dict)
    decisions: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, user, value)

    async def start(self, goal: str, *, key: ConversationKey, requester: str, mode: str | None,
                    progress: ProgressSink) -> Reply:
        sid = f"sess{len(self.sessions) + 1}"
        self.sessions[sid] = _Session(requester=requester)
        await progress(LogEvent(content="Planning the research"))
        return self._plan(sid, key, goal)

    def _plan(self, sid: str, key: ConversationKey, goal: str = "the goal") -> Reply:
        value = f"{sid}:{self.sessions[sid].version}"
        return Reply(
            conversation_id=key.conversation_id,
            markdown=(f"**Research plan** v{self.sessions[sid].version} for *{goal}*\n\n"
                      "1. Search\n2. Compare"),
            actions=[Action(kind=ActionKind.APPROVE, label="Approve", value=value, style="primary"),
                     Action(kind=ActionKind.REVISE, label="Revise", value=value),
                     Action(kind=ActionKind.CANCEL, label="Cancel", value=value, style="danger")],
            footer=f"Research session {sid}",
        )

    async def decide(self, click: ActionClick, progress: ProgressSink) -> Reply:
        cid = click.key.conversation_id
        self.decisions.append((click.kind.value, click.user, click.value))
        sid, version, *feedback = click.value.split(":", 2)
        session = self.sessions.get(sid)
        if session is None:
            return Reply(conversation_id=cid, markdown="No such research.", error="not_found")
        if click.user != session.requester:
            return Reply(conversation_id=cid, error="not_allowed",
                         markdown="Only the person who started this research can decide on its plan.")
        if session.status != "review" or int(version) != session.version:
            return Reply(conversation_id=cid, error="stale",
                         markdown="This plan was already decided; use the buttons on the latest plan.")
        if click.kind is ActionKind.APPROVE:
            session.status = "running"
            await progress(LogEvent(content=f"Plan approved by {click.user}: running 2 steps."))
            await asyncio.sleep(self.step_delay)
            await progress(LogEvent(content="Step 2 of 2: comparing"))
            await asyncio.sleep(self.step_delay)
            session.status = "done"
            return Reply(conversation_id=cid, markdown="## Research report\n\nzustand wins.",
                         footer=f"Research session {sid}")
        if click.kind is ActionKind.REVISE and feedback:
            await progress(LogEvent(content="Revising the plan with your feedback…"))
            session.version += 1
            return self._plan(sid, click.key, f"revised: {feedback[0]}")
        if click.kind is ActionKind.CANCEL:
            session.status = "cancelled"
            return Reply(conversation_id=cid, markdown=f"Research cancelled by {click.user}.")
        return Reply(conversation_id=cid, markdown="What should change in the plan?")

    async def take_feedback(self, incoming: IncomingMessage, progress: ProgressSink) -> Reply | None:
        return None  # feedback arrives inline, from the Revise form


def build_bot_app(*, step_delay: float = 0.0, research: ScriptedResearch | None = None) -> BotApp:
    agents = {
        Intent.SEARCH: SearchAgent(step_delay=step_delay), Intent.ANALYZE: ChatAgent(),
        Intent.COMPARE: ChatAgent(), Intent.CHAT: ChatAgent(), Intent.CLARIFY: ClarifyAgent(),
    }
    return scripted_bot_app(classifier=ScriptedClassifier(), agents=agents,
                            synthesizer=PlainSynthesizer(),
                            research=research or ScriptedResearch(step_delay=step_delay))
