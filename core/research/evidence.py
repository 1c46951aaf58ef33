"""What the finished steps of a session found, merged per repository and ranked."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from core.models import Repository, RepoSignals
from core.models.research import ResearchSession, SourceRef, StepType
from core.research.queries import repo_names


@dataclass
class Candidate:
    repo: Repository
    hits: int = 0  # how many search queries surfaced it (independent corroboration)
    purposes: set[str] = field(default_factory=set)  # "landscape", "recent", "opposing_views"...
    signals: RepoSignals | None = None
    readme: str | None = None

    @property
    def name(self) -> str:
        return self.repo.full_name

    def days_since_push(self, now: datetime | None = None) -> int | None:
        if self.repo.pushed_at is None:
            return None
        pushed = self.repo.pushed_at
        if pushed.tzinfo is None:
            pushed = pushed.replace(tzinfo=UTC)
        return max(((now or datetime.now(UTC)) - pushed).days, 0)


def gather(session: ResearchSession) -> list[Candidate]:
    """Every repository the session's searches found, best first (corroboration, then stars)."""
    purposes = {s.step_id: (s.purpose or s.type.value.lower()) for s in (session.plan.steps if session.plan else [])}
    found: dict[str, Candidate] = {}
    for result in session.results:
        for repo in result.repos:
            candidate = found.setdefault(repo.full_name, Candidate(repo=repo))
            candidate.hits += result.hits.get(repo.full_name, 1)
            candidate.purposes.add(purposes.get(result.step_id, "search"))
        for name, signals in result.signals.items():
            found.setdefault(name, Candidate(repo=Repository(full_name=name))).signals = signals
        for name, readme in result.readmes.items():
            found.setdefault(name, Candidate(repo=Repository(full_name=name))).readme = readme
    named = set(repo_names(session.query))
    return sorted(
        found.values(),
        key=lambda c: (c.name not in named, -c.hits, -(c.repo.stars or 0), c.name),
    )


def leaders(candidates: list[Candidate]) -> list[Candidate]:
    """The leading options: found by the main searches (or by several), best first."""
    return [c for c in candidates if "opposing_views" not in c.purposes or c.hits > 1][:3]


def opposing(candidates: list[Candidate]) -> list[Candidate]:
    """What only the searches for alternatives and critiques turned up."""
    leading = leaders(candidates)
    return [c for c in candidates if "opposing_views" in c.purposes and c not in leading]


def browse_targets(session: ResearchSession, limit: int) -> list[str]:
    """Repositories named in the goal first, then the best search candidates."""
    names = repo_names(session.query)
    for candidate in gather(session):
        if len(names) >= limit:
            break
        if candidate.name not in names and not candidate.repo.archived:
            names.append(candidate.name)
    return names[:limit]


def fetched_sources(session: ResearchSession) -> list[SourceRef]:
    """Everything the executor actually fetched, without repeats, in the order it was fetched."""
    seen: set[tuple[str, str]] = set()
    sources: list[SourceRef] = []
    for result in session.results:
        for source in result.sources:
            key = (source.title, source.url)
            if key not in seen:
                seen.add(key)
                sources.append(source)
    return sources


def searched(session: ResearchSession) -> bool:
    steps = {s.step_id: s for s in (session.plan.steps if session.plan else [])}
    return any(
        r.status == "done" and steps.get(r.step_id) is not None and steps[r.step_id].type is StepType.SEARCH
        for r in session.results
    )
