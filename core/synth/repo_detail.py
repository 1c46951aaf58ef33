"""repo_detail -> overview, the Auditor's summary, key metrics, findings, and a verdict
(contribute / watch / avoid) with its reasons."""

from __future__ import annotations

from collections.abc import Sequence

from core.analysis.format import committers
from core.models import RepoDetailData, RepoDetailSection, RepositoryDetail, Section, TextSection
from core.synth.format import (
    age,
    as_date,
    compact_number,
    duration,
    one_line,
    score,
    sentence,
    signed,
    truncate,
)
from core.synth.glossary import label
from core.synth.phrases import plural
from core.synth.insights import dimension_value, is_scored
from core.synth.render_context import RenderContext
from core.synth.verdict import MEANINGS, verdict

MAX_FINDINGS = 8
MAX_ANALYSIS_CHARS = 1500
METRIC_ORDER = ("activity", "maintenance", "community", "documentation", "maturity", "ease_of_use")
METRIC_GROUPS = ("activity", "maintenance", "community")  # KeyMetric groups shown under their score
OTHER_DIMENSIONS = ("documentation", "maturity", "ease_of_use")


def overview_facts(repo: RepositoryDetail, rc: RenderContext) -> list[str]:
    basics = [f"**Stars:** {compact_number(repo.stars)}" if repo.figures_known else "**Stars:** not measured"]
    if repo.forks:
        basics.append(f"**Forks:** {compact_number(repo.forks)}")
    basics.append(f"**Language:** {repo.language or 'not stated'}")
    if repo.license:
        basics.append(f"**License:** {repo.license}")
    lines = [" · ".join(basics)]
    if not repo.figures_known:
        listed = f" (listed in {'; '.join(repo.categories[:3])})" if repo.categories else ""
        lines.append(f"Known offline only from curated lists{listed}: no star, fork or activity figures.")
    dates: list[str] = []
    updated = age(repo.pushed_at, rc.today)
    if updated:
        dates.append(f"**Last code change:** {updated}")
    created = as_date(repo.created_at)
    if created:
        dates.append(f"**Created:** {created.year}")
    if repo.star_growth_12m is not None:
        dates.append(f"**Stars in the last 12 months:** {signed(repo.star_growth_12m)}")
    if dates:
        lines.append(" · ".join(dates))
    if is_scored(repo):
        lines.append(f"**Quality score:** {score(repo.scores.overall)}{rc.explain.note('quality')}")
    if repo.archived:
        lines.append(f"**This repository is {rc.explain('archived')}.**")
    if repo.topics:
        lines.append("**Topics:** " + ", ".join(repo.topics[:8]))
    return lines


def _evidence(dim: str, repo: RepositoryDetail, rc: RenderContext) -> list[str]:
    s = repo.signals
    facts: list[str] = []
    if dim == "activity":
        if s and s.commits_90d is not None:
            facts.append(f"{plural(s.commits_90d, 'commit')} in the last 90 days")
        if s and s.latest_release:
            when = age(s.latest_release_at, rc.today)
            facts.append(f"latest release {s.latest_release}" + (f" ({when})" if when else ""))
    elif dim == "maintenance":
        if s and s.closed_issues_90d is not None:
            facts.append(f"{plural(s.closed_issues_90d, 'issue')} closed in 90 days")
        if s and s.merged_pulls_90d is not None:
            facts.append(
                f"{s.merged_pulls_90d:,} {rc.explain('pull_requests')} merged in 90 days"
            )
        if s and s.open_issues_only is not None:
            facts.append(f"{plural(s.open_issues_only, 'open issue')}")
        if s and s.median_first_response_hours is not None:
            facts.append(
                f"{rc.explain('responsiveness')}: a first reply typically comes within "
                f"{duration(s.median_first_response_hours)}"
            )
    elif dim == "community":
        if s and s.contributors is not None:
            facts.append(plural(s.contributors, "contributor"))
        elif s and s.recent_committers is not None and s.recent_commits_sampled:
            facts.append(committers(s.recent_committers, s.recent_commits_sampled))
        if repo.forks:
            facts.append(f"{compact_number(repo.forks)} forks")
    elif dim == "documentation" and s is not None:
        present = [name for name, flag in (
            ("a README", s.has_readme), ("a contributing guide", s.has_contributing),
            ("a code of conduct", s.has_code_of_conduct), ("issue templates", s.has_issue_template),
        ) if flag]
        missing = [name for name, flag in (
            ("contributing guide", s.has_contributing), ("license file", s.has_license),
        ) if flag is False]
        if present:
            facts.append("has " + ", ".join(present))
        if missing:
            facts.append("no " + " or ".join(missing))
    elif dim == "maturity":
        if s and s.releases is not None:
            facts.append(plural(s.releases, "release"))
        created = as_date(repo.created_at)
        if created:
            facts.append(f"started in {created.year}")
    return facts


def _score_head(dim: str, repo: RepositoryDetail, rc: RenderContext) -> str:
    head = f"**{label(dim, capitalize=True)}**"
    value = dimension_value(repo, dim)
    if value is None:  # nothing was measured: no explanation that could read as evidence
        return head + ": n/a (not measured)"
    if value > 0:
        head += f": {score(value)}"
    return head + rc.explain.note(dim, reason=repo.scores.reasons.get(dim))


def _from_key_metrics(repo: RepositoryDetail, rc: RenderContext) -> list[str]:
    """The Auditor's measured metrics, grouped; unmeasured ones summed up in one line per group."""
    lines: list[str] = []
    for group in METRIC_GROUPS:
        metrics = [m for m in repo.metrics if m.group == group]
        if not metrics:
            continue
        lines.append(_score_head(group, repo, rc))
        for m in metrics:
            if m.value is not None:
                note = f" ({one_line(m.note)})" if m.note.strip() else ""
                lines.append(f"- {m.label}: {m.value}{note}")
        missing = [m for m in metrics if m.value is None]
        if missing:
            reasons = {one_line(m.note) for m in missing if m.note.strip()}
            why = reasons.pop() if len(reasons) == 1 else "not measured"
            names = ", ".join(m.label[0].lower() + m.label[1:] for m in missing)
            lines.append(f"- _{why[0].upper()}{why[1:]}: {names}._")
    return lines


def _from_signals(repo: RepositoryDetail, rc: RenderContext) -> list[str]:
    lines: list[str] = []
    for dim in METRIC_ORDER:
        value = dimension_value(repo, dim)
        reason = repo.scores.reasons.get(dim, "").strip()
        facts = _evidence(dim, repo, rc)
        if not value and not reason and not facts:
            continue
        detail = "; ".join([reason.rstrip(".")] * bool(reason) + facts)
        head = _score_head(dim, repo, rc)
        lines.append(f"- {head}. {sentence(detail)}" if detail else f"- {head}.")
    return lines


def other_scores(repo: RepositoryDetail, rc: RenderContext) -> str | None:
    parts = []
    for dim in OTHER_DIMENSIONS:
        value = dimension_value(repo, dim)
        if value:
            parts.append(f"{rc.explain(dim, reason=repo.scores.reasons.get(dim))} {score(value)}")
    return f"**Other scores:** {'; '.join(parts)}." if parts else None


def _signal_notes(repo: RepositoryDetail, meta_notes: Sequence[str]) -> list[str]:
    """Gaps the source reported, unless the agent already lifted them into ``meta.notes``."""
    notes = repo.signals.notes if repo.signals is not None else []
    return [n for n in notes if n.strip() and not any(n.strip() in m for m in meta_notes)]


def key_metrics(
    repo: RepositoryDetail, rc: RenderContext, meta_notes: Sequence[str] = ()
) -> str | None:
    if repo.metrics:
        lines = _from_key_metrics(repo, rc)
        extra = other_scores(repo, rc)
        if extra:
            lines.append(extra)
    else:
        lines = _from_signals(repo, rc)
    lines += [f"_{sentence(n)}_" for n in _signal_notes(repo, meta_notes)]
    if not lines:
        return None
    return "### Key metrics\n" + "\n".join(lines)


def findings(data: RepoDetailData, rc: RenderContext) -> str | None:
    items = [f for f in data.repo.findings if f.strip()][:MAX_FINDINGS]
    parts: list[str] = []
    if items:
        parts.append("\n".join(f"- {sentence(truncate(f, rc.max_description_chars))}" for f in items))
    summary = (data.repo.readme_summary or (data.repo.signals.readme_summary if data.repo.signals else None))
    if summary and summary.strip():
        parts.append(f"_From the README:_ {truncate(summary, rc.max_description_chars)}")
    if not parts:
        return None
    return "### Main findings\n" + "\n\n".join(parts)


def summary(data: RepoDetailData) -> str | None:
    """The Auditor's prose (``analysis``): the story in a few sentences, before the details.

    Italic paragraphs (notes about the data) are dropped: the synthesizer says those once.
    """
    paragraphs = [p.strip() for p in data.analysis.strip().split("\n\n")]
    text = "\n\n".join(p for p in paragraphs if p and not _is_note(p))
    if not text:
        return None
    if len(text) > MAX_ANALYSIS_CHARS:
        text = text[: MAX_ANALYSIS_CHARS - 1].rstrip() + "…"
    return "### Summary\n" + text


def _is_note(paragraph: str) -> bool:
    return len(paragraph) > 2 and paragraph[0] == paragraph[-1] == "_"


def recommendation(repo: RepositoryDetail, rc: RenderContext) -> str:
    choice, reasons = verdict(repo, rc.today)
    lines = [
        "### Recommendation",
        f"**{choice.value.capitalize()}**: {MEANINGS[choice]}.",
    ]
    lines += [f"- {sentence(r)}" for r in reasons[:5]]
    return "\n".join(lines)


def detail_section(repo: RepositoryDetail, rc: RenderContext) -> RepoDetailSection:
    return RepoDetailSection(
        full_name=repo.full_name,
        html_url=repo.html_url,
        description=truncate(repo.description, rc.max_description_chars),
        stars=repo.stars,
        language=repo.language,
        overall=repo.scores.overall if is_scored(repo) else None,
        archived=repo.archived,
        facts=overview_facts(repo, rc),
    )


def repo_detail_sections(data: RepoDetailData, rc: RenderContext) -> list[Section]:
    repo = data.repo
    sections: list[str] = []
    story = summary(data)
    if story:
        sections.append(story)
    metrics = key_metrics(repo, rc, data.meta.notes if data.meta is not None else [])
    sections.append(
        metrics
        or "### Key metrics\nI don't have activity, maintenance or community measurements for "
        "this repository yet, so the verdict below leans on stars and update dates."
    )
    found = findings(data, rc)
    if found:
        sections.append(found)
    sections.append(recommendation(repo, rc))
    return [detail_section(repo, rc), TextSection(markdown="\n\n".join(sections))]
