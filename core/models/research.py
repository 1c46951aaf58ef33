"""Research sessions, plans, steps and results (camelCase on the wire, like core.models)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, field_validator

from core.models import ConversationKey, ReportSection, Repository, RepoSignals, WireModel, utcnow


class ResearchMode(StrEnum):
    QUICK_SCAN = "quick_scan"
    DEEP_PROBE = "deep_probe"

    @property
    def label(self) -> str:
        return "Quick Scan" if self is ResearchMode.QUICK_SCAN else "Deep Probe"


class ResearchStatus(StrEnum):
    IDLE = "IDLE"
    ANALYZING = "ANALYZING"
    PLANNING = "PLANNING"
    REVIEW_PENDING = "REVIEW_PENDING"
    EXECUTING = "EXECUTING"
    COMPLETED = "COMPLETED"
    ERROR = "ERROR"
    CANCELLED = "CANCELLED"


TERMINAL: frozenset[ResearchStatus] = frozenset(
    {ResearchStatus.COMPLETED, ResearchStatus.ERROR, ResearchStatus.CANCELLED}
)


class StepType(StrEnum):
    SEARCH = "SEARCH"
    BROWSE = "BROWSE"
    ANALYZE = "ANALYZE"


class PlanStep(WireModel):
    step_id: int
    type: StepType
    description: str
    search_queries: list[str] = Field(default_factory=list)
    # What the step is for: "breadth", "recent", "opposing_views", "cross_verify", "feedback"...
    purpose: str | None = None


class ResearchPlan(WireModel):
    session_id: str
    rationale: str
    steps: list[PlanStep]
    version: int = 1
    created_at: datetime = Field(default_factory=utcnow)
    source: Literal["local", "llm"] = "local"
    feedback: str | None = None  # the feedback this version answers (None for the first plan)


class ModeDecision(WireModel):
    """The analyzer's verdict: a mode plus a one-sentence rationale."""

    mode: ResearchMode
    rationale: str
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    source: Literal["local", "llm", "override"] = "local"


class Feedback(WireModel):
    user: str
    text: str
    plan_version: int  # the plan the feedback was about
    at: datetime = Field(default_factory=utcnow)


class Decision(WireModel):
    """One accepted button decision (audit trail; the source of truth for double clicks)."""

    kind: Literal["approve", "revise", "cancel", "expire"]
    user: str
    plan_version: int
    at: datetime = Field(default_factory=utcnow)


class FeedbackRequest(WireModel):
    """A Revise click without inline text: the user's next message is the feedback."""

    user: str
    plan_version: int
    conversation_id: str | None = None  # where the click happened (where the feedback will come)
    at: datetime = Field(default_factory=utcnow)


class SourceRef(WireModel):
    """Something the executor actually fetched; the report cites only these."""

    kind: Literal["search", "repo", "readme", "signals", "web"]
    title: str
    url: str = ""  # empty for the offline catalog, which has no page to link
    snippet: str = ""  # web: the grounded answer's sentences this page supports


class ResearchAnswer(WireModel):
    """The direct answer a report opens with, in the shape the question asked for.

    ``headline`` is the report's first paragraph (the verdict, the pick, the fact, or a plain "the
    sources at hand can't tell"); every figure in it and in the lists was measured or fetched.
    """

    shape: Literal["migrate", "pick", "fact", "overview"]
    headline: str
    comparison: list[str] = Field(default_factory=list)  # measured figures, one line per subject
    trade_offs: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    would_change: list[str] = Field(default_factory=list)  # what would change the verdict
    missing: list[str] = Field(default_factory=list)  # subjects absent or unmeasured in the data
    not_checked: list[str] = Field(default_factory=list)  # what no fetched source could tell
    confidence: Literal["low", "medium", "high"] = "low"
    confidence_reason: str = ""
    cited: list[str] = Field(default_factory=list)  # titles of the fetched sources it rests on
    source: Literal["local", "llm"] = "local"


class StepResult(WireModel):
    step_id: int
    status: Literal["done", "failed", "timeout"]
    summary: str
    started_at: datetime
    finished_at: datetime = Field(default_factory=utcnow)
    sources: list[SourceRef] = Field(default_factory=list)
    repos: list[Repository] = Field(default_factory=list)  # SEARCH: what the queries found
    hits: dict[str, int] = Field(default_factory=dict)  # SEARCH: full name -> queries that found it
    signals: dict[str, RepoSignals] = Field(default_factory=dict)  # BROWSE: full name -> signals
    readmes: dict[str, str] = Field(default_factory=dict)  # BROWSE: full name -> excerpt
    findings: list[str] = Field(default_factory=list)  # ANALYZE: conclusions
    answer: ResearchAnswer | None = None  # ANALYZE (summary / synthesis): the direct answer
    error: str | None = None
    web_error: str | None = None  # SEARCH: why the web search failed (GitHub search only)


class ErrorContext(WireModel):
    """What went wrong when a session entered ERROR."""

    state: ResearchStatus
    code: str
    message: str
    step_id: int | None = None
    at: datetime = Field(default_factory=utcnow)


class Lease(WireModel):
    """Who is executing a session right now, and until when (renewed at every step)."""

    owner: str
    until: datetime


class ResearchSession(WireModel):
    id: str
    query: str
    requester: str
    key: ConversationKey
    mode: ResearchMode | None = None
    status: ResearchStatus = ResearchStatus.IDLE
    version: int = 0  # bumped by every successful store write (optimistic concurrency)
    decision: ModeDecision | None = None
    plans: list[ResearchPlan] = Field(default_factory=list)  # every version, oldest first
    feedback: list[Feedback] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    awaiting_feedback: FeedbackRequest | None = None
    feedback_conversations: list[str] = Field(default_factory=list)  # where markers may point here
    results: list[StepResult] = Field(default_factory=list)  # checkpoints, in step order
    report: ReportSection | None = None
    # who handed the finished report of a resumed run to a notifier: two resumers of one run (a
    # start-up resume and a takeover, on one instance or two) may both see it finish
    delivered_by: str | None = None
    cancel_requested_by: str | None = None
    lease: Lease | None = None
    review_deadline: datetime | None = None
    query_truncated: bool = False
    original_chars: int | None = None
    error: ErrorContext | None = None
    history: list[dict[str, Any]] = Field(default_factory=list)  # [{"from", "to", "at"}]
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)

    @field_validator("report", mode="before")
    @classmethod
    def _markdown_report(cls, value: Any) -> Any:
        """A report stored as Markdown by an older version is rebuilt from the results on read."""
        return None if isinstance(value, str) else value

    @property
    def plan(self) -> ResearchPlan | None:
        return self.plans[-1] if self.plans else None

    @property
    def plan_version(self) -> int:
        return self.plans[-1].version if self.plans else 0

    def finished_step_ids(self) -> set[int]:
        return {r.step_id for r in self.results}

    def result_for(self, step_id: int) -> StepResult | None:
        return next((r for r in self.results if r.step_id == step_id), None)
