"""A reply as a document: typed sections, each with the data a platform needs to draw it natively.

The synthesizer words everything (facts, why-lines, headings) once; adapters choose the layout:
Slack draws cards, table blocks and ``markdown`` blocks, Discord embeds, and ``to_markdown`` is the
one Markdown rendering (the shell, ``omg ask --json`` and every fallback text). Nothing downstream
parses Markdown back into structure.

    Document = [TextSection | RepoCardsSection | TableSection | RepoDetailSection | ChoicesSection
                | PlanSection | ReportSection]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from core.models.base import WireModel


class TextSection(WireModel):
    """Prose in Markdown (paragraphs, headings, lists): what needs no special layout."""

    kind: Literal["text"] = "text"
    markdown: str


class RepoCard(WireModel):
    """One repository in a result list: raw facts for native cards plus the synthesizer's wording."""

    position: int
    full_name: str
    html_url: str
    stars: int | None = 0  # None: not measured (a repository known offline only from curated lists)
    language: str | None = None
    language_unconfirmed: bool = False  # a language was asked for and this repository's is not known offline
    overall: float | None = None  # the quality score out of 10, None when unscored
    archived: bool = False
    facts: str  # Markdown: "45.3k stars · TypeScript · updated 3 days ago"
    description: str = ""
    why: str | None = None  # Markdown: why it ranks here


class RepoCardsSection(WireModel):
    """A titled run of repository cards; ``compact`` cards are one line each."""

    kind: Literal["repo_cards"] = "repo_cards"
    title: str
    cards: list[RepoCard]
    compact: bool = False


class TableCell(WireModel):
    text: str
    url: str | None = None


class TableSection(WireModel):
    """A titled table: a header row and rows of cells (the first cell names the row)."""

    kind: Literal["table"] = "table"
    title: str
    header: list[str]
    rows: list[list[TableCell]]


class RepoDetailSection(WireModel):
    """The top of a repository analysis: the repository, its description and worded facts."""

    kind: Literal["repo_detail"] = "repo_detail"
    full_name: str
    html_url: str
    description: str = ""
    stars: int | None = 0  # None: not measured (a repository known offline only from curated lists)
    language: str | None = None
    overall: float | None = None
    archived: bool = False
    facts: list[str] = Field(default_factory=list)  # Markdown lines: "**Stars:** 45.3k · **Forks:** 1.2k"


class ChoicesSection(WireModel):
    """Options the user can pick (clarifications); adapters may draw them as buttons."""

    kind: Literal["choices"] = "choices"
    options: list[str]
    hint: str = "Pick one of these, or tell me in your own words."


class PlanItem(WireModel):
    number: int
    kind: str  # "Search", "Browse", "Analyze"
    description: str
    queries: list[str] = Field(default_factory=list)


class PlanSection(WireModel):
    """A research plan as the team reviews it: the goal, the mode and why, the steps."""

    kind: Literal["plan"] = "plan"
    goal: str
    mode: str  # "Quick Scan" | "Deep Probe"
    rationale: str
    steps: list[PlanItem]
    version: int = 1
    status: str = ""  # the session's status, e.g. "REVIEW_PENDING"
    weighed_for: str | None = None  # a constraint of the answer ("a 10 person startup")
    weighed_why: str | None = None
    feedback: str | None = None  # the feedback this revision answers
    review: str | None = None  # Markdown: how to decide, while the plan awaits review


class TitledList(WireModel):
    """A titled list of Markdown items; an item that carries its own rank ("1. ...") keeps it."""

    title: str
    items: list[str]


class ReportStep(WireModel):
    number: int
    kind: str
    outcome: Literal["done", "empty", "failed", "timeout", "not_run"]
    summary: str = ""


class SourceLink(WireModel):
    title: str
    url: str = ""
    snippet: str = ""


class ReportSection(WireModel):
    """A research report: the answer first, then what it rests on."""

    kind: Literal["report"] = "report"
    goal: str
    answered: bool = True  # False: the run stopped before its answer step
    answer: str  # Markdown: the verdict, the pick, the fact (or why there is none yet)
    findings: list[TitledList] = Field(default_factory=list)  # comparison, trade-offs, risks...
    confidence: str | None = None  # "low" | "medium" | "high"
    confidence_reason: str = ""
    not_checked: list[str] = Field(default_factory=list)
    progress: str = ""  # "Deep Probe · 5 steps completed."
    notes: list[str] = Field(default_factory=list)  # e.g. why there was no web search
    evidence: list[TitledList] = Field(default_factory=list)  # evidence, opposing views, checks
    web: list[SourceLink] = Field(default_factory=list)  # what web pages said, with their links
    steps: list[ReportStep] = Field(default_factory=list)
    sources: list[SourceLink] = Field(default_factory=list)
    more_sources: int = 0  # sources left out of the list (kept in the session)


Section = Annotated[
    TextSection | RepoCardsSection | TableSection | RepoDetailSection | ChoicesSection | PlanSection
    | ReportSection,
    Field(discriminator="kind"),
]
Document = list[Section]


def text_document(markdown: str) -> Document:
    """A plain-text reply: one text section (none when the text is empty)."""
    return [TextSection(markdown=markdown)] if markdown.strip() else []


# -- the one Markdown rendering ---------------------------------------------------------------------


def to_markdown(document: Sequence[Section]) -> str:
    """The whole document as Markdown, sections separated by a blank line."""
    return "\n\n".join(part for part in (section_markdown(s) for s in document) if part)


def section_markdown(section: Section) -> str:
    if isinstance(section, TextSection):
        return section.markdown.strip()
    if isinstance(section, RepoCardsSection):
        return _cards(section)
    if isinstance(section, TableSection):
        return _table(section)
    if isinstance(section, RepoDetailSection):
        return _detail(section)
    if isinstance(section, PlanSection):
        return _plan(section)
    if isinstance(section, ReportSection):
        return _report(section)
    return _choices(section)


def repo_link(card: RepoCard) -> str:
    return f"[{card.full_name}]({card.html_url})"


def card_markdown(card: RepoCard, *, compact: bool = False) -> str:
    if compact:
        line = f"{card.position}. {repo_link(card)}: {card.facts}"
        return f"{line}. {card.description}" if card.description else line
    lines = [f"{card.position}. **{repo_link(card)}**: {card.facts}"]
    lines += [f"   {text}" for text in (card.description, card.why) if text]
    return "\n".join(lines)


def _cards(section: RepoCardsSection) -> str:
    body = "\n".join(card_markdown(c, compact=section.compact) for c in section.cards)
    return f"### {section.title}\n{body}" if section.title else body


def table_cell_markdown(cell: TableCell) -> str:
    text = " ".join(cell.text.split()).replace("|", "\\|")
    return f"[{text}]({cell.url})" if cell.url else text


def _table(section: TableSection) -> str:
    lines = ["| " + " | ".join(section.header) + " |", "|" + "---|" * len(section.header)]
    lines += ["| " + " | ".join(table_cell_markdown(c) for c in row) + " |" for row in section.rows]
    table = "\n".join(lines)
    return f"### {section.title}\n{table}" if section.title else table


def _detail(section: RepoDetailSection) -> str:
    named = f"[{section.full_name}]({section.html_url})"
    lines = [f"## {section.full_name}", f"{named}: {section.description}" if section.description else named]
    return "\n".join([*lines, *(f"- {fact}" for fact in section.facts)])


def _choices(section: ChoicesSection) -> str:
    if not section.options:
        return ""
    listed = "\n".join(f"- {option}" for option in section.options)
    return f"{listed}\n\n{section.hint}" if section.hint else listed


def plan_step_lines(step: PlanItem) -> list[str]:
    lines = [f"{step.number}. **{step.kind}**: {step.description}"]
    if step.queries:
        lines.append("   " + " · ".join(f"`{q}`" for q in step.queries))
    return lines


def plan_heading(section: PlanSection) -> str:
    return f"Research plan · {section.mode}" + (f" · revision {section.version}" if section.version > 1 else "")


def weighed_line(section: PlanSection) -> str | None:
    if section.weighed_for is None:
        return None
    return (f"_Weighed for {section.weighed_for}:_ {section.weighed_why}." if section.weighed_why
            else f"_Weighed for {section.weighed_for}._")


def _plan(section: PlanSection) -> str:
    lines = [f"**{plan_heading(section)}**", f"> {section.goal}", f"_Why {section.mode}:_ {section.rationale}"]
    weighed = weighed_line(section)
    lines += [weighed, ""] if weighed else [""]
    lines += [line for step in section.steps for line in plan_step_lines(step)]
    if section.feedback:
        lines += ["", f"_Revised for the feedback: “{section.feedback}”_"]
    if section.review:
        lines += ["", section.review]
    return "\n".join(lines)


_RANKED = re.compile(r"^\d+\. ")


def list_item(item: str) -> str:
    return item if _RANKED.match(item) else f"- {item}"


def titled_markdown(parts: Sequence[TitledList]) -> str:
    """Titled lists as Markdown: a ``###`` heading over each non-empty list."""
    return "\n\n".join(f"### {p.title}\n" + "\n".join(map(list_item, p.items)) for p in parts if p.items)


def confidence_line(section: ReportSection) -> str:
    reason = f": {section.confidence_reason}." if section.confidence_reason else "."
    return f"**{section.confidence}**{reason}"


def web_markdown(section: ReportSection) -> str:
    lines = [f"- {s.snippet} ([{s.title}]({s.url}))" for s in section.web]
    return "### From the web\n" + "\n".join(lines) if lines else ""


def steps_markdown(section: ReportSection) -> str:
    icons = {"done": "✓", "empty": "–", "failed": "✗", "timeout": "⏱", "not_run": "○"}
    return "### Steps\n" + "\n".join(
        f"{s.number}. {icons[s.outcome]} {s.kind}: {'not run' if s.outcome == 'not_run' else s.summary}"
        for s in section.steps)


def sources_markdown(section: ReportSection) -> str:
    lines = [f"{i}. [{s.title}]({s.url})" if s.url else f"{i}. {s.title}" for i, s in enumerate(section.sources, 1)]
    if section.more_sources:
        lines.append(f"_…and {section.more_sources} more in the session file._")
    return "### Sources\n" + "\n".join(lines or ["_No sources were fetched._"])


def _report(section: ReportSection) -> str:
    head = [f"## Research report: {section.goal}\n{section.answer}", titled_markdown(section.findings)]
    facts = [f"**Confidence:** {confidence_line(section)}" if section.confidence else "",
             "**Not checked:** " + "; ".join(section.not_checked) + "." if section.not_checked else ""]
    head.append("\n".join(f for f in facts if f))
    status = "\n".join(f"_{line}_" for line in [section.progress, *section.notes])
    parts = [*head, status, titled_markdown(section.evidence), web_markdown(section), steps_markdown(section),
             sources_markdown(section)]
    return "\n\n".join(p for p in parts if p)
