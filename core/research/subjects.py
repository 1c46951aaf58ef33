"""The repositories a question is about, measured the same way the Comparator measures them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from core.analysis.compare import fit_score, highlights, warnings
from core.analysis.format import ago, committers, compact, signed
from core.analysis.need import DEFAULT_WEIGHTS, Need
from core.models import RepoSignals, ScoredRepository
from core.research.evidence import Candidate
from core.search.scoring import score_repository
from core.sources.base import SourceInfo

_SEPARATORS = re.compile(r"[\s._-]+")


def _squash(text: str) -> str:
    return _SEPARATORS.sub("", text.lower())


def _names_for(word: str) -> set[str]:
    """"node.js" -> {"nodejs", "node"}; "vue" -> {"vue", "vuejs"}."""
    base = _squash(word)
    names = {base}
    if base.endswith("js") and len(base) > 3:
        names.add(base[:-2])
    else:
        names.add(base + "js")
    return names


def find_subject(word: str, candidates: list[Candidate]) -> Candidate | None:
    """The candidate a subject word names: repository name first, then owner; most stars wins."""
    wanted = _names_for(word)
    if "/" in word:
        return next((c for c in candidates if c.name.lower() == word.lower()), None)
    by_name = [c for c in candidates if _squash(c.repo.name) in wanted]
    by_owner = [c for c in candidates if _squash(c.repo.owner) in wanted]
    by_part = [c for c in candidates if wanted & set(re.split(r"[._-]+", c.repo.name.lower()))]
    pool = by_name or by_owner or by_part  # "multiplatform" -> JetBrains/compose-multiplatform
    return max(pool, key=lambda c: c.repo.stars or 0) if pool else None


def is_measured(candidate: Candidate) -> bool:
    """False for list-only entries (a name and a description, no star or push figures)."""
    repo = candidate.repo
    return bool(repo.stars or repo.pushed_at or repo.forks or candidate.signals)


@dataclass(frozen=True, slots=True)
class DataLabel:
    """Where the figures come from, in words: "the offline snapshot of 2026-08-22" or "GitHub"."""

    offline: bool
    text: str

    @classmethod
    def of(cls, info: SourceInfo) -> "DataLabel":
        if info.kind == "catalog":
            when = f" of {info.snapshot_date.isoformat()}" if info.snapshot_date else ""
            return cls(True, f"the offline snapshot{when}")
        return cls(False, "GitHub")


def scored(candidate: Candidate, now: datetime) -> ScoredRepository:
    signals = candidate.signals or RepoSignals()
    scores = score_repository(candidate.repo, signals, None, candidate.readme, now=now)
    return ScoredRepository(**candidate.repo.model_dump(), scores=scores, signals=candidate.signals)


def fits(repos: list[ScoredRepository], need: Need | None) -> dict[str, float | None]:
    weights = need.weights if need else DEFAULT_WEIGHTS
    return {r.full_name: fit_score(r, weights) for r in repos}


def figures(repo: ScoredRepository, fit: float | None, now: datetime) -> str:
    """One line of measured figures; a figure that was not measured is not shown."""
    parts = [f"**{repo.full_name}**"]
    if repo.stars:
        parts.append(f"★ {compact(repo.stars)}")
    if repo.star_growth_12m is not None:
        parts.append(f"{signed(repo.star_growth_12m)} stars in 12 months")
    pushed = ago(repo.pushed_at, now)
    if pushed:
        parts.append(f"last push {pushed}")
    s = repo.signals
    if s is not None:
        if s.commits_90d is not None:
            parts.append(f"{s.commits_90d:,} commits in 90 days")
        if s.latest_release:
            when = f" ({s.latest_release_at.date().isoformat()})" if s.latest_release_at else ""
            parts.append(f"latest release {s.latest_release}{when}")
        if s.contributors is not None:
            parts.append(f"{compact(s.contributors)} contributors")
        elif s.recent_committers is not None and s.recent_commits_sampled:
            parts.append(committers(s.recent_committers, s.recent_commits_sampled))
        if s.median_first_response_hours is not None:
            parts.append(f"first issue reply in {s.median_first_response_hours:.0f} h (median)")
    if repo.archived:
        parts.append("archived")
    if fit is not None:
        parts.append(f"fit {fit:.1f}/10")
    return " · ".join(parts)


def edges(repos: list[ScoredRepository], now: datetime) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The Comparator's comparative highlights and absolute warnings, per repository."""
    return highlights(repos, now=now), {r.full_name: warnings(r, now=now) for r in repos}


def unmeasured_checks(candidates: list[Candidate], label: DataLabel) -> list[str]:
    """What the data at hand could not measure, in plain words."""
    gaps: list[str] = []
    if label.offline:
        gaps.append(f"releases, commit activity, contributors and issue response times ({label.text} has none)")
    elif not any(c.signals for c in candidates):
        gaps.append("releases, commit activity and issue response times (no activity data was fetched)")
    if not any(c.readme for c in candidates):
        gaps.append("what the READMEs say (none was fetched)")
    return gaps
