"""Per-repo highlights and warnings, need-weighted fit, and the final pick of a comparison.

Highlights are comparative ("Most active: 120 commits in the last 90 days") and only name a
leader when at least two repos were measured and one is strictly ahead. Warnings are absolute
("No release in 14 months"). Every sentence quotes a measured number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from core.analysis.format import ago, committers, compact, days_since, hours, plural, signed, span
from core.analysis.need import COMPARE_DIMENSIONS, Need
from core.models import ScoredRepository

STALE_DAYS = 365
SLOWING_DAYS = 180
OLD_RELEASE_DAYS = 365
SLOW_RESPONSE_HOURS = 7 * 24.0
FEW_CONTRIBUTORS = 3
TIE_MARGIN = 0.2  # best fits closer than this are too close to call: no winner is claimed
LEAD_MARGIN = 0.05  # a leader must be at least 5% ahead of the runner-up (no "wins" by a hair)
DIMENSION_LABELS = {
    "maturity": "maturity", "activity": "activity", "documentation": "documentation",
    "community": "community", "ease_of_use": "ease of use", "maintenance": "maintenance",
}


def fit_score(repo: ScoredRepository, weights: dict[str, float]) -> float | None:
    """Weighted mean of the measured dimensions (unmeasured ones are left out, weights renormalized)."""
    unmeasured = set(repo.scores.unmeasured)
    used = {d: w for d, w in weights.items() if d in COMPARE_DIMENSIONS and d not in unmeasured}
    total = sum(used.values())
    if not total:
        return None
    return round(sum(w * getattr(repo.scores, d) for d, w in used.items()) / total, 2)


def highlights(repos: list[ScoredRepository], *, now: datetime) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {r.full_name: [] for r in repos}

    def lead(metric: Callable[[ScoredRepository], float | None], text: Callable[[ScoredRepository], str],
             lowest: bool = False, margin: float = LEAD_MARGIN) -> None:
        measured = [(v, r) for r in repos if (v := metric(r)) is not None]
        if len(measured) < 2:
            return
        ordered = sorted(measured, key=lambda x: x[0], reverse=not lowest)
        (best, leader), (second, _) = ordered[0], ordered[1]
        ahead = best < second - abs(second) * margin if lowest else best > second + abs(second) * margin
        if ahead:
            out[leader.full_name].append(text(leader))

    lead(lambda r: r.measured_stars, lambda r: f"Most popular: {compact(r.stars)} stars", margin=0.0)
    lead(lambda r: _sig(r, "commits_90d"),
         lambda r: f"Most active: {plural(_sig(r, 'commits_90d'), 'commit')} in the last 90 days")
    if all(_sig(r, "commits_90d") is None for r in repos):
        lead(lambda r: -d if (d := days_since(r.pushed_at, now)) is not None else None,
             lambda r: f"Most recently updated: last push {ago(r.pushed_at, now)}", margin=0.0)
    lead(lambda r: r.star_growth_12m if r.star_growth_12m and r.star_growth_12m > 0 else None,
         lambda r: f"Fastest growing: {signed(r.star_growth_12m or 0)} stars in 12 months")
    lead(lambda r: _sig(r, "contributors"),
         lambda r: f"Largest contributor base: {compact(_sig(r, 'contributors'))} contributors")
    lead(lambda r: _sig(r, "recent_committers") if _sig(r, "recent_commits_sampled") else None,
         lambda r: "Most people committing: "
                   f"{committers(_sig(r, 'recent_committers'), _sig(r, 'recent_commits_sampled'))}")
    lead(lambda r: _sig(r, "median_first_response_hours"),
         lambda r: f"Quickest to respond: first reply to new issues within "
                   f"{hours(_sig(r, 'median_first_response_hours'))} (median)",
         lowest=True)
    lead(lambda r: _sig(r, "merged_pulls_90d"),
         lambda r: f"Most merged pull requests: {_sig(r, 'merged_pulls_90d'):,} in the last 90 days")
    lead(lambda r: -d if (d := days_since(_sig(r, "latest_release_at"), now)) is not None else None,
         lambda r: f"Most recent release: {_sig(r, 'latest_release') or 'a release'} "
                   f"({ago(_sig(r, 'latest_release_at'), now)})", margin=0.0)
    for r in repos:
        if _sig(r, "has_contributing") and sum(bool(_sig(o, "has_contributing")) for o in repos) == 1:
            out[r.full_name].append("The only one with a CONTRIBUTING guide for newcomers")
    return out


def warnings(repo: ScoredRepository, *, now: datetime) -> list[str]:
    out: list[str] = []
    idle = days_since(repo.pushed_at, now)
    if repo.archived:
        out.append("Archived: read-only, so no more fixes or reviews")
    elif idle is not None and idle > STALE_DAYS:
        out.append(f"No code pushed in {span(idle)}: it may be abandoned")
    elif idle is not None and idle > SLOWING_DAYS:
        out.append(f"Slowing down: the last push was {span(idle)} ago")
    if _sig(repo, "commits_90d") == 0 and not repo.archived:
        out.append("No commits in the last 90 days")
    releases = _sig(repo, "releases")
    release_age = days_since(_sig(repo, "latest_release_at"), now)
    if releases == 0:
        out.append("No published releases: you would depend on the main branch")
    elif release_age is not None and release_age > OLD_RELEASE_DAYS:
        out.append(f"No release in {span(release_age)}")
    if not repo.license and _sig(repo, "has_license") is False:
        out.append("No license: reuse terms are unclear")
    rt = _sig(repo, "median_first_response_hours")
    if rt is not None and rt > SLOW_RESPONSE_HOURS:
        out.append(f"Slow to respond: about {hours(rt)} to a first reply on new issues (median)")
    contributors = _sig(repo, "contributors")
    if contributors is not None and contributors <= FEW_CONTRIBUTORS:
        out.append(f"Only {plural(contributors, 'contributor')}: a low 'bus factor' (few people "
                   "could stall it by leaving)")
    people, sampled = _sig(repo, "recent_committers"), _sig(repo, "recent_commits_sampled")
    if contributors is None and people and sampled and people <= FEW_CONTRIBUTORS:
        out.append(f"Only {committers(people, sampled)}: a low 'bus factor' (few people "
                   "could stall it by leaving)")
    open_issues, closed = _sig(repo, "open_issues_only"), _sig(repo, "closed_issues_90d")
    backlog = open_issues is not None and closed is not None and open_issues >= 50
    if backlog and closed < open_issues / 10:
        handled = f"only {closed:,}" if closed else "none"
        out.append(f"Issue backlog: {open_issues:,} open, {handled} closed in 90 days")
    if repo.star_growth_12m is not None and repo.star_growth_12m <= 0:
        out.append("No star growth over the last 12 months")
    return out


@dataclass(frozen=True, slots=True)
class Pick:
    full_name: str | None  # None when the top fits are a tie
    reasons: list[str]
    tied: tuple[str, ...] = ()


def pick(
    repos: list[ScoredRepository], fits: dict[str, float | None], need: Need | None, *,
    now: datetime,
) -> Pick | None:
    """The repo to recommend: best fit, skipping archived/abandoned ones unless all are.

    When the best fits are within ``TIE_MARGIN`` no winner is named: the reasons say what would
    decide it (the dimension where they differ most, stars, growth).
    """
    if len(repos) < 2:
        return None

    def risky(r: ScoredRepository) -> bool:
        idle = days_since(r.pushed_at, now)
        return r.archived or (idle is not None and idle > STALE_DAYS)

    pool = [r for r in repos if not risky(r)] or repos
    ranked = sorted(pool, key=lambda r: (fits.get(r.full_name) or 0.0, r.scores.overall, r.stars),
                    reverse=True)
    best = ranked[0]
    tied = [r for r in ranked if _close(fits.get(r.full_name), fits.get(best.full_name))]
    if len(tied) > 1:
        return Pick(None, _tie_reasons(tied, fits, need), tuple(r.full_name for r in tied))
    others = [r for r in repos if r is not best]
    best_fit = fits.get(best.full_name)
    reasons: list[str] = []
    if best_fit is not None:
        rest = ", ".join(f"{fits[o.full_name]:.1f} for {o.full_name}" for o in others
                         if fits.get(o.full_name) is not None)
        target = f" for {need.text}" if need else ""
        reasons.append(f"Best fit{target}: {best_fit:.1f}/10" + (f" (vs {rest})" if rest else ""))
        if need and need.profiles:
            reasons.append(f"For {need.text}, {need.why}.")
    elif best.figures_known:
        reasons.append(f"Most popular and recently updated of the group ({compact(best.stars)} stars)")
    else:
        reasons.append("Known offline only from curated lists: no star or activity figures to compare")
    unmeasured = [r.full_name for r in others if not r.figures_known]
    if unmeasured:
        reasons.append(f"No star or activity figures offline for {', '.join(unmeasured)} (known only "
                       "from curated lists), so the figures could not speak for it.")
    skipped = [r.full_name for r in repos if risky(r) and r is not best]
    if skipped and len(pool) < len(repos):
        reasons.append(f"I didn't pick {', '.join(skipped)}: archived or not updated in over a "
                       "year.")
    split = _split_lead(best, (ranked[1:] or others)[0])
    if split:
        reasons.append(split)
    runner = _runner_up_edge(best, ranked[1:] or others)
    if runner:
        reasons.append(runner)
    return Pick(best.full_name, reasons)


def _split_lead(best: ScoredRepository, runner: ScoredRepository) -> str | None:
    """When the runner-up leads on more dimensions than the pick, say that the pick wins on few
    (naming its biggest lead) and where the runner-up is ahead -- a higher overall score alone
    would read as "better at everything"."""
    dims = [d for d in COMPARE_DIMENSIONS if d not in best.scores.unmeasured and d not in runner.scores.unmeasured]
    gap = {d: round(getattr(best.scores, d) - getattr(runner.scores, d), 1) for d in dims}
    ours = [d for d in dims if gap[d] > 0]
    theirs = [d for d in dims if gap[d] < 0]
    if not ours or len(theirs) <= len(ours):
        return None
    main = max(ours, key=lambda d: gap[d])
    head = (f"{best.full_name} wins mainly on {DIMENSION_LABELS[main]} "
            f"({getattr(best.scores, main):.1f} vs {getattr(runner.scores, main):.1f})")
    labels = _and([DIMENSION_LABELS[d] for d in theirs])
    if all(-gap[d] < gap[main] for d in theirs):
        return f"{head}; {runner.full_name} leads on {labels} by smaller margins."
    margins = ", ".join(f"{DIMENSION_LABELS[d]} {getattr(runner.scores, d):.1f} vs {getattr(best.scores, d):.1f}"
                        for d in theirs)
    return f"{head}; {runner.full_name} leads on {labels} ({margins})."


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _close(fit: float | None, best: float | None) -> bool:
    return fit is not None and best is not None and best - fit < TIE_MARGIN


def _tie_reasons(tied: list[ScoredRepository], fits: dict[str, float | None],
                 need: Need | None) -> list[str]:
    names = " and ".join(r.full_name for r in tied) if len(tied) == 2 else ", ".join(r.full_name for r in tied)
    values = " vs ".join(f"{fits[r.full_name]:.1f}" for r in tied)
    target = f" for {need.text}" if need else ""
    reasons = [f"Too close to call{target}: {names} fit equally well ({values} out of 10)"]
    reasons += deciders(tied)
    return reasons


def deciders(tied: list[ScoredRepository]) -> list[str]:
    """What could break a tie: the dimension where they differ most, popularity, growth."""
    out: list[str] = []
    dims = [d for d in COMPARE_DIMENSIONS if all(d not in r.scores.unmeasured for r in tied)]
    spread = {d: max(getattr(r.scores, d) for r in tied) - min(getattr(r.scores, d) for r in tied)
              for d in dims}
    if spread and (d := max(spread, key=spread.get)) and spread[d] >= 0.1:
        top = max(tied, key=lambda r: getattr(r.scores, d))
        rest = ", ".join(f"{getattr(r.scores, d):.1f}" for r in tied if r is not top)
        out.append(f"If {DIMENSION_LABELS[d]} matters most, {top.full_name} is ahead there "
                   f"({getattr(top.scores, d):.1f} vs {rest})")
    popular = max(tied, key=lambda r: r.stars)
    if all(r.figures_known for r in tied) and sum(r.stars == popular.stars for r in tied) == 1:
        rest = ", ".join(compact(r.stars) for r in tied if r is not popular)
        out.append(f"If a large user base matters most, {popular.full_name} has more stars "
                   f"({compact(popular.stars)} vs {rest})")
    growing = [r for r in tied if r.star_growth_12m]
    if len(growing) == len(tied):
        fastest = max(growing, key=lambda r: r.star_growth_12m or 0)
        rest = ", ".join(signed(r.star_growth_12m or 0) for r in growing if r is not fastest)
        out.append(f"If momentum matters, {fastest.full_name} is growing faster "
                   f"({signed(fastest.star_growth_12m or 0)} stars in 12 months vs {rest})")
    return out


def _runner_up_edge(best: ScoredRepository, others: list[ScoredRepository]) -> str | None:
    for other in others:
        edges = [d for d in COMPARE_DIMENSIONS
                 if d not in other.scores.unmeasured and d not in best.scores.unmeasured
                 and getattr(other.scores, d) - getattr(best.scores, d) >= 1.0]
        if edges:
            d = max(edges, key=lambda x: getattr(other.scores, x) - getattr(best.scores, x))
            return (f"Consider {other.full_name} if {DIMENSION_LABELS[d]} matters most: it scores "
                    f"{getattr(other.scores, d):.1f} vs {getattr(best.scores, d):.1f}.")
    return None


def _sig(repo: ScoredRepository, name: str):  # noqa: ANN202 - value type depends on the field
    return getattr(repo.signals, name) if repo.signals is not None else None
