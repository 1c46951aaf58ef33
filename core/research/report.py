"""Markdown for plans (what the team approves) and for final reports (what was found)."""

from __future__ import annotations

import re

from core.analysis.need import extract_need
from core.research.evidence import fetched_sources, gather, opposing
from core.models.research import ResearchAnswer, ResearchSession, ResearchStatus, StepResult, StepType

MAX_SOURCES = 40
MAX_WEB_NOTES = 8
_RANKED = re.compile(r"^\d+\. ")
_ICON = {"done": "✓", "failed": "✗", "timeout": "⏱"}


def _ttl(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:g} h"
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


def render_steps(session: ResearchSession) -> list[str]:
    lines: list[str] = []
    for step in session.plan.steps if session.plan else []:
        lines.append(f"{step.step_id}. **{step.type.value.title()}**: {step.description}")
        if step.type is StepType.SEARCH and step.search_queries:
            lines.append("   " + " · ".join(f"`{q}`" for q in step.search_queries))
    return lines


def render_plan(session: ResearchSession, *, review_ttl_seconds: float | None = None) -> str:
    plan = session.plan
    assert plan is not None and session.mode is not None
    head = f"**Research plan** · {session.mode.label}"
    if plan.version > 1:
        head += f" · revision {plan.version}"
    lines = [head, f"> {session.query}", f"_Why {session.mode.label}:_ {plan.rationale}"]
    need = extract_need(session.query)
    if need is not None:  # a constraint of the answer ("for a 10 person startup"), not a search word
        lines.append(f"_Weighed for {need.text}:_ {need.why}." if need.profiles else f"_Weighed for {need.text}._")
    lines.append("")
    lines += render_steps(session)
    if plan.feedback:
        lines += ["", f"_Revised for the feedback: “{plan.feedback[:300]}”_"]
    if session.status is ResearchStatus.REVIEW_PENDING:
        ttl = f" within {_ttl(review_ttl_seconds)}" if review_ttl_seconds else ""
        lines += [
            "",
            f"**Approve** to start, **Revise** to change it, or **Cancel**. Only the person who "
            f"asked (or an admin) can decide{ttl}.",
        ]
    return "\n".join(lines)  # the session id travels in the reply's footer


def _findings(session: ResearchSession, purposes: set[str]) -> list[str]:
    steps = {s.step_id: s for s in session.plan.steps} if session.plan else {}
    found: list[str] = []
    for result in session.results:
        step = steps.get(result.step_id)
        if step is not None and step.type is StepType.ANALYZE and (step.purpose or "") in purposes:
            found += result.findings
    return found


def _answer(session: ResearchSession) -> ResearchAnswer | None:
    """The last answer an ANALYZE step gave (the synthesis comes after the summary)."""
    return next((r.answer for r in reversed(session.results) if r.answer is not None), None)


def _section(title: str, items: list[str]) -> list[str]:
    """A titled list; items that carry their own rank ("1. ...") keep it instead of a bullet."""
    return ["", f"### {title}", *[item if _RANKED.match(item) else f"- {item}" for item in items]] if items else []


def render_answer(answer: ResearchAnswer) -> list[str]:
    """The answer first: the headline paragraph, then the measured comparison and what surrounds it."""
    lines = [answer.headline]
    title = {"migrate": "Measured comparison", "pick": "Ranking", "overview": "Projects found"}.get(answer.shape)
    if title:
        lines += _section(title, answer.comparison)
    lines += _section("Trade-offs", answer.trade_offs)
    lines += _section("Risks", answer.risks)
    lines += _section("What would change this answer", answer.would_change)
    lines += _section("Missing from the data", answer.missing)
    confidence = f"**{answer.confidence}**" + (f": {answer.confidence_reason}." if answer.confidence_reason else ".")
    lines += ["", f"**Confidence:** {confidence}"]
    if answer.not_checked:
        lines.append("**Not checked:** " + "; ".join(answer.not_checked) + ".")
    return lines


def build_report(session: ResearchSession, *, partial: ResearchAnswer | None = None) -> str:
    """The report; ``partial``: the answer from what was found when the run stopped before its answer step."""
    plan_steps = session.plan.steps if session.plan else []
    total, done = len(plan_steps), len(session.results)
    mode = session.mode.label if session.mode else "Research"
    lines = [f"## Research report: {session.query}"]
    answer = _answer(session) or partial
    if answer is not None:
        lines += [*render_answer(answer), ""]
    else:
        lines += ["The research stopped before its answer step, so there is no verdict yet; here is what was found.", ""]
    if session.status is ResearchStatus.CANCELLED or session.cancel_requested_by:
        lines.append(f"_{mode} · cancelled after {done} of {total} steps, so these are partial results._")
    elif done < total:
        lines.append(f"_{mode} · {done} of {total} steps finished, so these are partial results._")
    else:
        lines.append(f"_{mode} · {total} steps completed._")
    web_note = _web_note(session)
    if web_note:
        lines.append(f"_{web_note}_")

    evidence = _findings(session, {"summary", "synthesis", "", "analysis"})
    checks = _findings(session, {"cross_verify"})
    if not evidence:
        evidence = [f"**{c.name}**: {c.repo.description[:160]}" for c in gather(session)[:5]] or [
            "Nothing was found before the research stopped."
        ]
    lines += ["", "### Evidence", *[f"- {f}" for f in evidence]]
    critique = next((s for s in plan_steps if s.purpose == "opposing_views"), None)
    if critique is not None and session.result_for(critique.step_id) is not None:
        others = opposing(gather(session))[:4]
        lines += ["", "### Opposing views", f"- Alternatives and opposing approaches: {', '.join(c.name for c in others)}."
                  if others else "- No strong alternatives or opposing approaches turned up in the searches."]
    if checks:
        lines += ["", "### Cross-verification", *[f"- {f}" for f in checks]]

    web = [s for s in fetched_sources(session) if s.kind == "web" and s.snippet][:MAX_WEB_NOTES]
    if web:
        lines += ["", "### From the web", *[f"- {s.snippet} ([{s.title}]({s.url}))" for s in web]]

    lines += ["", "### Steps"]
    results = {r.step_id: r for r in session.results}
    for step in plan_steps:
        result = results.get(step.step_id)
        if result is None:
            lines.append(f"{step.step_id}. ○ {step.type.value.title()}: not run")
        else:
            note = f" ({result.error})" if result.error and result.status != "done" else ""
            icon = _ICON[result.status] if result.status != "done" or _yielded(result) else "–"
            lines.append(f"{step.step_id}. {icon} {step.type.value.title()}: {result.summary}{note}")

    sources = fetched_sources(session)
    lines += ["", "### Sources"]
    if not sources:
        lines.append("_No sources were fetched._")
    for index, source in enumerate(sources[:MAX_SOURCES], start=1):
        lines.append(f"{index}. [{source.title}]({source.url})" if source.url else f"{index}. {source.title}")
    if len(sources) > MAX_SOURCES:
        lines.append(f"_…and {len(sources) - MAX_SOURCES} more in the session file._")
    return "\n".join(lines)


def _yielded(result: StepResult) -> bool:
    """A finished step that brought something back (a step that read nothing gets no check mark)."""
    return bool(result.repos or result.readmes or result.signals or result.findings or result.sources)


def _web_note(session: ResearchSession) -> str | None:
    """Why (part of) the run had no web search; None when it worked or was never configured."""
    failed = [r.web_error for r in session.results if r.web_error]
    if not failed:
        return None
    if any(s.kind == "web" for r in session.results for s in r.sources):
        return f"Web search failed in some steps ({failed[0]}); those steps used GitHub search only."
    return f"Web search was unavailable ({failed[0]}), so this report uses GitHub search only."
