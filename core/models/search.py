"""Search parameters: what the query translator produces and the Scout consumes."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from core.models.base import WireModel


class SearchParams(WireModel):
    """A structured search request.

    ``keywords`` are ANDed only within ``phrases``; ``synonym_groups`` are OR'd alternatives
    (each group is one concept: ["state management", "store", "redux"]). Star bounds are
    inclusive; ``None`` means unbounded.
    """

    text: str = ""  # the user's words, for relevance scoring and display
    # the software wanted, worded as a repository would describe it (an LLM's rewrite of a
    # spoken request: "self-hosted team chat"); the meaning-led ranking embeds it instead of text
    need: str | None = None
    keywords: list[str] = Field(default_factory=list)
    synonym_groups: list[list[str]] = Field(default_factory=list)
    phrases: list[str] = Field(default_factory=list)
    language: str | None = None
    # languages taken as well as ``language``: "in Go or Rust" is Go, also Rust
    also_languages: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    min_stars: int | None = None
    max_stars: int | None = None
    pushed_after: date | None = None
    created_after: date | None = None
    sort: str = "best"  # "best" | "stars" | "updated" | "growth"
    exclude: list[str] = Field(default_factory=list)  # repos the user ruled out ("other than spring")
    limit: int = 10

    @property
    def languages(self) -> tuple[str, ...]:
        """Every language the search takes: ``language``, then ``also_languages``."""
        return (self.language, *self.also_languages) if self.language else ()

    @property
    def languages_said(self) -> str:
        """The languages in words: "Go", "Go or Rust"."""
        return " or ".join(self.languages)

    def describe(self) -> str:
        """Short human description: 'state management (TypeScript, 1k+ stars)'."""
        concepts = [g[0] for g in self.synonym_groups if g] + self.topics
        words = " ".join(self.phrases + self.keywords + concepts) or self.text or "repositories"
        filters = self.describe_filters()
        return f"{words} ({', '.join(filters)})" if filters else words

    def describe_filters(self) -> list[str]:
        """The filters in words: ['TypeScript', '1k+ stars']."""
        extras: list[str] = []
        if self.language:
            extras.append(self.languages_said)
        if self.min_stars:
            extras.append(f"{_short(self.min_stars)}+ stars")
        if self.max_stars is not None:
            extras.append(f"under {_short(self.max_stars)} stars")
        if self.pushed_after:
            extras.append(f"active since {self.pushed_after.isoformat()}")
        return extras


def _short(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else f"{n:,}"
