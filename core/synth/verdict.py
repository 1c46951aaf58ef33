"""Contribute / watch / avoid: the Auditor's verdict, or one derived from what was measured."""

from __future__ import annotations

from datetime import date

from core.analysis.format import committers
from core.models import Recommendation, RepositoryDetail
from core.synth.format import before, compact_number, days_since, duration
from core.synth.insights import is_scored

MEANINGS: dict[Recommendation, str] = {
    Recommendation.CONTRIBUTE: (
        "a healthy, active project where contributions are likely to be reviewed and welcomed"
    ),
    Recommendation.WATCH: (
        "worth following, but check back before you depend on it or invest time contributing"
    ),
    Recommendation.AVOID: "risky to depend on or contribute to right now",
}


def derive_verdict(repo: RepositoryDetail, today: date) -> tuple[Recommendation, list[str]]:
    """A conservative verdict from the measured facts (used when the Auditor gave none)."""
    idle = days_since(repo.pushed_at, today)
    signals = repo.signals
    if repo.archived:
        return Recommendation.AVOID, ["It is archived, so it will receive no further fixes."]
    if idle is not None and idle > 730:
        return Recommendation.AVOID, [f"No code changes for over {idle // 365} years."]

    reasons: list[str] = []
    good = 0
    if idle is not None and idle <= 90:
        good += 1
        reasons.append("Code changed within the last 3 months.")
    elif idle is not None:
        reasons.append(f"The last code change was {before(idle, today)}.")
    if signals is not None and signals.contributors:
        if signals.contributors >= 20:
            good += 1
        reasons.append(f"{compact_number(signals.contributors)} people have contributed.")
    elif signals is not None and signals.recent_committers and signals.recent_commits_sampled:
        if signals.recent_committers >= 10:
            good += 1
        reasons.append(f"{committers(signals.recent_committers, signals.recent_commits_sampled).capitalize()}.")
    if signals is not None and signals.median_first_response_hours is not None:
        hours = signals.median_first_response_hours
        if hours <= 72:
            good += 1
            reasons.append(f"Maintainers usually reply to issues within {duration(hours)}.")
        else:
            reasons.append(f"Maintainers take {duration(hours)} to reply to issues.")
    if signals is not None and signals.has_contributing:
        good += 1
        reasons.append("It has a contributing guide.")
    if is_scored(repo):
        overall = repo.scores.overall
        if overall >= 7:
            good += 1
        elif overall < 4:
            reasons.append(f"Its overall score is low ({overall:.1f}/10).")
            return Recommendation.AVOID, reasons
        reasons.append(f"Quality score {overall:.1f}/10.")
    if not reasons:
        reasons.append("I could not measure enough activity to recommend contributing yet.")
    return (Recommendation.CONTRIBUTE if good >= 3 else Recommendation.WATCH), reasons


def verdict(repo: RepositoryDetail, today: date) -> tuple[Recommendation, list[str]]:
    if repo.recommendation is not None:
        return repo.recommendation, [r for r in repo.recommendation_reasons if r.strip()]
    return derive_verdict(repo, today)
