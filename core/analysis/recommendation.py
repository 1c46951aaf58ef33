"""Contribute / watch / avoid: transparent rules over measured facts (see notes/analysis.md).

AVOID      archived, or no push for more than a year.
CONTRIBUTE active (a push in the last 90 days and, when measured, at least one commit in the
           last 90 days), at least one sign that outside contributions are welcome (CONTRIBUTING
           guide, median first response within 3 days, 5+ pull requests merged in 90 days, 10+
           contributors; offline: 200+ forks and a push in the last 30 days), and no blocker.
WATCH      everything else; blockers are a known missing license, a median first response
           slower than two weeks, or no push for 3-12 months.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.analysis.format import ago, committers, compact, days_since, hours, plural, span
from core.models import Recommendation, Repository, RepoSignals

STALE_DAYS = 365
RECENT_PUSH_DAYS = 90
FRESH_PUSH_DAYS = 30
RESPONSIVE_HOURS = 72.0
SLOW_RESPONSE_HOURS = 14 * 24.0
MERGED_PULLS_WELCOMING = 5
MANY_CONTRIBUTORS = 10  # all-time contributors, or recent committers when only those are known
OFFLINE_FORKS_PROXY = 200
MAX_REASONS = 4


@dataclass(frozen=True, slots=True)
class Verdict:
    recommendation: Recommendation
    reasons: list[str]


def recommend(
    repo: Repository, signals: RepoSignals, *, now: datetime, source_kind: str
) -> Verdict:
    idle = days_since(repo.pushed_at, now)
    pushed = ago(repo.pushed_at, now) or "unknown"  # "3 days ago", or "... before the snapshot"
    if repo.archived:
        return Verdict(Recommendation.AVOID, [
            "It is archived: the owners made it read-only, so it gets no fixes and accepts no "
            "contributions.",
        ])
    if idle is not None and idle > STALE_DAYS:
        return Verdict(Recommendation.AVOID, [
            f"No code has been pushed for {span(idle)}: it looks unmaintained, so bugs and "
            "security issues may never be fixed.",
        ])

    active = idle is not None and idle <= RECENT_PUSH_DAYS and signals.commits_90d != 0
    welcoming = _welcoming(repo, signals, idle, source_kind)
    blockers = _blockers(repo, signals, idle, pushed, source_kind)

    if active and welcoming and not blockers:
        lead = _activity_sentence(signals, pushed)
        return Verdict(Recommendation.CONTRIBUTE, ([lead] + welcoming)[:MAX_REASONS])

    reasons = list(blockers)
    if not active and not blockers:
        if idle is None:
            reasons.append("I couldn't tell when the code last changed, so I can't vouch for it yet.")
        elif signals.commits_90d == 0:
            reasons.append("There were no commits in the last 90 days, even though the "
                           "repository was touched recently.")
    if active and not welcoming:
        reasons.append(_activity_sentence(signals, pushed) + " But I found no sign that outside "
                       "contributions are welcome (no CONTRIBUTING guide, few merged pull "
                       "requests, or response times I couldn't measure).")
    if repo.star_growth_12m and repo.star_growth_12m > 0:
        reasons.append(f"It is still attracting users: {compact(repo.star_growth_12m)} new stars "
                       "in the last 12 months, so it is worth keeping an eye on.")
    if not reasons:
        reasons.append("It is active, but not enough is measured to recommend contributing yet.")
    return Verdict(Recommendation.WATCH, reasons[:MAX_REASONS])


def _activity_sentence(s: RepoSignals, pushed: str) -> str:
    if s.commits_90d:
        return f"It is actively developed: {plural(s.commits_90d, 'commit')} in the last 90 days."
    return f"It is actively developed: the last push was {pushed}."


def _welcoming(repo: Repository, s: RepoSignals, idle: int | None, kind: str) -> list[str]:
    signs: list[str] = []
    if s.has_contributing:
        signs.append("It has a CONTRIBUTING guide that explains how to propose changes.")
    rt = s.median_first_response_hours
    if rt is not None and rt <= RESPONSIVE_HOURS:
        signs.append(f"Maintainers are responsive: new issues get a first reply within "
                     f"{hours(rt)} (median).")
    if s.merged_pulls_90d is not None and s.merged_pulls_90d >= MERGED_PULLS_WELCOMING:
        signs.append(f"{plural(s.merged_pulls_90d, 'pull request')} (proposed code changes) "
                     "were merged in the last 90 days, so outside work does land.")
    if s.contributors is not None and s.contributors >= MANY_CONTRIBUTORS:
        signs.append(f"{compact(s.contributors)} people have contributed code, so it doesn't "
                     "depend on one maintainer.")
    elif (s.contributors is None and s.recent_committers is not None
          and s.recent_commits_sampled and s.recent_committers >= MANY_CONTRIBUTORS):
        signs.append(f"{committers(s.recent_committers, s.recent_commits_sampled).capitalize()}, "
                     "so it doesn't depend on one maintainer.")
    measured = (s.has_contributing, rt, s.merged_pulls_90d, s.contributors, s.recent_committers)
    if not signs and all(v is None for v in measured):
        if repo.forks >= OFFLINE_FORKS_PROXY and idle is not None and idle <= FRESH_PUSH_DAYS:
            where = "offline" if kind == "catalog" else "here"
            signs.append(f"{compact(repo.forks)} forks (copies people make to change the code) "
                         "and a push in the last month suggest an open contributor base "
                         f"(response times and contributor counts aren't available {where}).")
    return signs


def _blockers(repo: Repository, s: RepoSignals, idle: int | None, pushed: str,
              kind: str) -> list[str]:
    blockers: list[str] = []
    if not repo.license and (s.has_license is False or (kind == "github" and s.has_license is None)):
        blockers.append("It has no license, so the terms for using or contributing to the code "
                        "are unclear.")
    rt = s.median_first_response_hours
    if rt is not None and rt > SLOW_RESPONSE_HOURS:
        blockers.append(f"New issues wait about {hours(rt)} for a first reply (median), so "
                        "contributions may sit unreviewed.")
    if idle is not None and RECENT_PUSH_DAYS < idle <= STALE_DAYS:
        blockers.append(f"The last push was {pushed}: activity has slowed down.")
    return blockers
