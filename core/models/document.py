"""A reply as a document: typed sections, each with the data a platform needs to draw it natively.

The synthesizer words everything (facts, why-lines, headings) once; adapters choose the layout:
Slack draws cards, table blocks and ``markdown`` blocks, Discord embeds, and ``to_markdown`` is the
one Markdown rendering (the shell, ``omg ask --json`` and every fallback text). Nothing downstream
parses Markdown back into structure.

    Document = [TextSection | RepoCardsSection | TableSection | RepoDetailSection | ChoicesSection]
"""

from __future__ import annotations

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


Section = Annotated[
    TextSection | RepoCardsSection | TableSection | RepoDetailSection | ChoicesSection,
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
