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

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

from core.models import DIMENSIONS, DimensionScores, Repository, RepoSignals, ScoredRepository, SearchParams
from core.search.fit import FLOOR
from core.search.measures import (
    DimensionScore,
    Parts,
    ago,
    days_since,
    human,
    interpolate,
    log_scale,
    recency_score,
    years_since,
)
from core.search.text_scores import (
    HeuristicTextScorer,
    TextScorer,
    TextScores,
    heuristic_text_scores,
)

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
RESPONSE_HOURS: Sequence[tuple[float, float]] = ((0, 10), (24, 10), (72, 8), (168, 6), (720, 3), (2160, 1), (4320, 0))
BACKLOG_PER_1K: Sequence[tuple[float, float]] = ((0, 10), (5, 10), (10, 8), (25, 6), (50, 4), (100, 2), (200, 0))


def score_repository(
    repo: Repository,
    signals: RepoSignals | None,
    params: SearchParams | None = None,
    readme: str | None = None,
    *,
    now: datetime,
    text: TextScores | None = None,
    closeness: float | None = None,
) -> DimensionScores:
    """Score ``repo`` on every dimension; ``text`` (from an LLM) overrides the heuristics it covers.
    With ``closeness`` (in meaning to the need, ``core.search.fit``; not given where an LLM judged
    relevance), relevance is the higher of what the words match and what the meaning says."""
    sig = signals or RepoSignals()
    dims: dict[str, DimensionScore | None] = {
        "maturity": _maturity(repo, sig, now),
        "activity": _activity(repo, sig, now),
        "community": _community(repo, sig),
        "maintenance": _maintenance(repo, sig),
    }
    given = {name: getattr(text, name) if text else None for name in TEXT_DIMENSIONS}
    heuristic = None if all(given.values()) else heuristic_text_scores(repo, sig, params, readme)
    for name in TEXT_DIMENSIONS:
        dims[name] = given[name] or getattr(heuristic, name)
    if closeness is not None:
        by_meaning = meaning_relevance(closeness)
        by_words = dims["relevance"]
        dims["relevance"] = by_meaning if by_words is None or by_meaning.score > by_words.score else by_words
    return combine(dims)


MEANING_NONE = FLOOR  # closeness in meaning that scores relevance 0: the floor under which nothing fits
MEANING_FULL = 0.80  # and the closeness that scores it 10: most expected answers are 0.6-0.9 close


def meaning_relevance(closeness: float) -> DimensionScore:
    """Relevance read from closeness in meaning, 0 at ``MEANING_NONE`` to 10 at ``MEANING_FULL``: a
    result that is what was asked for in other words ("AWS setup described in code" -> terraform)
    is relevant though few words match, and one that barely clears the floor scores near 0."""
    score = 10 * (closeness - MEANING_NONE) / (MEANING_FULL - MEANING_NONE)
    reason = ("close in meaning to the request" if score >= 6 else
              "related in meaning to the request" if score >= 3 else "only loosely related to the request")
    return DimensionScore(min(10.0, max(0.0, score)), reason)


def combine(dims: dict[str, DimensionScore | None]) -> DimensionScores:
    """Build ``DimensionScores``: overall = weighted mean over the measured dimensions."""
    values: dict[str, float | None] = {}
    reasons: dict[str, str] = {}
    unmeasured: list[str] = []
    for name in DIMENSIONS:
        dim = dims.get(name)
        if dim is None:
            unmeasured.append(name)
            values[name] = None
            reasons[name] = "not measured (no signal available)"
        else:
            values[name] = round(min(10.0, max(0.0, dim.score)), 1)
            reasons[name] = dim.reason
    measured = [d for d in DIMENSIONS if d not in unmeasured]
    weight = sum(WEIGHTS[d] for d in measured)
    overall = sum(WEIGHTS[d] * (values[d] or 0.0) for d in measured) / weight if weight else 0.0
    return DimensionScores(**values, overall=round(overall, 2), reasons=reasons, unmeasured=unmeasured)


def rank_key(item: ScoredRepository) -> tuple[float, float, int, float]:
    """Sort key: overall, then the tie-break relevance -> stars -> activity (all descending)."""
    s = item.scores
    return (-s.overall, -(s.relevance or 0.0), -item.stars, -(s.activity or 0.0))


# -- the parts ------------------------------------------------------------------------------------


def _maturity(repo: Repository, sig: RepoSignals, now: datetime) -> DimensionScore | None:
    parts = Parts()
    years = years_since(repo.created_at, now)
    parts.add(0.35, None if years is None else 10 * min(1.0, years / 4), f"{years:.1f} yrs old" if years is not None else "", "age")
    parts.add(0.25, None if sig.releases is None else log_scale(sig.releases, 50), f"{sig.releases} releases", "releases")
    stable = _stable_version_score(sig.latest_release)
    if sig.latest_release:
        parts.add(0.10, stable, f"latest {sig.latest_release}", "version number")
    stars = repo.measured_stars
    parts.add(0.20, None if stars is None else log_scale(stars, 50_000), f"{human(stars or 0)} stars", "stars")
    licensed = True if repo.license else sig.has_license
    label = f"{repo.license} license" if repo.license else ("licensed" if licensed else "no license")
    parts.add(0.10, None if licensed is None else 10.0 * licensed, label, "license")
    return parts.result()


def _activity(repo: Repository, sig: RepoSignals, now: datetime) -> DimensionScore | None:
    parts = Parts()
    push_days = days_since(repo.pushed_at, now)
    parts.add(0.35, recency_score(push_days), f"last push {ago(push_days, now)}", "last push")
    parts.add(0.30, None if sig.commits_90d is None else log_scale(sig.commits_90d, 150), f"{sig.commits_90d} commits in 90d", "commits 90d")
    parts.add(0.15, None if sig.commits_30d is None else log_scale(sig.commits_30d, 50), f"{sig.commits_30d} in 30d", "commits 30d")
    rel_days = days_since(sig.latest_release_at, now)
    parts.add(0.20, recency_score(rel_days), f"last release {ago(rel_days, now)}", "release date")
    return parts.result()


def _community(repo: Repository, sig: RepoSignals) -> DimensionScore | None:
    parts = Parts()
    if sig.contributors is None and sig.recent_committers is not None:  # GraphQL: no all-time count
        parts.add(0.30, log_scale(sig.recent_committers, 30), f"{sig.recent_committers} recent committers", "contributors")
    else:
        parts.add(0.30, None if sig.contributors is None else log_scale(sig.contributors, 300), f"{sig.contributors} contributors", "contributors")
    forks = repo.measured_forks
    parts.add(0.20, None if forks is None else log_scale(forks, 10_000), f"{human(forks or 0)} forks", "forks")
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
    parts = Parts()
    hours = sig.median_first_response_hours
    parts.add(0.30, None if hours is None else interpolate(hours, RESPONSE_HOURS), f"first response ~{hours:.0f}h" if hours is not None else "", "response time")
    closed, open_ = sig.closed_issues_90d, sig.open_issues_only
    closure = None if closed is None or open_ is None else (10.0 if closed + open_ == 0 else 10 * min(1.0, closed / max(1, open_) / 0.5))
    parts.add(0.25, closure, f"{closed} issues closed/90d vs {open_} open", "issue closure")
    merged, pulls = sig.merged_pulls_90d, sig.open_pulls
    flow = None if merged is None or pulls is None or merged + pulls == 0 else 10 * merged / (merged + pulls)
    parts.add(0.25, flow, f"{merged} PRs merged/90d vs {pulls} open", "PR flow")
    if repo.open_issues is not None:
        per_k = repo.open_issues * 1000 / max(repo.stars, 1000)
        parts.add(0.20, interpolate(per_k, BACKLOG_PER_1K), f"{repo.open_issues:,} open issues+PRs", "")
    else:
        parts.missing.append("open issue count")
    return parts.result()


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


__all__ = [  # TextScorer & co. live in text_scores; re-exported because callers import them from here
    "WEIGHTS",
    "DimensionScore",
    "HeuristicTextScorer",
    "TextScorer",
    "TextScores",
    "combine",
    "days_since",
    "heuristic_text_scores",
    "human",
    "rank_key",
    "recency_score",
    "score_repository",
]
