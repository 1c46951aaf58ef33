"""The planner: a concrete ResearchPlan for a goal and a mode (offline, deterministic).

Quick Scan: at most 3 steps, breadth and recent data, 1-2 searches run in parallel.
Deep Probe: landscape -> recent work -> evidence -> opposing views -> cross-verification ->
synthesis. Revisions re-plan from the goal plus *all* feedback so far, so nothing said earlier
is lost. Every plan has a SEARCH step whose queries the executor can run.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Protocol

from pydantic import Field

from core.models import WireModel
from core.models.research import PlanStep, ResearchMode, ResearchPlan, StepType
from core.research.queries import (
    NOT_ARCHIVED, alternatives, excludes_archived, is_technology, language_of, repo_names, since, technologies,
    topic_terms,
)
from core.research.revision import read_revision

QUICK_MAX_STEPS = 3
DEEP_MAX_STEPS = 8

_RECENT = re.compile(r"\b(recent|newer|newest|latest|last (year|months?)|fresh|up[- ]to[- ]date)\b", re.I)
_POPULAR = re.compile(r"\b(popular|mature|established|stable|widely used|battle[- ]tested)\b", re.I)
_NICHE = re.compile(r"\b(niche|emerging|smaller|lesser[- ]known|new(er)? projects|up-and-coming)\b", re.I)


class PlanRequest(WireModel):
    session_id: str
    goal: str
    mode: ResearchMode
    rationale: str
    feedback: list[str] = Field(default_factory=list)  # every revision request, oldest first
    version: int = 1
    today: date | None = None  # for reproducible date qualifiers in tests


class Planner(Protocol):
    async def plan(self, request: PlanRequest, *, timeout: float | None = None) -> ResearchPlan: ...


class _Topic:
    """What the queries are about, after the feedback is applied."""

    def __init__(self, request: PlanRequest) -> None:
        goal = request.goal
        self.repos = repo_names(goal)
        stripped = goal
        for name in self.repos:
            stripped = stripped.replace(name, " ")
        named = [name.split("/", 1)[1].lower() for name in self.repos]
        terms = named + [t for t in topic_terms(stripped) if t not in named]
        feedback = " ".join(request.feedback)
        revision = read_revision(request.feedback)
        self.excluded = revision.excluded
        self.exclude_archived = revision.exclude_archived
        self.requested = revision.added  # the reviewer's own search terms, each searched in the feedback step
        self.added = [t for t in revision.added if t not in terms]
        self.focus = [w for w in revision.focus if w not in terms and w not in self.excluded]
        self.terms = [t for t in terms if t not in self.excluded] or terms[:1]
        self.options, self.phrases = _options(stripped, " ".join(self.added + self.focus), self.excluded)
        self.language = revision.language or language_of(self.terms + self.focus)
        self.recent_days = 90 if _RECENT.search(feedback) else 180
        self.popular = bool(_POPULAR.search(feedback))
        self.niche = bool(_NICHE.search(feedback))
        self.today = request.today

    def main(self, extra: list[str] | None = None) -> str:
        words = self.terms[:3] + (extra or self.focus[:2])
        return " ".join(dict.fromkeys(words))

    def broad(self) -> str:
        return " ".join(self.terms[:2])

    def either(self) -> str | None:
        """``a OR b`` for a comparison goal: each option on its own, not all of them at once."""
        return " OR ".join(self.options[:4]) if len(self.options) >= 2 else None

    def each(self, limit: int = 3) -> list[str]:
        """One query per option ("kotlin multiplatform", "flutter"), so each returns its own results."""
        return self.phrases[:limit] if len(self.options) >= 2 else []

    def context(self) -> list[str]:
        """Feedback words that are not technologies ("bundle size"), to narrow a query."""
        return [w for w in self.focus if w not in self.options][:2]

    def since(self, days: int) -> str:
        return since(days, self.today)

    def describe(self) -> str:
        return " ".join(dict.fromkeys(self.terms[:4] + self.added[:2] + self.focus[:2]))


def _options(goal: str, feedback: str, excluded: set[str]) -> tuple[list[str], list[str]]:
    """The technologies a goal weighs, plus those any feedback names, and a search phrase for each.

    "Kotlin Multiplatform or Flutter" -> options [kotlin, flutter], phrases [kotlin multiplatform, flutter];
    "Rust ... from Go" (no "or"/"vs") -> [rust, go] when two technologies are named.
    """
    found = alternatives(goal)
    named = technologies(goal)
    if len(found) < 2:
        found = named if len(named) >= 2 else []
    options: list[str] = []
    phrases: list[str] = []
    words = [w.strip(".,?!:;").lower() for w in goal.split()]
    for option in found:
        at = words.index(option) if option in words else -1
        before = words[at - 1] if at > 0 else ""
        if before and before not in found and is_technology(before, goal):
            options.append(before)  # "kotlin" of "kotlin multiplatform"
            phrases.append(f"{before} {option}")
        else:
            options.append(option)
            phrases.append(option)
    if options:
        for extra in technologies(feedback):
            if extra not in options:
                options.append(extra)
                phrases.append(extra)
    kept = [(o, p) for o, p in zip(options, phrases) if o not in excluded]
    return list(dict.fromkeys(o for o, _ in kept)), list(dict.fromkeys(p for _, p in kept))


def _with_qualifiers(topic: _Topic, base: str) -> list[str]:
    """Extra queries the feedback asks for (language, popularity, niche)."""
    extra: list[str] = []
    if topic.language and f"language:{topic.language}" not in base and " OR " not in base:
        words = [w for w in base.split() if language_of([w]) is None] or base.split()
        extra.append(f"{' '.join(words)} language:{topic.language}")
    if topic.popular:
        extra.append(f"{base} stars:>1000")
    if topic.niche:
        extra.append(f"{base} stars:10..500 created:>{topic.since(730)}")
    return extra


def _quick_steps(topic: _Topic) -> list[PlanStep]:
    main = topic.either() or topic.main()
    queries = [main, f"{main} pushed:>{topic.since(topic.recent_days)}"]
    extra = _with_qualifiers(topic, main)
    if extra:
        queries[1] = extra[0]  # never more than two parallel searches in a Quick Scan
    subject = ", ".join(topic.repos) if topic.repos else "the top 3 results"
    return [
        PlanStep(step_id=1, type=StepType.SEARCH, purpose="breadth", search_queries=queries,
                 description=f"Search GitHub broadly for {topic.describe()}: two searches in parallel, "
                 "most relevant and recently active."),
        PlanStep(step_id=2, type=StepType.BROWSE, purpose="recent",
                 description=f"Read the README, latest release and issue activity of {subject}."),
        PlanStep(step_id=3, type=StepType.ANALYZE, purpose="summary",
                 description="Summarize a short answer from what was fetched, newest data first."),
    ]


def _deep_steps(topic: _Topic, feedback: list[str]) -> list[PlanStep]:
    main, broad, either = topic.main(), topic.broad(), topic.either()
    if either:
        around = [t for t in topic.terms if t not in topic.options and not is_technology(t)][:1]
        each = [" ".join(dict.fromkeys([*p.split(), *around])) for p in topic.each()]
        landscape = [either, *each, f"{either} stars:>500"]
    else:
        landscape = [main, f"{broad} stars:>500"]
    steps: list[PlanStep] = [
        PlanStep(step_id=0, type=StepType.SEARCH, purpose="landscape",
                 search_queries=landscape + ([] if either else _with_qualifiers(topic, main)[:1]),
                 description=f"Map the landscape for {topic.describe()}: the most relevant and the most "
                 "established projects."),
        PlanStep(step_id=0, type=StepType.SEARCH, purpose="recent",
                 search_queries=[f"{either or main} pushed:>{topic.since(topic.recent_days)}",
                                 f"{either or broad} created:>{topic.since(365)}"],
                 description="Find recent and emerging work, so the picture isn't only the incumbents."),
    ]
    if feedback:
        if either:  # every option, the ones feedback added included, narrowed by the feedback's words
            queries = [" ".join([either, *topic.context()]), *[f"{o} {' '.join(topic.context())}".strip()
                                                               for o in topic.options[:4]]]
        else:  # each term the reviewer asked for on its own, then the subject narrowed by the rest
            queries = [*topic.requested[:3], *([" ".join(dict.fromkeys(topic.terms[:1] + topic.focus[:3]))]
                                           if topic.focus or not topic.requested else [])]
        steps.append(PlanStep(
            step_id=0, type=StepType.SEARCH, purpose="feedback",
            search_queries=queries[:4],
            description=f"Follow the reviewer's feedback: “{_quote(feedback[-1])}”."))
    subject = ", ".join(topic.repos) if topic.repos else "the top 5 candidates"
    steps += [
        PlanStep(step_id=0, type=StepType.BROWSE, purpose="evidence",
                 description=f"Read the READMEs, releases and issue activity of {subject} to gather evidence."),
        PlanStep(step_id=0, type=StepType.SEARCH, purpose="opposing_views",
                 search_queries=[f"{o} alternative" for o in topic.options[:3]] if either
                 else [f"{broad} alternative", f"{topic.terms[0]} comparison"],
                 description="Look for opposing views: alternatives, critiques and competing approaches."),
        PlanStep(step_id=0, type=StepType.ANALYZE, purpose="cross_verify",
                 description="Cross-verify claims: check what descriptions say against measured signals "
                 "(activity, releases, issues) and flag disagreements, stale or archived projects."),
        PlanStep(step_id=0, type=StepType.ANALYZE, purpose="synthesis",
                 description="Synthesize a balanced answer with trade-offs, opposing views and how sure "
                 "we are, citing only the sources that were fetched."),
    ]
    for index, step in enumerate(steps, start=1):
        step.step_id = index
    return steps


def _quote(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _drop_excluded(steps: list[PlanStep], excluded: set[str]) -> None:
    for step in steps:
        if step.type is StepType.SEARCH and excluded:
            kept = [q for q in step.search_queries if not excluded & set(q.lower().split())]
            step.search_queries = kept or step.search_queries[:1]


class LocalPlanner:
    """Template plans with queries derived from the goal (and the feedback)."""

    def build(self, request: PlanRequest) -> ResearchPlan:
        topic = _Topic(request)
        if request.mode is ResearchMode.QUICK_SCAN:
            steps = _quick_steps(topic)
        else:
            steps = _deep_steps(topic, request.feedback)
        _drop_excluded(steps, topic.excluded)
        for step in steps:
            queries = [q.strip() for q in step.search_queries if q.strip()]
            if topic.exclude_archived:
                queries = [q if excludes_archived(q) else f"{q} {NOT_ARCHIVED}" for q in queries]
            step.search_queries = list(dict.fromkeys(queries))
        return ResearchPlan(
            session_id=request.session_id,
            rationale=request.rationale,
            steps=steps,
            version=request.version,
            feedback=request.feedback[-1] if request.feedback else None,
        )

    async def plan(self, request: PlanRequest, *, timeout: float | None = None) -> ResearchPlan:
        return self.build(request)
