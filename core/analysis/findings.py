"""Main findings: short plain-language sentences built from measured numbers only.

Technical terms are explained the first time they appear ("pull requests (proposed code
changes)", "bus factor (how many people could leave before the project stalls)").
"""

from __future__ import annotations

import re
from datetime import datetime

from core.analysis.format import ago, committers, compact, days_since, hours, plural, span
from core.analysis.metrics import community_files
from core.models import DimensionScores, Repository, RepoSignals

# recent committers (distinct authors of the last <= 100 commits), when contributors are unknown
FEW_COMMITTERS = 3
BROAD_COMMITTERS = 25

MAX_FINDINGS = 7
_DIMENSION_NAMES = {
    "maturity": "maturity",
    "activity": "activity",
    "documentation": "documentation",
    "community": "community",
    "ease_of_use": "ease of use",
    "maintenance": "maintenance",
}


def build_findings(
    repo: Repository, signals: RepoSignals, scores: DimensionScores | None, *, now: datetime
) -> list[str]:
    facts = [
        *_status(repo, now),
        *_activity(signals),
        *_releases(signals, now),
        *_maintenance(repo, signals),
        *_community(repo, signals),
    ]
    summary = _scores(scores)  # always kept: it ties the numbers to the scores
    return facts[: MAX_FINDINGS - len(summary)] + summary


def _status(repo: Repository, now: datetime) -> list[str]:
    if repo.archived:
        return ["It is archived (read-only): nobody will fix bugs or review changes."]
    idle = days_since(repo.pushed_at, now)
    if idle is not None and idle > 365:
        return [f"No code has been pushed for {span(idle)}, so it may be abandoned."]
    if idle is not None and idle > 90:
        return [f"Activity has slowed: the last push was {ago(repo.pushed_at, now)}."]
    return []


def _activity(s: RepoSignals) -> list[str]:
    if s.commits_90d is None:
        return []
    if s.commits_90d == 0:
        return ["No commits in the last 90 days."]
    per_week = s.commits_90d / 13
    pace = "Very active" if s.commits_90d >= 100 else "Active" if s.commits_90d >= 10 else "Quiet"
    recent = f", {s.commits_30d:,} of them in the last 30" if s.commits_30d is not None else ""
    return [f"{pace}: {plural(s.commits_90d, 'commit')} in the last 90 days{recent} "
            f"(about {per_week:.0f} a week)." if per_week >= 1 else
            f"{pace}: {plural(s.commits_90d, 'commit')} in the last 90 days{recent}."]


def _releases(s: RepoSignals, now: datetime) -> list[str]:
    if s.releases is None:
        return []
    if s.releases == 0:
        return ["It has never published a release (a packaged, versioned download), so you "
                "would depend on the main branch directly."]
    age = days_since(s.latest_release_at, now)
    latest = s.latest_release or "the latest release"
    if age is not None and age > 365:
        return [f"No release in {span(age)}: {latest} is the newest of "
                f"{plural(s.releases, 'release')}."]
    when = f", {ago(s.latest_release_at, now)}" if age is not None else ""
    return [f"Ships regular releases: {plural(s.releases, 'release')}, the latest {latest}{when}."]


def _maintenance(repo: Repository, s: RepoSignals) -> list[str]:
    out: list[str] = []
    rt = s.median_first_response_hours
    if rt is not None:
        if rt <= 72:
            out.append(f"Maintainers are responsive: the median time to a first reply on recent "
                       f"issues is {hours(rt)} ('time to first response' is how long a new issue "
                       "waits for any maintainer comment).")
        elif rt > 14 * 24:
            out.append(f"Slow to respond: new issues wait about {hours(rt)} for a first reply "
                       "(median).")
    open_issues = s.open_issues_only
    closed = s.closed_issues_90d
    backlog = open_issues is not None and closed is not None and open_issues >= 50
    if backlog and closed < open_issues / 10:
        handled = f"only {closed:,}" if closed else "none"
        out.append(f"Growing backlog: {open_issues:,} open issues, but {handled} closed in "
                   "the last 90 days.")
    elif open_issues is not None and closed is not None and closed >= 20:
        out.append(f"Issues get handled: {closed:,} closed in the last 90 days "
                   f"({open_issues:,} still open).")
    if s.merged_pulls_90d:
        out.append(f"{plural(s.merged_pulls_90d, 'pull request')} (proposed code changes) "
                   "merged in the last 90 days.")
    return out


def _community(repo: Repository, s: RepoSignals) -> list[str]:
    out: list[str] = []
    if s.contributors is not None and s.contributors <= 3:
        out.append(f"Small team: only {plural(s.contributors, 'contributor')}, a low 'bus factor' "
                   "(how many people could leave before the project stalls).")
    elif s.contributors is not None and s.contributors >= 50:
        out.append(f"Broad community: {compact(s.contributors)} contributors.")
    elif s.contributors is None and s.recent_committers and s.recent_commits_sampled:
        people, sampled = s.recent_committers, s.recent_commits_sampled
        if people <= FEW_COMMITTERS:
            out.append(f"Small team: {committers(people, sampled)}, a low 'bus factor' "
                       "(how many people could leave before the project stalls).")
        elif people >= BROAD_COMMITTERS:
            out.append(f"Broad community: {committers(people, sampled)}.")
    g = repo.star_growth_12m
    if g is not None and repo.stars:
        share = g / max(1, repo.stars - g)
        if g > 0 and share >= 0.2:
            out.append(f"Growing fast: {compact(g)} new stars in 12 months "
                       f"({share:.0%} more than a year ago).")
        elif g > 0:
            out.append(f"Still gaining users: {compact(g)} new stars in 12 months.")
        else:
            out.append("Interest has plateaued: no star growth over the last 12 months.")
    files = community_files(s)
    if files is not None and not s.has_contributing and not s.has_code_of_conduct:
        out.append("No CONTRIBUTING guide or code of conduct, so newcomers get little guidance.")
    if not repo.license and s.has_license is False:
        out.append("No license: legally, you may not reuse the code without the authors' permission.")
    return out


def _scores(scores: DimensionScores | None) -> list[str]:
    if scores is None:
        return []
    measured = {d: v for d, v in scores.measured().items() if d in _DIMENSION_NAMES}
    if len(measured) < 2:
        return []
    best = max(measured, key=measured.__getitem__)
    worst = min(measured, key=measured.__getitem__)
    if measured[best] - measured[worst] < 1.5:
        return [f"Balanced profile: every measured dimension scores between "
                f"{measured[worst]:.1f} and {measured[best]:.1f} out of 10."]
    return [f"Strongest area: {_DIMENSION_NAMES[best]} ({measured[best]:.1f}/10); weakest: "
            f"{_DIMENSION_NAMES[worst]} ({measured[worst]:.1f}/10){_why(scores, worst)}."]


def _why(scores: DimensionScores, dimension: str) -> str:
    reason = re.sub(r"\s*\(not measured:[^)]*\)", "", scores.reasons.get(dimension, ""))
    reason = reason.strip().rstrip(".")
    if len(reason) > 90:
        reason = reason[:89].rstrip() + "…"
    return f", from {reason}" if reason else ""
