"""Multi-dimensional repository scoring: six quality dimensions plus relevance to the query.

Every formula, weight and fallback is documented in ``core/search/SCORING.md`` (the one place;
keep it in sync with this file). In short: each dimension is the weighted mean of the *measured*
parts that feed it; a part whose signal is ``None`` is skipped (and named in the reason), a
dimension with no measured part is ``unmeasured`` (score 0, left out of ``overall``), and
``overall`` is the weighted mean of the measured dimensions with the weights in ``WEIGHTS``
(which sum to exactly 1). Nothing is estimated: no flat 5.0, no releases invented from age.

Documentation, ease of use and relevance come from README/description heuristics; an LLM scorer
can replace them through the ``TextScorer`` protocol (a failed call falls back to the heuristics).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from fractions import Fraction
from typing import Protocol

from core.models import DIMENSIONS, DimensionScores, Repository, RepoSignals, ScoredRepository, SearchParams
from core.search.readme import ReadmeFacts, analyze_readme
from core.search.relevance import compile_terms, relevance

_EXACT_WEIGHTS: dict[str, Fraction] = {
    "maturity": Fraction("0.15"),
    "activity": Fraction("0.15"),
    "documentation": Fraction("0.10"),
    "community": Fraction("0.10"),
    "ease_of_use": Fraction("0.10"),
    "maintenance": Fraction("0.10"),
    "relevance": Fraction("0.30"),
}
assert sum(_EXACT_WEIGHTS.values()) == 1, "dimension weights must sum to exactly 1"
assert tuple(_EXACT_WEIGHTS) == DIMENSIONS, "one weight per dimension, in DIMENSIONS order"
WEIGHTS: dict[str, float] = {d: float(w) for d, w in _EXACT_WEIGHTS.items()}

TEXT_DIMENSIONS = ("documentation", "ease_of_use", "relevance")
DOC_FALLBACK_CAP = 4.0  # documentation judged from the description alone never exceeds this


@dataclass(frozen=True, slots=True)
class DimensionScore:
    score: float  # 0-10
    reason: str


@dataclass(frozen=True, slots=True)
class TextScores:
    """What a ``TextScorer`` says about the three text dimensions (None: no opinion)."""

    documentation: DimensionScore | None = None
    ease_of_use: DimensionScore | None = None
    relevance: DimensionScore | None = None


class TextScorer(Protocol):
    """The seam for an LLM judge of documentation, ease of use and relevance."""

    async def score_text(
        self, repo: Repository, signals: RepoSignals | None, params: SearchParams | None, readme: str | None
    ) -> TextScores: ...


class HeuristicTextScorer:
    """The offline ``TextScorer``: README heuristics and the description/topics."""

    async def score_text(
        self, repo: Repository, signals: RepoSignals | None, params: SearchParams | None, readme: str | None
    ) -> TextScores:
        return heuristic_text_scores(repo, signals, params, readme)


def score_repository(
    repo: Repository,
    signals: RepoSignals | None,
    params: SearchParams | None = None,
    readme: str | None = None,
    *,
    now: datetime,
    text: TextScores | None = None,
) -> DimensionScores:
    """Score ``repo`` on every dimension; ``text`` (from an LLM) overrides the heuristics it covers."""
    sig = signals or RepoSignals()
    heuristic = heuristic_text_scores(repo, sig, params, readme)
    dims: dict[str, DimensionScore | None] = {
        "maturity": _maturity(repo, sig, now),
        "activity": _activity(repo, sig, now),
        "community": _community(repo, sig),
        "maintenance": _maintenance(repo, sig),
    }
    for name in TEXT_DIMENSIONS:
        dims[name] = (text and getattr(text, name)) or getattr(heuristic, name)
    return combine(dims)


def combine(dims: dict[str, DimensionScore | None]) -> DimensionScores:
    """Build ``DimensionScores``: overall = weighted mean over the measured dimensions."""
    values: dict[str, float] = {}
    reasons: dict[str, str] = {}
    unmeasured: list[str] = []
    for name in DIMENSIONS:
        dim = dims.get(name)
        if dim is None:
            unmeasured.append(name)
            values[name] = 0.0
            reasons[name] = "not measured (no signal available)"
        else:
            values[name] = round(min(10.0, max(0.0, dim.score)), 1)
            reasons[name] = dim.reason
    measured = [d for d in DIMENSIONS if d not in unmeasured]
    weight = sum(WEIGHTS[d] for d in measured)
    overall = sum(WEIGHTS[d] * values[d] for d in measured) / weight if weight else 0.0
    return DimensionScores(**values, overall=round(overall, 2), reasons=reasons, unmeasured=unmeasured)


def rank_key(item: ScoredRepository) -> tuple[float, float, int, float]:
    """Sort key: overall, then the tie-break relevance -> stars -> activity (all descending)."""
    s = item.scores
    return (-s.overall, -s.relevance, -item.stars, -s.activity)


# -- the parts ------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Parts:
    """Weighted parts of one dimension; ``None`` values are skipped and named as not measured."""

    scored: list[tuple[float, float, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def add(self, weight: float, score: float | None, label: str, missing_label: str) -> None:
        if score is None:
            self.missing.append(missing_label)
        else:
            self.scored.append((weight, min(10.0, max(0.0, score)), label))

    def result(self) -> DimensionScore | None:
        if not self.scored:
            return None
        total = sum(w for w, _, _ in self.scored)
        score = sum(w * s for w, s, _ in self.scored) / total
        reason = ", ".join(label for _, _, label in self.scored)
        if self.missing:
            reason += f" (not measured: {', '.join(self.missing)})"
        return DimensionScore(round(score, 1), reason)


def _maturity(repo: Repository, sig: RepoSignals, now: datetime) -> DimensionScore | None:
    parts = _Parts()
    years = _years(repo.created_at, now)
    parts.add(0.35, None if years is None else 10 * min(1.0, years / 4), f"{years:.1f} yrs old" if years is not None else "", "age")
    parts.add(0.25, None if sig.releases is None else log_scale(sig.releases, 50), f"{sig.releases} releases", "releases")
    stable = _stable_version_score(sig.latest_release)
    if sig.latest_release:
        parts.add(0.10, stable, f"latest {sig.latest_release}", "version number")
    parts.add(0.20, log_scale(repo.stars, 50_000), f"{human(repo.stars)} stars", "stars")
    licensed = True if repo.license else sig.has_license
    label = f"{repo.license} license" if repo.license else ("licensed" if licensed else "no license")
    parts.add(0.10, None if licensed is None else 10.0 * licensed, label, "license")
    return parts.result()


def _activity(repo: Repository, sig: RepoSignals, now: datetime) -> DimensionScore | None:
    parts = _Parts()
    push_days = days_since(repo.pushed_at, now)
    parts.add(0.35, recency_score(push_days), f"last push {_ago(push_days)}", "last push")
    parts.add(0.30, None if sig.commits_90d is None else log_scale(sig.commits_90d, 150), f"{sig.commits_90d} commits in 90d", "commits 90d")
    parts.add(0.15, None if sig.commits_30d is None else log_scale(sig.commits_30d, 50), f"{sig.commits_30d} in 30d", "commits 30d")
    rel_days = days_since(sig.latest_release_at, now)
    parts.add(0.20, recency_score(rel_days), f"last release {_ago(rel_days)}", "release date")
    return parts.result()


def _community(repo: Repository, sig: RepoSignals) -> DimensionScore | None:
    parts = _Parts()
    parts.add(0.30, None if sig.contributors is None else log_scale(sig.contributors, 300), f"{sig.contributors} contributors", "contributors")
    parts.add(0.20, log_scale(repo.forks, 10_000), f"{human(repo.forks)} forks", "forks")
    if repo.star_growth_12m is not None:
        parts.add(0.20, log_scale(max(0, repo.star_growth_12m), 20_000), f"+{human(max(0, repo.star_growth_12m))} stars/12mo", "")
    elif repo.star_growth_6m is not None:
        parts.add(0.20, log_scale(max(0, repo.star_growth_6m), 10_000), f"+{human(max(0, repo.star_growth_6m))} stars/6mo", "")
    else:
        parts.missing.append("star growth")
    profile = _profile_score(sig)
    parts.add(0.30, profile[0] if profile else None, profile[1] if profile else "", "community files")
    return parts.result()


def _maintenance(repo: Repository, sig: RepoSignals) -> DimensionScore | None:
    parts = _Parts()
    hours = sig.median_first_response_hours
    parts.add(0.30, None if hours is None else interpolate(hours, _RESPONSE_HOURS), f"first response ~{hours:.0f}h" if hours is not None else "", "response time")
    closed, open_ = sig.closed_issues_90d, sig.open_issues_only
    closure = None if closed is None or open_ is None else (10.0 if closed + open_ == 0 else 10 * min(1.0, closed / max(1, open_) / 0.5))
    parts.add(0.25, closure, f"{closed} issues closed/90d vs {open_} open", "issue closure")
    merged, pulls = sig.merged_pulls_90d, sig.open_pulls
    flow = None if merged is None or pulls is None or merged + pulls == 0 else 10 * merged / (merged + pulls)
    parts.add(0.25, flow, f"{merged} PRs merged/90d vs {pulls} open", "PR flow")
    if repo.open_issues is not None:
        per_k = repo.open_issues * 1000 / max(repo.stars, 1000)
        parts.add(0.20, interpolate(per_k, _BACKLOG_PER_1K), f"{repo.open_issues:,} open issues+PRs", "")
    else:
        parts.missing.append("open issue count")
    return parts.result()


# -- text dimensions (the heuristic TextScorer) ---------------------------------------------------


def heuristic_text_scores(
    repo: Repository, signals: RepoSignals | None, params: SearchParams | None, readme: str | None
) -> TextScores:
    sig = signals or RepoSignals()
    facts = analyze_readme(readme) if readme else None
    rel = relevance(repo, compile_terms(params), readme)
    return TextScores(
        documentation=_documentation(repo, sig, facts),
        ease_of_use=_ease_of_use(facts),
        relevance=DimensionScore(rel.score, rel.reason) if rel else None,
    )


def _documentation(repo: Repository, sig: RepoSignals, facts: ReadmeFacts | None) -> DimensionScore | None:
    if facts is not None:
        score = (
            3 * log_scale(facts.chars, 8000) / 10
            + 2 * min(1.0, facts.headings / 6)
            + 2 * min(1.0, facts.code_blocks / 3)
            + 1.5 * (facts.has_install_section or facts.has_install_command)
            + 1.0 * (facts.has_usage_section or facts.has_examples_section)
            + 0.5 * facts.has_docs_link
        )
        return DimensionScore(score, "README: " + facts.summary())
    if sig.readme_chars is not None:
        return DimensionScore(log_scale(sig.readme_chars, 8000), f"README length only ({human(sig.readme_chars)} chars)")
    if sig.has_readme is False:
        return DimensionScore(0.0, "no README")
    desc = (repo.description or "").strip()
    if not desc and not repo.topics and not repo.homepage:
        return None
    score = (2.0 if len(desc) >= 20 else 1.0 if desc else 0.0) + (0.5 if len(desc) >= 80 else 0.0)
    score += min(1.0, len(repo.topics) / 3) + (0.5 if repo.homepage else 0.0)
    return DimensionScore(min(DOC_FALLBACK_CAP, score), "no README available; from the description/topics only (max 4)")


def _ease_of_use(facts: ReadmeFacts | None) -> DimensionScore | None:
    if facts is None:
        return None  # nothing measurable without the README
    score = (
        2.5 * facts.has_install_section
        + 2.5 * facts.has_install_command
        + 2.0 * facts.has_usage_section
        + 1.5 * facts.has_examples_section
        + 1.5 * min(1.0, facts.code_blocks / 3)
    )
    found = [n for n, ok in (("install steps", facts.has_install_section), ("install command", facts.has_install_command),
                             ("usage/quick start", facts.has_usage_section), ("examples", facts.has_examples_section)) if ok]
    return DimensionScore(score, "README has " + (", ".join(found) if found else "no install/usage guidance"))


# -- helpers --------------------------------------------------------------------------------------

_RECENCY_DAYS: Sequence[tuple[float, float]] = ((0, 10), (7, 10), (30, 9), (90, 7), (180, 5), (365, 3), (730, 1), (1095, 0))
_RESPONSE_HOURS: Sequence[tuple[float, float]] = ((0, 10), (24, 10), (72, 8), (168, 6), (720, 3), (2160, 1), (4320, 0))
_BACKLOG_PER_1K: Sequence[tuple[float, float]] = ((0, 10), (5, 10), (10, 8), (25, 6), (50, 4), (100, 2), (200, 0))


def log_scale(value: float, full: float) -> float:
    """0 at 0, 10 at ``full`` and above, logarithmic in between."""
    if value <= 0:
        return 0.0
    return 10 * min(1.0, math.log10(1 + value) / math.log10(1 + full))


def interpolate(x: float, points: Sequence[tuple[float, float]]) -> float:
    """Piecewise-linear through ``points`` (x ascending), flat outside them."""
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def recency_score(days: float | None) -> float | None:
    return None if days is None else interpolate(days, _RECENCY_DAYS)


def human(n: int | float) -> str:
    n = int(n)
    if abs(n) >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if abs(n) >= 10_000:
        return f"{n / 1000:.0f}k"
    if abs(n) >= 1000:
        return f"{n / 1000:.1f}k"
    return str(n)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def days_since(value: datetime | None, now: datetime) -> float | None:
    return None if value is None else max(0.0, (_aware(now) - _aware(value)).total_seconds() / 86400)


def _years(value: datetime | None, now: datetime) -> float | None:
    days = days_since(value, now)
    return None if days is None else days / 365.25


def _ago(days: float | None) -> str:
    if days is None:
        return ""
    if days < 1:
        return "today"
    if days < 60:
        return f"{days:.0f}d ago"
    if days < 730:
        return f"{days / 30.4:.0f}mo ago"
    return f"{days / 365.25:.1f}y ago"


def _stable_version_score(tag: str | None) -> float | None:
    """10 for a 1.0+ (or calendar) version, 4 for 0.x, None when the tag has no number."""
    if not tag:
        return None
    digits = tag.lstrip("vV").split(".")[0]
    if not digits.isdigit():
        return None
    return 10.0 if int(digits) >= 1 else 4.0


def _profile_score(sig: RepoSignals) -> tuple[float, str] | None:
    if sig.health_percentage is not None:
        return sig.health_percentage / 10, f"community profile {sig.health_percentage}%"
    files = {
        "CONTRIBUTING": sig.has_contributing,
        "code of conduct": sig.has_code_of_conduct,
        "issue template": sig.has_issue_template,
        "PR template": sig.has_pull_request_template,
    }
    known = {k: v for k, v in files.items() if v is not None}
    if not known:
        return None
    present = [k for k, v in known.items() if v]
    label = ("has " + ", ".join(present)) if present else "no community files"
    return 10 * len(present) / len(known), label
