"""Repositories as the agents see them: raw facts, measured signals, scores, analysis."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field, model_validator

from core.models.base import WireModel

DIMENSIONS: tuple[str, ...] = (
    "maturity",
    "activity",
    "documentation",
    "community",
    "ease_of_use",
    "maintenance",
    "relevance",
)


class Repository(WireModel):
    """Facts about one repository, from GitHub or the offline catalog."""

    full_name: str  # "owner/name"
    description: str = ""
    url: str = ""
    stars: int = 0
    forks: int = 0
    language: str | None = None
    open_issues: int | None = None  # GitHub's count: issues + pull requests
    topics: list[str] = Field(default_factory=list)
    license: str | None = None
    archived: bool = False
    fork: bool = False
    homepage: str | None = None
    created_at: datetime | None = None
    pushed_at: datetime | None = None
    star_growth_6m: int | None = None  # stars gained over ~6 months (catalog snapshots)
    star_growth_12m: int | None = None
    fork_growth_6m: int | None = None  # forks gained over ~6 months (catalog snapshots)
    fork_growth_12m: int | None = None
    # False for a repository the offline catalog knows only from curated (awesome) lists: its stars,
    # forks, issues and push date were not measured, so the 0s are not facts and are never scored
    figures_known: bool = True
    categories: list[str] = Field(default_factory=list)  # curated-list categories ("awesome-go: Testing")

    @property
    def measured_stars(self) -> int | None:
        """Stars when measured; ``None`` for a repository known only from curated lists."""
        return self.stars if self.figures_known else None

    @property
    def measured_forks(self) -> int | None:
        return self.forks if self.figures_known else None

    @property
    def owner(self) -> str:
        return self.full_name.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.full_name.split("/", 1)[-1]

    @property
    def html_url(self) -> str:
        return self.url or f"https://github.com/{self.full_name}"


class RepoSignals(WireModel):
    """Measured signals. ``None`` means *not measured* -- never a guess."""

    releases: int | None = None
    latest_release: str | None = None
    latest_release_at: datetime | None = None
    commits_30d: int | None = None
    commits_90d: int | None = None
    contributors: int | None = None  # all time, REST only (GraphQL has no such count)
    # distinct people (bots aside) who authored the newest ``recent_commits_sampled`` (<= 100)
    # commits of the default branch: what GraphQL measures instead of ``contributors``
    recent_committers: int | None = None
    recent_commits_sampled: int | None = None
    open_issues_only: int | None = None
    closed_issues_90d: int | None = None
    open_pulls: int | None = None
    merged_pulls_90d: int | None = None
    median_first_response_hours: float | None = None
    has_readme: bool | None = None
    has_contributing: bool | None = None
    has_license: bool | None = None
    has_code_of_conduct: bool | None = None
    has_issue_template: bool | None = None
    has_pull_request_template: bool | None = None
    health_percentage: int | None = None
    readme_chars: int | None = None
    readme_summary: str | None = None
    # plain-language gaps when some signals could not be measured (e.g. a rate limit)
    notes: list[str] = Field(default_factory=list)


class DimensionScores(WireModel):
    """Per-dimension scores 0-10 plus the weighted ``overall``; ``reasons`` explains each.

    A dimension without any measured signal is ``None`` (JSON ``null``, shown as "n/a"), never
    0 or 10: it is left out of ``overall`` and listed in ``unmeasured`` (the validator keeps the
    two in step, whichever one the caller set).
    """

    maturity: float | None = Field(default=None, ge=0, le=10)
    activity: float | None = Field(default=None, ge=0, le=10)
    documentation: float | None = Field(default=None, ge=0, le=10)
    community: float | None = Field(default=None, ge=0, le=10)
    ease_of_use: float | None = Field(default=None, ge=0, le=10)
    maintenance: float | None = Field(default=None, ge=0, le=10)
    relevance: float | None = Field(default=None, ge=0, le=10)
    overall: float = Field(default=0.0, ge=0, le=10)
    reasons: dict[str, str] = Field(default_factory=dict)
    unmeasured: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unmeasured_is_none(self) -> DimensionScores:
        for dim in DIMENSIONS:
            if dim in self.unmeasured:
                object.__setattr__(self, dim, None)
            elif getattr(self, dim) is None:
                self.unmeasured.append(dim)
        return self

    def by_dimension(self) -> dict[str, float | None]:
        return {d: getattr(self, d) for d in DIMENSIONS}

    def measured(self) -> dict[str, float]:
        """The dimensions that have a score."""
        return {d: v for d, v in self.by_dimension().items() if v is not None}


class ScoredRepository(Repository):
    scores: DimensionScores = Field(default_factory=DimensionScores)
    why: str = ""  # one line: why this repo made the list
    signals: RepoSignals | None = None


class Recommendation(StrEnum):
    CONTRIBUTE = "contribute"
    WATCH = "watch"
    AVOID = "avoid"


class KeyMetric(WireModel):
    """One line of an analysis' key metrics.

    ``value`` is ``None`` when the source could not measure it; ``note`` then says why in plain
    words ("not available in the offline snapshot") so replies never invent a number.
    """

    group: str  # "overview" | "activity" | "maintenance" | "community"
    name: str  # stable id, e.g. "commits_90d"
    label: str  # "Commits (last 90 days)"
    value: str | None = None  # display text, e.g. "142" or "3 weeks ago"
    note: str = ""  # plain-language context or why it is missing


class RepositoryDetail(ScoredRepository):
    """What the Auditor knows about one repository."""

    metrics: list[KeyMetric] = Field(default_factory=list)
    findings: list[str] = Field(default_factory=list)
    recommendation: Recommendation | None = None
    recommendation_reasons: list[str] = Field(default_factory=list)
    readme_summary: str | None = None
