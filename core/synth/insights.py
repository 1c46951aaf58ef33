"""Insights over a whole result set: languages, activity, growth, standout strengths."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date

from core.models import ScoredRepository
from core.synth.format import SnapshotDay, compact_number, days_since, signed
from core.synth.glossary import Explainer
from core.synth.phrases import join_words, plural

RECENT_DAYS = 90
STALE_DAYS = 365


def is_scored(repo: ScoredRepository) -> bool:
    s = repo.scores
    return s.overall > 0 or any(v > 0 for v in s.measured().values())


def quality_measured(repo: ScoredRepository) -> bool:
    """Whether anything about the repository itself was measured, not only how well it matches
    the request (a repository known only from curated lists has no figures offline)."""
    return any(dimension != "relevance" for dimension in repo.scores.measured())


def unmeasured(repo: ScoredRepository) -> set[str]:
    """Dimensions with no measured signal (``None``, shown as "n/a", never as a zero)."""
    return set(repo.scores.unmeasured)


def dimension_value(repo: ScoredRepository, dim: str) -> float | None:
    return None if dim in unmeasured(repo) else getattr(repo.scores, dim)


def strongest_dimensions(repo: ScoredRepository, n: int = 2, *, minimum: float = 6.0) -> list[str]:
    """The repo's best dimensions (relevance excluded: it describes the query, not the repo)."""
    skip = unmeasured(repo) | {"relevance"}
    ranked = sorted(
        ((value, dim) for dim, value in repo.scores.measured().items() if dim not in skip),
        reverse=True,
    )
    return [dim for value, dim in ranked[:n] if value >= minimum]


def language_insight(repos: Sequence[ScoredRepository]) -> str | None:
    counts = Counter(r.language for r in repos if r.language)
    if not counts:
        return None
    total = len(repos)
    top = counts.most_common(3)
    parts = [f"{lang} ({count})" for lang, count in top]
    rest = total - sum(count for _, count in top)
    if rest > 0:
        parts.append(f"other or unknown ({rest})")
    if len(counts) == 1 and rest == 0:
        return f"**Languages:** all {plural(total, 'result')} are written in {top[0][0]}."
    return f"**Languages:** {join_words(parts)}."


def activity_insight(
    repos: Sequence[ScoredRepository], today: date, explain: Explainer
) -> str | None:
    ages = [d for r in repos if (d := days_since(r.pushed_at, today)) is not None]
    archived = sum(1 for r in repos if r.archived)
    commits = sorted(r.signals.commits_90d for r in repos if r.signals and r.signals.commits_90d is not None)
    if not ages and not archived and not commits:
        return None
    parts: list[str] = []
    if ages:
        recent = sum(1 for d in ages if d <= RECENT_DAYS)
        stale = sum(1 for d in ages if d > STALE_DAYS)
        window = "the 3 months before the snapshot" if isinstance(today, SnapshotDay) else "the last 3 months"
        parts.append(f"{recent} of {len(ages)} had code changes in {window}")
        if stale:
            parts.append(f"{stale} {'has' if stale == 1 else 'have'} seen none for over a year")
    if commits:
        median = commits[len(commits) // 2]
        parts.append(f"a typical project made {plural(median, 'commit')} in the last 90 days")
    if archived:
        parts.append(f"{archived} {'is' if archived == 1 else 'are'} {explain('archived')}")
    text = "; ".join(parts)
    return f"**Activity:** {text[0].upper()}{text[1:]}."


def growth_insight(repos: Sequence[ScoredRepository]) -> str | None:
    best: tuple[int, str, ScoredRepository] | None = None
    for repo in repos:
        for growth, window in ((repo.star_growth_12m, "12 months"), (repo.star_growth_6m, "6 months")):
            if growth is not None and growth > 0:
                if best is None or growth > best[0]:
                    best = (growth, window, repo)
                break
    if best is None:
        return None
    growth, window, repo = best
    return (
        f"**Growth:** {repo.full_name} is rising fastest, with {signed(growth)} stars "
        f"in the last {window}."
    )


def popularity_insight(repos: Sequence[ScoredRepository]) -> str | None:
    stars = sorted(s for r in repos if (s := r.measured_stars) is not None)
    if len(stars) < 2:
        return None
    return f"**Popularity:** from {compact_number(stars[0])} to {compact_number(stars[-1])} stars."


def result_set_insights(
    repos: Sequence[ScoredRepository], today: date, explain: Explainer
) -> list[str]:
    found = [
        language_insight(repos),
        activity_insight(repos, today, explain),
        growth_insight(repos),
        popularity_insight(repos),
    ]
    return [line for line in found if line]
