"""Research plans and reports shaped like the research service's, for renderer tests and benchmarks."""

from __future__ import annotations

from core.models import PlanSection, ReportSection
from core.models.document import PlanItem, ReportStep, SourceLink, TitledList, to_markdown


def plan(*, steps: int = 5, review: bool = True) -> PlanSection:
    return PlanSection(
        goal="Should we migrate from Redux to Zustand?", mode="Deep Probe", version=2, status="REVIEW_PENDING",
        rationale="A migration decision weighs several projects on maintenance and adoption.",
        steps=[PlanItem(number=n, kind=("Search", "Browse", "Analyze")[n % 3], description=f"Step {n} of the plan.",
                        queries=["redux toolkit", "zustand"] if n % 3 == 0 else []) for n in range(1, steps + 1)],
        weighed_for="a small team", weighed_why="fewer moving parts matter more than features",
        feedback="focus on TypeScript projects",
        review="**Approve** to start, **Revise** to change it, or **Cancel**." if review else None,
    )


def report(chars: int = 13_000) -> ReportSection:
    """A report of about ``chars`` characters of Markdown: the answer, findings, evidence, steps and
    sources, grown by evidence until it is long enough."""
    section = ReportSection(
        goal="Should we migrate from Redux to Zustand?",
        answer="**Stay on Redux** for now: [1] it is better maintained and far more widely used [2].",
        findings=[TitledList(title="Measured comparison", items=[
                      "1. reduxjs/redux: 61.2k stars, last push 3 days before the snapshot",
                      "2. pmndrs/zustand: 48.1k stars, last push 9 days before the snapshot"]),
                  TitledList(title="Trade-offs", items=["Zustand is smaller; Redux has more tooling."]),
                  TitledList(title="Risks", items=["A migration touches every store."])],
        confidence="medium", confidence_reason="two measured projects, no benchmarks",
        not_checked=["bundle size", "TypeScript types"],
        progress="Deep Probe · 6 steps completed.",
        notes=["Web search was unavailable (timeout), so this report uses GitHub search only."],
        steps=[ReportStep(number=n, kind="Search", outcome="done", summary=f"found {n * 4} repositories")
               for n in range(1, 7)],
        sources=[SourceLink(title=f"owner{n}/project-{n}", url=f"https://github.com/owner{n}/project-{n}")
                 for n in range(1, 41)],
        more_sources=3,
    )
    evidence: list[str] = []
    while len(to_markdown([section])) < chars:
        n = len(evidence)
        evidence.append(f"**owner{n}/project-{n}**: weighed on activity, maintenance and community; "
                        + "the measured figures support the verdict. " * 3)
        section.evidence = [TitledList(title="Evidence", items=evidence)]
    return section
