"""What shape of answer a research goal asks for: a migration verdict, a pick, a fact or an overview.

"Should we migrate from Redux to Zustand?" wants *migrate / stay / it depends*; "best feature flag
service for a small team" wants a ranked pick; "latest release of FastAPI" and "does Vite support
SSR?" want a fact (or a plain "the sources can't tell"); anything else gets an overview that still
opens with a direct summary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from core.analysis.need import Need, extract_need
from core.research.queries import STOPWORDS, alternatives, keywords, repo_names, technologies


class Shape(StrEnum):
    MIGRATE = "migrate"
    PICK = "pick"
    FACT = "fact"
    OVERVIEW = "overview"


class FactKind(StrEnum):
    RELEASE = "release"
    SUPPORT = "support"
    MAINTAINED = "maintained"


_NAME = r"([\w.+#-]+(?:\s+[\w.+#-]+)?)"
_MIGRATE = (
    re.compile(r"\b(?:migrat\w*|switch\w*|mov(?:e|ing)|port(?:ing)?|transition\w*|upgrad\w*)\b.*?"
               r"\bfrom ([\w.+#-]+) to ([\w.+#-]+)", re.I),
    re.compile(r"\breplac\w* ([\w.+#-]+) with ([\w.+#-]+)", re.I),
    re.compile(r"\b(?:should|shall|could) (?:we|i|our \w+)\b.*?\bfrom ([\w.+#-]+) to ([\w.+#-]+)", re.I),
    re.compile(r"\b([\w.+#-]+) to ([\w.+#-]+) migration\b", re.I),
)
_PICK = re.compile(
    r"\b(which|best|recommend\w*|top \d+|what (?:\w+ )?should (?:we|i) use|choose|choosing|pick|"
    r"go-to|good choice|vs\.?|versus|or)\b",
    re.I,
)
_RELEASE = re.compile(r"\b(?:latest|newest|current|last|recent)\s+(?:stable\s+)?(?:release|version)\b|"
                      r"\bversion of\b|\bwhen was .* released\b|\bchangelog\b", re.I)
_SUPPORT = re.compile(r"\b(?:does|do|can|is)\s+" + _NAME + r"\s+(?:support|supports|have|has|work with|"
                      r"handle|run on|compatible with)\s+(.+?)[?.!]*$", re.I)
_MAINTAINED = re.compile(r"\b(?:still\s+)?(?:maintained|alive|active|abandoned|dead)\b", re.I)


@dataclass(frozen=True, slots=True)
class Question:
    shape: Shape
    subjects: list[str] = field(default_factory=list)  # lower-case names: ["redux", "zustand"]
    need: Need | None = None  # "for a small team"
    fact: FactKind | None = None
    feature: str | None = None  # SUPPORT: what the subject should support ("ssr")
    text: str = ""  # the goal as asked

    def shown(self, word: str) -> str:
        """``word`` as the user wrote it ("vitest" -> "Vitest")."""
        match = re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", self.text, re.I)
        return match.group(0) if match else word

    @property
    def current(self) -> str | None:
        """MIGRATE: what the team uses now."""
        return self.subjects[0] if self.shape is Shape.MIGRATE and self.subjects else None

    @property
    def target(self) -> str | None:
        """MIGRATE: what it would move to."""
        return self.subjects[1] if self.shape is Shape.MIGRATE and len(self.subjects) > 1 else None


def _word(text: str) -> str:
    return text.strip(" .,?!:;\"'").lower()


def read_question(goal: str) -> Question:
    """The answer shape ``goal`` asks for, with its subjects and the stated need."""
    need = extract_need(goal)
    for pattern in _MIGRATE:
        match = pattern.search(goal)
        if match:
            pair = [_word(g) for g in match.groups()]
            if all(w and w not in STOPWORDS for w in pair) and pair[0] != pair[1]:
                return Question(Shape.MIGRATE, pair, need, text=goal)
    support = _SUPPORT.search(goal)
    if support:
        subject = _word(support.group(1).split()[-1])
        return Question(Shape.FACT, [subject], need, FactKind.SUPPORT, _word(support.group(2)), text=goal)
    named = repo_names(goal) or technologies(goal) or keywords(goal, limit=1)
    if _RELEASE.search(goal):
        return Question(Shape.FACT, named[:1], need, FactKind.RELEASE, text=goal)
    if _MAINTAINED.search(goal) and re.match(r"\s*(?:is|are|has|have)\b", goal, re.I):
        return Question(Shape.FACT, named[:1], need, FactKind.MAINTAINED, text=goal)
    options = alternatives(goal)
    if _PICK.search(goal):
        return Question(Shape.PICK, options if len(options) >= 2 else [], need, text=goal)
    return Question(Shape.OVERVIEW, named[:3], need, text=goal)
