"""The Clarifier: one question plus options the user can pick (sent back as typed messages).

The classifier knows best what was ambiguous, so its ``clarify_question`` / ``clarify_options``
win (an out-of-range "the sixth one" comes with the names from the last results). Otherwise the
question follows the intent we were unsure about (``original_intent``) and the thread's last
results, and every option is a complete message ("Analyze pmndrs/zustand").
"""

from __future__ import annotations

import re
from itertools import combinations

from core.agents.base import AgentContext, AgentResult
from core.models import Clarification, Classification, Intent, RepoList, StructuredData, structured_repo_names

FALLBACK_QUESTION = "I'm having trouble understanding. Could you rephrase?"
MAX_OPTIONS = 5
STARTERS = ["Find React state management libraries", "Find Python web frameworks", "What can you do?"]
_ORDINAL = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|last"
    r"|\d+(st|nd|rd|th)|number \d+)\b|#\d+",
    re.IGNORECASE,
)


def _analyze(names: list[str]) -> list[str]:
    return [f"Analyze {n}" for n in names[:MAX_OPTIONS]]


def _compare(names: list[str]) -> list[str]:
    return [f"Compare {a} vs {b}" for a, b in combinations(names[:4], 2)][:MAX_OPTIONS - 1]


def _search_options(previous: StructuredData | None) -> list[str]:
    if isinstance(previous, RepoList) and previous.items:
        languages = [r.language for r in previous.items if r.language]
        refine = [f"Refine search: {languages[0]}"] if languages else []
        return ["Show me more results", *refine, *STARTERS[:2]]
    return [
        "Find React state management libraries",
        "Find Python web frameworks",
        "Find Rust command-line tools",
    ]


class Clarifier:
    name = "clarifier"

    async def run(self, ctx: AgentContext) -> AgentResult:
        return AgentResult(data=self.clarify(ctx.message, ctx.classification, ctx.previous))

    def clarify(
        self, message: str, classification: Classification, previous: StructuredData | None
    ) -> Clarification:
        names = structured_repo_names(previous)
        if classification.source == "fallback":
            options = (_analyze(names[:2]) + STARTERS)[:MAX_OPTIONS]
            return Clarification(question=FALLBACK_QUESTION, options=options)
        if classification.clarify_question or classification.clarify_options:
            options = [o for o in classification.clarify_options if o.strip()] or self._options(
                message, classification, names, previous
            )
            question = classification.clarify_question or "Which of these do you mean?"
            return Clarification(question=question, options=options[: MAX_OPTIONS + 3])
        return Clarification(
            question=self._question(message, classification, names),
            options=self._options(message, classification, names, previous),
        )

    def _question(self, message: str, c: Classification, names: list[str]) -> str:
        intent = c.original_intent
        if names and _ORDINAL.search(message) and intent in (None, Intent.ANALYZE, Intent.COMPARE):
            shown = f"I showed {len(names)} {'result' if len(names) == 1 else 'results'} last time"
            return f"{shown}, so I'm not sure which one you mean. Which one would you like?"
        if intent is Intent.SEARCH:
            return "What kind of repositories are you looking for?"
        if intent is Intent.ANALYZE:
            if len(c.repos) > 1:
                return "Several repositories match that name. Which one do you mean?"
            if names:
                return "Which repository would you like me to analyze?"
            return (
                "Which repository would you like me to analyze? "
                "Its owner/name works best, like pmndrs/zustand."
            )
        if intent is Intent.COMPARE:
            if names:
                return "Which repositories would you like me to compare?"
            return "Which repositories would you like me to compare? Name two or more, like zustand vs redux."
        if intent is Intent.CHAT:
            return "Could you tell me a bit more about what you need?"
        if names:
            return "Which of these would you like to know more about?"
        return "I'm not sure what you'd like to know more about. What are you looking for?"

    def _options(
        self, message: str, c: Classification, names: list[str], previous: StructuredData | None
    ) -> list[str]:
        intent = c.original_intent
        if intent is Intent.COMPARE:
            return _compare(c.repos or names) or ["Compare zustand vs redux", "Compare fastapi vs flask"]
        if intent is Intent.ANALYZE or (names and _ORDINAL.search(message) and intent is None):
            return _analyze(c.repos or names) or ["Analyze pmndrs/zustand", "Analyze fastapi/fastapi"]
        if intent is Intent.SEARCH:
            return _search_options(previous)
        if names:
            extra = ["Show me more results"] if isinstance(previous, RepoList) else []
            return _analyze(names[:3]) + extra
        return ["Find React state management libraries", "What can you do?"]
