"""StructuredData: the discriminated union every agent returns (validated by the synthesizer)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from core.models.base import WireModel
from core.models.repository import RepositoryDetail, ScoredRepository
from core.models.search import SearchParams


class ResultMeta(WireModel):
    """Where the data came from and how complete it is."""

    source: Literal["github", "catalog"] | None = None
    snapshot_date: date | None = None  # set when the offline catalog answered
    partial: bool = False  # a time budget or a rate limit cut the work short
    notes: list[str] = Field(default_factory=list)  # e.g. "relaxed the star filter"
    query: str | None = None
    search_params: SearchParams | None = None
    total_candidates: int | None = None
    closest_anyway: bool = False  # asked for after nothing fitted: the closest matches, none of which fits
    uncertain: bool = False  # nothing fits clearly: the closest matches, none of them a sure one


class RepoList(WireModel):
    type: Literal["repo_list"] = "repo_list"
    items: list[ScoredRepository] = Field(default_factory=list)
    meta: ResultMeta | None = None


class RepoDetailData(WireModel):
    type: Literal["repo_detail"] = "repo_detail"
    repo: RepositoryDetail
    analysis: str = ""
    meta: ResultMeta | None = None


class ComparisonRow(WireModel):
    repo: ScoredRepository
    highlights: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    fit: float | None = None  # 0-10: the six dimensions weighted by ``Comparison.weights``


class Comparison(WireModel):
    type: Literal["comparison"] = "comparison"
    items: list[ComparisonRow] = Field(default_factory=list)
    need: str | None = None  # the user's stated need ("for a small team"), if any
    weights: dict[str, float] = Field(default_factory=dict)  # per dimension, sum 1.0 (need-adjusted)
    recommended: str | None = None  # full name of the repo the final recommendation picks
    recommendation_reasons: list[str] = Field(default_factory=list)
    meta: ResultMeta | None = None


class Clarification(WireModel):
    type: Literal["clarification"] = "clarification"
    question: str
    options: list[str] = Field(default_factory=list)
    meta: ResultMeta | None = None


StructuredData = Annotated[
    Union[RepoList, RepoDetailData, Comparison, Clarification],
    Field(discriminator="type"),
]

structured_data_adapter: TypeAdapter[StructuredData] = TypeAdapter(StructuredData)


def structured_repo_names(data: StructuredData | None) -> list[str]:
    """Full names in the order a user sees them (what "the second one" counts over)."""
    if data is None:
        return []
    if isinstance(data, RepoList):
        return [r.full_name for r in data.items]
    if isinstance(data, RepoDetailData):
        return [data.repo.full_name]
    if isinstance(data, Comparison):
        return [row.repo.full_name for row in data.items]
    return []
