"""The intent classifier as a cascade: the local model answers when it is confident, the LLM
(DeepSeek V3 by default) only when it is not.

    local verdict confident  -> the local verdict                         (classify.local)
    (message, context) seen  -> the cached LLM verdict                    (classify.cache_hit)
    otherwise                -> the LLM, with the seeds' prompt shape     (classify.escalated)
        LLM timeout (5 s)    -> clarify, source="fallback": the Clarifier says
                                "I'm having trouble understanding. Could you rephrase?"
        any other LLM error  -> the local verdict (bad JSON, 5xx, breaker open, budget spent)

Reference resolution stays local and deterministic: the LLM only names the intent; ``repos``,
``search_params`` and the clarifying question come from the local verdict. The LLM's confidence
goes through the same threshold (below it: clarify, keeping ``original_intent``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from core.classifier.base import IntentClassifier
from core.errors import LLMError, LLMTimeout
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.models import Classification, Intent, Message, structured_repo_names

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


def default_needs_llm(min_confidence: float) -> Callable[[Classification], bool]:
    """Escalate when the local verdict is unsure: low confidence, or it was routed to clarify
    because of low confidence or ambiguity (``original_intent`` set) -- unless the local resolver
    already knows exactly what to ask (an out-of-range reference, several repos with one name)."""

    def needs_llm(local: Classification) -> bool:
        if local.clarify_question or local.clarify_options:
            return False
        return local.confidence < min_confidence or local.original_intent is not None

    return needs_llm


class CascadeClassifier:
    """An ``IntentClassifier``: ``local`` first, ``client`` when ``needs_llm(local verdict)``."""

    def __init__(
        self,
        local: IntentClassifier,
        client: LLMClient | None,
        *,
        threshold: float = 0.7,
        min_confidence: float = 0.75,
        needs_llm: Callable[[Classification], bool] | None = None,
        timeout: float = 5.0,
        cache_size: int = 512,
    ) -> None:
        self.local = local
        self.client = client
        self.threshold = threshold
        self.needs_llm = needs_llm or default_needs_llm(min_confidence)
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

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        local = await self.local.classify(message, history)
        if self.client is None or not self.needs_llm(local):
            self.local_count += 1
            if self.client is not None:
                self.client.metrics.incr("classify", "local")
            return local
        self.escalated_count += 1
        metrics = self.client.metrics
        metrics.incr("classify", "escalated")
        key = cache_key(message, history)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            metrics.incr("classify", "cache_hit")
            return self._merge(local, cached, source="cache")
        request = StructuredRequest(
            task="classify",
            messages=[system(SYSTEM_PROMPT), user(render_context(message, history))],
            schema=LLMVerdict,
            timeout=self.timeout,
            max_output_tokens=200,
        )
        try:
            verdict = (await self.client.run(request)).output
        except LLMTimeout:
            return self._timed_out(local)
        except LLMError as exc:
            log.info("classification falls back to the local verdict",
                     extra={"error": type(exc).__name__, "intent": local.intent.value})
            return local
        self._remember(key, verdict)
        return self._merge(local, verdict, source="llm")

    def _merge(self, local: Classification, verdict: LLMVerdict, *, source: str) -> Classification:
        intent = Intent(verdict.intent)
        merged = local.model_copy(deep=True)
        merged.confidence = verdict.confidence
        merged.reasoning = verdict.reasoning.strip()[:300]
        merged.source = source
        if verdict.confidence < self.threshold and intent is not Intent.CLARIFY:
            merged.intent, merged.original_intent = Intent.CLARIFY, intent
        else:
            merged.intent = intent
            unsure_of = local.original_intent or (local.intent if local.intent is not Intent.CLARIFY else None)
            merged.original_intent = unsure_of if intent is Intent.CLARIFY else None
        if merged.intent is not Intent.CLARIFY:
            merged.clarify_question, merged.clarify_options = None, []
        return merged

    def _timed_out(self, local: Classification) -> Classification:
        return Classification(
            intent=Intent.CLARIFY,
            confidence=0.0,
            reasoning="the language model did not answer in time",
            original_intent=local.original_intent or local.intent,
            repos=list(local.repos),
            search_params=local.search_params,
            clarify_question=FALLBACK_QUESTION,
            source="fallback",
        )

    def _remember(self, key: str, verdict: LLMVerdict) -> None:
        if self._cache_size <= 0:
            return
        self._cache[key] = verdict
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
        lines.append(f"{previous.type}: {listed or getattr(previous, 'question', '')}")
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
