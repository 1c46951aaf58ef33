"""Tiny scripted stand-ins for the coordinator's collaborators (protocol implementations)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from core.agents.base import AgentContext, AgentResult
from core.models import Classification, Intent, LogEvent, Message
from core.synth.base import Synthesis, SynthesisContext


class ScriptedClassifier:
    def __init__(self, intent: Intent = Intent.CHAT, confidence: float = 0.9) -> None:
        self.intent = intent
        self.confidence = confidence
        self.seen_history: list[Sequence[Message]] = []

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        self.seen_history.append(list(history))
        return Classification(intent=self.intent, confidence=self.confidence, reasoning="scripted")


class EchoAgent:
    def __init__(self, name: str = "echo", *, delay: float = 0.0, fail: Exception | None = None):
        self.name = name
        self.delay = delay
        self.fail = fail

    async def run(self, ctx: AgentContext) -> AgentResult:
        await ctx.progress(LogEvent(content=f"{self.name} working"))
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.fail:
            raise self.fail
        return AgentResult(text=f"{self.name}: {ctx.message}")


class PlainSynthesizer:
    def synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        if result.error:
            return Synthesis(markdown=result.error, error_code=result.error_code)
        return Synthesis(markdown=result.text or "", suggestions=["What can you do?"], data=result.data)
