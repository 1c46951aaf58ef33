"""The intent classifier as a cascade: the local model answers when it is confident, the LLM
(DeepSeek V3 by default) only when it is not.

    local verdict sure       -> the local decision                         (classify.local)
    (message, context) seen  -> the cached LLM intent                      (classify.cache_hit)
    otherwise                -> the LLM, with the seeds' prompt shape      (classify.escalated)
        LLM timeout (5 s)    -> clarify, source="fallback": the Clarifier says
                                "I'm having trouble understanding. Could you rephrase?"
        any other LLM error  -> the local decision (bad JSON, 5xx, breaker open, budget spent)

It wraps the local classifier's two seams (``core.classifier.local``): ``predict`` gives the
probabilities and the top-2 margin; ``decide`` routes an intent picked by anyone (confidence
threshold -> clarify) and resolves references deterministically, so "the second one" is resolved
the same way whether the local model or the LLM named the intent.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from core.classifier.local import LocalVerdict
from core.config import env_float, env_int
from core.errors import LLMError, LLMTimeout
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.models import Clarification, Classification, Intent, Message, structured_repo_names

log = logging.getLogger("omg.llm.classify")

FALLBACK_QUESTION = "I'm having trouble understanding. Could you rephrase?"

SYSTEM_PROMPT = """You are an intent classifier for a GitHub repository discovery system.

Analyze the user's message and classify it into ONE of these intents:

1. "search": User wants to find repositories
   Examples: "find React libraries", "show me Python ML tools", "what about Rust?" after a search
2. "analyze": User wants detailed analysis of a specific repo
   Examples: "analyze Zustand", "what's the code quality of repo X?", "tell me more about the
   second one" after a list of results
3. "compare": User wants to compare multiple repositories
   Examples: "compare Redux vs Zustand", "which is better between X and Y?"
4. "chat": General conversation or acknowledgment
   Examples: "thanks", "hello", "that's helpful", "what can you do?"
5. "clarify": User's intent is ambiguous or needs follow-up
   Examples: "tell me more", "something else" (without context)

Use the conversation context: references such as "it", "the second one" or "what about Python?"
point at the previous messages and structured results.

Return JSON ONLY:
{"intent": "search" | "analyze" | "compare" | "chat" | "clarify",
 "confidence": 0.0-1.0, "reasoning": "brief explanation"}"""


class LLMVerdict(BaseModel):
    intent: Literal["search", "analyze", "compare", "chat", "clarify"]
    confidence: float = Field(ge=0.0, le=1.0)
    reasoning: str = Field(default="", max_length=1000)


class CascadeSettings(BaseModel):
    """When the cascade escalates to the LLM, how long it waits, how many answers it caches."""

    min_confidence: float = 0.75
    min_margin: float = 0.2
    timeout: float = 5.0
    cache_size: int = Field(default=512, ge=0)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "CascadeSettings":
        return cls(
            min_confidence=env_float(env, "LLM_CASCADE_MIN_CONFIDENCE", 0.75),
            min_margin=env_float(env, "LLM_CASCADE_MIN_MARGIN", 0.2),
            timeout=env_float(env, "LLM_CLASSIFY_TIMEOUT", 5.0),
            cache_size=max(0, env_int(env, "LLM_CACHE_SIZE", 512)),
        )


class LocalModel(Protocol):
    """What the cascade needs from the local classifier (``LocalIntentClassifier``)."""

    def predict(self, message: str, history: Sequence[Message] = ()) -> LocalVerdict: ...

    def decide(
        self, message: str, history: Sequence[Message] = (), verdict: LocalVerdict | None = None,
        *, intent: Intent | None = None, confidence: float | None = None,
        runner_up: Intent | None = None, source: str = "local",
    ) -> Classification: ...


class CascadeClassifier:
    """An ``IntentClassifier``: the local model, and ``client`` when the local verdict is unsure
    (confidence below ``min_confidence`` or top-2 margin below ``min_margin``)."""

    def __init__(
        self,
        local: LocalModel,
        client: LLMClient | None,
        *,
        min_confidence: float = 0.75,
        min_margin: float = 0.2,
        timeout: float = 5.0,
        cache_size: int = 512,
    ) -> None:
        self.local = local
        self.client = client
        self.min_confidence = min_confidence
        self.min_margin = min_margin
        self.timeout = timeout
        self._cache: OrderedDict[str, LLMVerdict] = OrderedDict()
        self._cache_size = cache_size
        self.local_count = 0
        self.escalated_count = 0

    @property
    def llm_share(self) -> float:
        """How often a classification went to the LLM (cache hits included)."""
        total = self.local_count + self.escalated_count
        return self.escalated_count / total if total else 0.0

    def needs_llm(self, verdict: LocalVerdict) -> bool:
        return verdict.confidence < self.min_confidence or verdict.margin < self.min_margin

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        verdict = self.local.predict(message, history)
        if self.client is None or not self.needs_llm(verdict):
            self.local_count += 1
            if self.client is not None:
                self.client.metrics.incr("classify", "local")
            return self.local.decide(message, history, verdict)
        self.escalated_count += 1
        metrics = self.client.metrics
        metrics.incr("classify", "escalated")
        key = cache_key(message, history)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            metrics.incr("classify", "cache_hit")
            return self._decide(message, history, verdict, cached, source="cache")
        request = StructuredRequest(
            task="classify",
            messages=[system(SYSTEM_PROMPT), user(render_context(message, history))],
            schema=LLMVerdict,
            timeout=self.timeout,
            max_output_tokens=200,
        )
        try:
            answer = (await self.client.run(request)).output
        except LLMTimeout:
            return self._timed_out(self.local.decide(message, history, verdict))
        except LLMError as exc:
            log.info("classification falls back to the local verdict",
                     extra={"error": type(exc).__name__, "intent": verdict.intent.value})
            return self.local.decide(message, history, verdict)
        self._remember(key, answer)
        return self._decide(message, history, verdict, answer, source="llm")

    def _decide(self, message: str, history: Sequence[Message], verdict: LocalVerdict,
                answer: LLMVerdict, *, source: str) -> Classification:
        intent = Intent(answer.intent)
        runner_up = verdict.intent if verdict.intent is not intent else verdict.runner_up
        result = self.local.decide(message, history, intent=intent, confidence=answer.confidence,
                                   runner_up=runner_up, source=source)
        if answer.reasoning.strip():
            result.reasoning = f"{result.reasoning}; {answer.reasoning.strip()[:200]}"
        return result

    @staticmethod
    def _timed_out(local: Classification) -> Classification:
        return Classification(
            intent=Intent.CLARIFY,
            confidence=0.0,
            reasoning="the language model did not answer in time",
            original_intent=local.original_intent or (
                local.intent if local.intent is not Intent.CLARIFY else None),
            repos=list(local.repos),
            search_params=local.search_params,
            clarify_question=FALLBACK_QUESTION,
            source="fallback",
        )

    def _remember(self, key: str, answer: LLMVerdict) -> None:
        if self._cache_size <= 0:
            return
        self._cache[key] = answer
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


def render_context(message: str, history: Sequence[Message]) -> str:
    """The user turn of the prompt: the message, the last 3 messages, the previous results."""
    lines = [f"User message: {message.strip()[:2000]}", "", "Last 3 messages:"]
    recent = list(history)[-3:]
    if not recent:
        lines.append("(none: this is the first message)")
    for i, m in enumerate(recent, start=1):
        text = " ".join(m.content.split())
        text = text if len(text) <= 300 else text[:300] + "..."
        tag = f" [intent: {m.intent.value}]" if m.intent else ""
        lines.append(f"{i}. {m.role}{tag}: {text}")
    previous = next((m.structured_data for m in reversed(recent) if m.structured_data), None)
    lines += ["", "Previous structured results:"]
    if previous is None:
        lines.append("(none)")
    else:
        names = structured_repo_names(previous)
        listed = "; ".join(f"{i}. {n}" for i, n in enumerate(names[:10], start=1))
        question = previous.question if isinstance(previous, Clarification) else ""
        lines.append(f"{previous.type}: {listed or question}")
    return "\n".join(lines)


def cache_key(message: str, history: Sequence[Message]) -> str:
    """Identical (message, context) pairs share a key; whitespace and case do not matter."""
    context = [
        (m.role, " ".join(m.content.split())[:500], m.intent.value if m.intent else None,
         m.structured_data.type if m.structured_data else None,
         structured_repo_names(m.structured_data)[:10])
        for m in list(history)[-3:]
    ]
    payload = json.dumps([" ".join(message.lower().split()), context], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
