"""Plans (what the team approves) and final reports (what was found) as typed document sections."""

from __future__ import annotations

from core.analysis.need import extract_need
from core.models.document import PlanItem, PlanSection, ReportSection, ReportStep, SourceLink, TitledList
from core.research.evidence import fetched_sources, gather, opposing
from core.models.research import PlanStep, ResearchAnswer, ResearchSession, ResearchStatus, StepResult, StepType

MAX_SOURCES = 40
MAX_WEB_NOTES = 8


def _ttl(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:g} h"
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


def plan_section(session: ResearchSession, *, review_ttl_seconds: float | None = None) -> PlanSection:
    plan = session.plan
    assert plan is not None and session.mode is not None
    need = extract_need(session.query)  # a constraint of the answer ("for a 10 person startup")
    review = None
    if session.status is ResearchStatus.REVIEW_PENDING:
        ttl = f" within {_ttl(review_ttl_seconds)}" if review_ttl_seconds else ""
        review = (f"**Approve** to start, **Revise** to change it, or **Cancel**. Only the person who "
                  f"asked (or an admin) can decide{ttl}.")
    steps = [PlanItem(number=step.step_id, kind=step.type.value.title(), description=step.description,
                      queries=step.search_queries if step.type is StepType.SEARCH else [])
             for step in plan.steps]
    return PlanSection(
        goal=session.query, mode=session.mode.label, rationale=plan.rationale, steps=steps,
        version=plan.version, status=session.status.value, review=review,
        weighed_for=need.text if need else None, weighed_why=need.why if need and need.profiles else None,
        feedback=plan.feedback[:300] if plan.feedback else None,
    )  # the session id travels in the reply's footer


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


def _answer_parts(answer: ResearchAnswer) -> dict[str, object]:
    """The answer first: the headline paragraph, then the measured comparison and what surrounds it."""
    title = {"migrate": "Measured comparison", "pick": "Ranking", "overview": "Projects found"}.get(answer.shape)
    findings = [TitledList(title=title, items=answer.comparison)] if title else []
    findings += [TitledList(title=t, items=items) for t, items in (
        ("Trade-offs", answer.trade_offs), ("Risks", answer.risks),
        ("What would change this answer", answer.would_change), ("Missing from the data", answer.missing))]
    return {"answer": answer.headline, "findings": [f for f in findings if f.items],
            "confidence": answer.confidence, "confidence_reason": answer.confidence_reason,
            "not_checked": answer.not_checked}


def build_report(session: ResearchSession, *, partial: ResearchAnswer | None = None) -> ReportSection:
    """The report; ``partial``: the answer from what was found when the run stopped before its answer step."""
    plan_steps = session.plan.steps if session.plan else []
    total, done = len(plan_steps), len(session.results)
    mode = session.mode.label if session.mode else "Research"
    answer = _answer(session) or partial
    opening = _answer_parts(answer) if answer is not None else {
        "answered": False,
        "answer": "The research stopped before its answer step, so there is no verdict yet; here is what was found."}
    if session.status is ResearchStatus.CANCELLED or session.cancel_requested_by:
        progress = f"{mode} · cancelled after {done} of {total} steps, so these are partial results."
    elif done < total:
        progress = f"{mode} · {done} of {total} steps finished, so these are partial results."
    else:
        progress = f"{mode} · {total} steps completed."
    web_note = _web_note(session)

    evidence = _findings(session, {"summary", "synthesis", "", "analysis"})
    if not evidence:
        evidence = [f"**{c.name}**: {c.repo.description[:160]}" for c in gather(session)[:5]] or [
            "Nothing was found before the research stopped."
        ]
    parts = [TitledList(title="Evidence", items=evidence)]
    critique = next((s for s in plan_steps if s.purpose == "opposing_views"), None)
    if critique is not None and session.result_for(critique.step_id) is not None:
        others = opposing(gather(session))[:4]
        parts.append(TitledList(title="Opposing views", items=[
            f"Alternatives and opposing approaches: {', '.join(c.name for c in others)}." if others
            else "No strong alternatives or opposing approaches turned up in the searches."]))
    checks = _findings(session, {"cross_verify"})
    if checks:
        parts.append(TitledList(title="Cross-verification", items=checks))

    web = [SourceLink(title=s.title, url=s.url, snippet=s.snippet)
           for s in fetched_sources(session) if s.kind == "web" and s.snippet][:MAX_WEB_NOTES]
    sources = fetched_sources(session)
    return ReportSection(
        goal=session.query, **opening, progress=progress, notes=[web_note] if web_note else [],
        evidence=parts, web=web, steps=[_step(step, session) for step in plan_steps],
        sources=[SourceLink(title=s.title, url=s.url) for s in sources[:MAX_SOURCES]],
        more_sources=max(0, len(sources) - MAX_SOURCES),
    )


def _step(step: PlanStep, session: ResearchSession) -> ReportStep:
    result = session.result_for(step.step_id)
    kind = step.type.value.title()
    if result is None:
        return ReportStep(number=step.step_id, kind=kind, outcome="not_run")
    note = f" ({result.error})" if result.error and result.status != "done" else ""
    outcome = result.status if result.status != "done" or _yielded(result) else "empty"
    return ReportStep(number=step.step_id, kind=kind, outcome=outcome, summary=result.summary + note)


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
