"""ANALYZE steps: deterministic synthesis from what was fetched (an LLM phrases it when configured).

Findings only ever name repositories the session actually found; an LLM finding that names
anything else (or links a page that was not fetched) is dropped.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

from pydantic import BaseModel, Field

from core.analysis import reference_time
from core.analysis.format import ago, span
from core.errors import LLMError
from core.research.answer import answer_question
from core.research.evidence import Candidate, fetched_sources, gather, leaders
from core.llm.contract import StructuredRequest, system, user
from core.research.settings import LLM_MAX_OUTPUT_TOKENS
from core.models.research import PlanStep, ResearchMode, StepResult
from core.research.steps import StepContext

log = logging.getLogger("omg.research.analysis")

_NAME = re.compile(r"\b[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+\b")
_URL = re.compile(r"https?://[^\s)>\]]+")
_VERSION_GOAL = re.compile(r"\b(version|release|released|changelog|tag)\b", re.I)


def facts(c: Candidate, now: datetime | None = None) -> str:
    parts = [f"**{c.name}**"]
    if c.repo.stars:
        parts.append(f"★ {c.repo.stars:,}")
    if c.repo.language:
        parts.append(c.repo.language)
    pushed = ago(c.repo.pushed_at, now or datetime.now(UTC))  # "before the snapshot" offline
    if pushed is not None:
        parts.append(f"pushed {pushed}")
    if c.signals and c.signals.latest_release:
        when = c.signals.latest_release_at.date().isoformat() if c.signals.latest_release_at else ""
        parts.append(f"latest release {c.signals.latest_release}" + (f" ({when})" if when else ""))
    line = " · ".join(parts)
    return f"{line}: {c.repo.description.strip()[:160]}" if c.repo.description.strip() else line


def _names(cs: list[Candidate]) -> str:
    return ", ".join(c.name for c in cs)


def risks(candidates: list[Candidate], now: datetime | None = None) -> list[str]:
    flags: list[str] = []
    now = now or datetime.now(UTC)
    for c in candidates:
        days = c.days_since_push(now)
        s = c.signals
        if c.repo.archived:
            flags.append(f"{c.name} is archived: it gets no more updates, whatever its README says.")
        elif days is not None and days > 365:
            flags.append(f"{c.name} hasn't been pushed in {span(days)}, so claims of active maintenance don't hold.")
        if s and s.latest_release_at and (now - _aware(s.latest_release_at)).days > 730:
            flags.append(f"{c.name}'s latest release is from {s.latest_release_at.year}.")
        if s and s.open_issues_only and s.closed_issues_90d is not None and s.open_issues_only > 10 * max(s.closed_issues_90d, 1):
            flags.append(f"{c.name} has an issue backlog ({s.open_issues_only:,} open, {s.closed_issues_90d} closed in 90 days).")
    return flags


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def cross_verify(candidates: list[Candidate], now: datetime | None = None) -> list[str]:
    findings: list[str] = []
    corroborated = [c for c in candidates if c.hits >= 2]
    single = [c for c in candidates if c.hits == 1]
    if corroborated:
        findings.append(f"Found by several searches (stronger evidence): {_names(corroborated[:6])}.")
    if single:
        findings.append(f"Seen in only one search (weaker evidence): {_names(single[:6])}.")
    measured = [c for c in candidates if c.signals is not None]
    flags = risks(candidates, now)
    findings += flags
    for c in measured:
        s = c.signals
        assert s is not None
        if not any(c.name in f for f in flags) and (s.commits_90d or s.latest_release):
            activity = f"{s.commits_90d} commits in 90 days" if s.commits_90d else f"release {s.latest_release}"
            findings.append(f"{c.name}: measured activity ({activity}) matches how it presents itself.")
    if not measured:
        findings.append("No release or commit data was fetched, so claims were checked against push dates only."
                        if flags else "No measured signals were available, so claims could not be checked against data.")
    return findings


def summary(candidates: list[Candidate], goal: str, now: datetime | None = None) -> list[str]:
    if not candidates:
        return ["No repositories matched the searches; broader or different words may help."]
    findings = [facts(c, now) for c in candidates[:3]]
    if _VERSION_GOAL.search(goal):
        released = [c for c in candidates[:3] if c.signals and c.signals.latest_release]
        if released:
            top, s = released[0], released[0].signals
            assert s is not None
            when = f" on {s.latest_release_at.date().isoformat()}" if s.latest_release_at else ""
            findings.insert(0, f"{top.name}: latest release {s.latest_release}{when}.")
        else:
            findings.insert(0, f"No release data was fetched for {candidates[0].name} (the offline snapshot has "
                            "none), so the latest version can't be stated; its GitHub releases page has it.")
    return findings


def synthesis(candidates: list[Candidate]) -> list[str]:
    if not candidates:
        return ["The searches found nothing to build a balanced answer on; the goal may need other words."]
    leading = leaders(candidates)
    findings = [f"Leading options: {_names(leading)}." if leading else "No clear leaders emerged."]
    emerging = [c for c in candidates if "recent" in c.purposes and c not in leading and (c.repo.stars or 0) < 5000]
    if emerging:
        findings.append(f"Emerging or recently active: {_names(emerging[:3])}.")
    return findings  # risks are flagged under Cross-verification; confidence lives with the answer


class _Findings(BaseModel):
    findings: list[str] = Field(default_factory=list, max_length=10)


def _grounded(findings: list[str], known: set[str], urls: set[str]) -> list[str]:
    kept = []
    for finding in findings:
        names = set(_NAME.findall(finding)) - {"N/A", "and/or"}
        links = set(_URL.findall(finding))
        if names <= known and links <= urls and finding.strip():
            kept.append(finding.strip())
    return kept


def _web_evidence(ctx: StepContext) -> str:
    """What the grounded web search found (its sentences, by page), when it ran."""
    pages = [{"page": s.title, "says": s.snippet}
             for s in fetched_sources(ctx.session) if s.kind == "web" and s.snippet][:8]
    return f"\nWeb pages (Google Search): {json.dumps(pages)}" if pages else ""


async def _llm_findings(ctx: StepContext, step: PlanStep, candidates: list[Candidate]) -> list[str]:
    if ctx.llm is None or not candidates:
        return []
    evidence = [
        {"repo": c.name, "stars": c.repo.measured_stars, "description": c.repo.description[:200],
         "foundBy": sorted(c.purposes), "searchHits": c.hits, "readme": (c.readme or "")[:300],
         "latestRelease": c.signals.latest_release if c.signals else None,
         "commits90d": c.signals.commits_90d if c.signals else None}
        for c in candidates[:10]
    ]
    messages = [
        system("You write research findings as short sentences. Use ONLY the evidence given; name only "
               "repositories that appear in it; no links. Return JSON {\"findings\": [str]} (3-8 items)."),
        user(f"Goal: {ctx.session.query}\nTask: {step.description}\n"
             f"Evidence: {json.dumps(evidence, default=str)}" + _web_evidence(ctx)),
    ]
    request = StructuredRequest(task="research_analyze_step", messages=messages, schema=_Findings,
                                timeout=ctx.settings.step_timeout_seconds / 2,
                                max_output_tokens=LLM_MAX_OUTPUT_TOKENS)
    try:
        answer = (await ctx.llm.run(request)).output
    except Exception as exc:  # LLMError by contract; anything else must not break research either
        log.warning("llm synthesis failed, using the local synthesis", extra={"error": repr(exc)},
                    exc_info=not isinstance(exc, LLMError))
        return []
    urls = {s.url for s in fetched_sources(ctx.session) if s.url}
    return _grounded(answer.findings, {c.name for c in candidates}, urls)


async def run_analyze(step: PlanStep, ctx: StepContext, started: datetime) -> StepResult:
    candidates = gather(ctx.session)
    purpose = step.purpose or ("summary" if ctx.session.mode is ResearchMode.QUICK_SCAN else "synthesis")
    now = reference_time(ctx.source.info, datetime.now(UTC))  # the snapshot's day when offline
    if purpose == "cross_verify":
        findings = cross_verify(candidates, now)
        answer = None
    else:
        local = summary(candidates, ctx.session.query, now) if purpose == "summary" else synthesis(candidates)
        findings = await _llm_findings(ctx, step, candidates) or local
        answer = await answer_question(ctx, candidates, now)
    return StepResult(
        step_id=step.step_id, status="done", started_at=started, findings=findings, answer=answer,
        summary=f"{len(findings)} finding(s) from {len(candidates)} repositories",
    )
