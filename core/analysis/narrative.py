"""The ``analysis`` text of a repo_detail: a short deterministic narrative, with an LLM seam.

The synthesizer already lists the metrics, findings and verdict, so the analysis is prose that
tells the story in a few sentences (what it is, how active, how maintained, who is around it,
the verdict), using only measured numbers and saying which ones the source could not provide.

A ``Narrator`` turns a finished ``RepositoryDetail`` into that text. ``narrate`` tries the
configured narrator and falls back to the deterministic one on any failure or empty answer, so an
LLM outage never costs the user their analysis.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Protocol

from core.analysis.format import ago, committers, compact, days_since, hours, plural, signed, span
from core.errors import is_expected
from core.models import Recommendation, RepositoryDetail, RepoSignals
from core.sources.base import SourceInfo
from core.synth.phrases import with_article

log = logging.getLogger("omg.analysis.narrative")

MAX_DESCRIPTION = 240
_VERDICT = {
    Recommendation.CONTRIBUTE: "**contribute**",
    Recommendation.WATCH: "**watch**",
    Recommendation.AVOID: "**avoid**",
}


class Narrator(Protocol):
    async def narrate(self, detail: RepositoryDetail, *, source: SourceInfo, now: datetime) -> str:
        """Markdown analysis of ``detail`` (it must only use the facts ``detail`` contains)."""
        ...


class DeterministicNarrator:
    """Builds the analysis from the measured facts, with no model."""

    async def narrate(self, detail: RepositoryDetail, *, source: SourceInfo, now: datetime) -> str:
        return render_analysis(detail, source=source, now=now)


async def narrate(
    detail: RepositoryDetail, narrator: Narrator | None, *, source: SourceInfo, now: datetime
) -> str:
    if narrator is not None and not isinstance(narrator, DeterministicNarrator):
        try:
            text = (await narrator.narrate(detail, source=source, now=now)).strip()
            if text:
                return text
            log.warning("narrator returned nothing; using the deterministic analysis")
        except Exception as exc:  # any narrator failure must never cost the user the analysis
            log.warning("narrator failed; using the deterministic analysis",
                        extra={"error": repr(exc)}, exc_info=not is_expected(exc))
    return render_analysis(detail, source=source, now=now)


def render_analysis(detail: RepositoryDetail, *, source: SourceInfo, now: datetime) -> str:
    s = detail.signals or RepoSignals()
    paragraphs = [
        _what(detail, now),
        " ".join(x for x in (_activity(detail, s, now), _maintenance(detail, s),
                             _community(detail, s)) if x),
        _verdict(detail),
        _gaps(detail, source),
    ]
    return "\n\n".join(p for p in paragraphs if p)


def _what(d: RepositoryDetail, now: datetime) -> str:
    facts = [f"{compact(d.stars)} stars"] if d.figures_known else ["no star or activity figures offline"]
    age = days_since(d.created_at, now)
    if age is not None:
        facts.append(f"{span(age)} old")
    if d.license:
        facts.append(f"{d.license} license")
    kind = with_article(f"{d.language} project") if d.language else "a project"
    text = f"**{d.full_name}** is {kind} ({', '.join(facts)})"
    description = " ".join(d.description.split()).rstrip(".")
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 1].rstrip() + "…"
    text += f": {description}." if description else "."
    if d.archived:
        text += " It is archived, which means read-only: no more changes are accepted."
    if d.scores.overall:
        text += f" Quality score: {d.scores.overall:.1f}/10."
    return text


def _activity(d: RepositoryDetail, s: RepoSignals, now: datetime) -> str:
    parts: list[str] = []
    if s.commits_90d is not None:
        recent = f" ({s.commits_30d:,} in the last 30)" if s.commits_30d is not None else ""
        parts.append(f"{plural(s.commits_90d, 'commit')} landed in the last 90 days{recent}")
    pushed = ago(d.pushed_at, now)
    if pushed and s.commits_90d is None:
        parts.append(f"the code was last pushed {pushed}")
    if s.releases:
        when = ago(s.latest_release_at, now)
        latest = f", the latest {s.latest_release}" if s.latest_release else ""
        parts.append(f"it has published {plural(s.releases, 'release')}{latest}"
                     + (f" ({when})" if when else ""))
    elif s.releases == 0:
        parts.append("it has never published a release")
    return _sentence("Activity: " + "; ".join(parts)) if parts else ""


def _maintenance(d: RepositoryDetail, s: RepoSignals) -> str:
    parts: list[str] = []
    if s.median_first_response_hours is not None:
        parts.append(f"a new issue typically gets its first maintainer reply within "
                     f"{hours(s.median_first_response_hours)}")
    if s.closed_issues_90d is not None:
        still = f" while {s.open_issues_only:,} remain open" if s.open_issues_only is not None else ""
        parts.append(f"{plural(s.closed_issues_90d, 'issue')} were closed in 90 days{still}")
    elif s.open_issues_only is not None:
        parts.append(f"{plural(s.open_issues_only, 'issue')} are open")
    elif d.open_issues is not None:
        parts.append(f"{d.open_issues:,} issues and pull requests are open")
    if s.merged_pulls_90d is not None:
        parts.append(f"{plural(s.merged_pulls_90d, 'pull request')} (proposed code changes) "
                     "were merged")
    return _sentence("Maintenance: " + "; ".join(parts)) if parts else ""


def _community(d: RepositoryDetail, s: RepoSignals) -> str:
    parts: list[str] = []
    if s.contributors is not None:
        parts.append(plural(s.contributors, "contributor"))
    elif s.recent_committers is not None and s.recent_commits_sampled is not None:
        parts.append(committers(s.recent_committers, s.recent_commits_sampled))
    if d.forks:
        parts.append(f"{compact(d.forks)} forks")
    if d.star_growth_12m is not None:
        parts.append(f"{signed(d.star_growth_12m)} stars over the last 12 months")
    elif d.star_growth_6m is not None:
        parts.append(f"{signed(d.star_growth_6m)} stars over the last 6 months")
    return _sentence("Community: " + ", ".join(parts)) if parts else ""


def _verdict(d: RepositoryDetail) -> str:
    if d.recommendation is None:
        return ""
    reason = d.recommendation_reasons[0] if d.recommendation_reasons else ""
    return f"My verdict: {_VERDICT[d.recommendation]}." + (f" {reason}" if reason else "")


def _gaps(d: RepositoryDetail, source: SourceInfo) -> str:
    missing = [m.label.lower() for m in d.metrics if m.value is None]
    if not missing:
        return ""
    shown = ", ".join(missing[:5]) + (" and more" if len(missing) > 5 else "")
    if source.kind == "catalog":
        date = f" of {source.snapshot_date.isoformat()}" if source.snapshot_date else ""
        return f"_This is based on the offline snapshot{date}; not available offline: {shown}._"
    return f"_Not measured this time: {shown}._"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."
