"""Execution: progress per step, checkpoints, timeouts, cancel at a step boundary, honest reports."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from core.errors import LLMBadOutput
from core.models import ActionKind, CollectingSink, DoneEvent
from core.research import ResearchService, ResearchSettings, ResearchStatus, build_research_service
from core.research.web_search import WebResult
from tests.fakes.scripted_llm import StaticWebSearch, asks_for, scripted_llm
from core.research.evidence import fetched_sources
from tests.research.conftest import DEEP_GOAL, KEY, QUICK_GOAL, click, deep_plan, session_id_of
from tests.research.fakes import FakeRepoSource

S = ResearchStatus


def cited_links(markdown: str) -> set[str]:
    return set(re.findall(r"\]\((https?://[^)]+)\)", markdown))


async def test_quick_scan_runs_without_review_and_reports_progress_per_step(service: ResearchService) -> None:
    sink = CollectingSink()
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1", progress=sink)
    assert reply.error is None and not reply.actions
    assert "facebook/react: latest release v19.2.0" in reply.markdown
    logs = sink.logs()
    for n in (1, 2, 3):
        assert any(line.startswith(f"Step {n}/3") for line in logs)
        assert any(line.startswith(f"✓ Step {n}/3") for line in logs)
    assert isinstance(sink.events[-1], DoneEvent) and sink.events[-1].stats["status"] == "COMPLETED"
    [session] = await service.store.list_sessions()
    assert session.status is S.COMPLETED and [r.step_id for r in session.results] == [1, 2, 3]
    assert [h["to"] for h in session.history] == ["ANALYZING", "PLANNING", "EXECUTING", "COMPLETED"]


async def test_the_report_cites_only_what_was_fetched(service: ResearchService) -> None:
    plan = await deep_plan(service)
    report = await service.decide(click(plan, ActionKind.APPROVE, "U1"), CollectingSink())
    session = await service.store.get(session_id_of(plan))
    fetched = {s.url for s in fetched_sources(session) if s.url}
    assert cited_links(report.markdown) and cited_links(report.markdown) <= fetched
    for section in ("### Evidence", "### Cross-verification", "### Steps", "### Sources"):
        assert section in report.markdown
    assert "old/react-state-kit" not in report.markdown or "archived" in report.markdown
    assert "Confidence:" in report.markdown


async def test_a_slow_step_times_out_and_the_run_goes_on(tmp_path: Path) -> None:
    settings = ResearchSettings(data_dir=tmp_path, step_timeout_seconds=0.2)
    service = build_research_service(settings, FakeRepoSource(slow_calls={"readme": 1.0}))
    sink = CollectingSink()
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1", progress=sink)
    [session] = await service.store.list_sessions()
    assert [r.status for r in session.results] == ["done", "timeout", "done"]
    assert session.status is S.COMPLETED and "⏱ Browse" in reply.markdown
    assert any(line.startswith("⏱ Step 2/3") for line in sink.logs())


async def test_a_failed_search_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(fail_search=True))
    reply = await service.start("react hooks libraries --quick", key=KEY, requester="U1")
    [session] = await service.store.list_sessions()
    assert [r.status for r in session.results] == ["failed", "done", "done"]
    assert session.status is S.COMPLETED and "✗ Search: failed" in reply.markdown
    assert "No repositories matched" in reply.markdown and "_No sources were fetched._" in reply.markdown


async def test_a_crashing_step_ends_in_error_with_context(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(crash_search=True))
    sink = CollectingSink()
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1", progress=sink)
    [session] = await service.store.list_sessions()
    assert session.status is S.ERROR and reply.error == "research_failed"
    assert session.error is not None and session.error.state is S.EXECUTING and session.error.step_id == 1
    assert "RuntimeError" in session.error.message and session.lease is None
    assert "partial" in reply.markdown
    assert any(getattr(e, "code", None) == "internal" for e in sink.events)


async def test_cancel_stops_at_the_next_step_boundary_with_partial_results(tmp_path: Path) -> None:
    source = FakeRepoSource(slow_calls={"search": 0.3})
    service = build_research_service(ResearchSettings(data_dir=tmp_path), source)
    plan = await deep_plan(service)
    run = asyncio.create_task(service.decide(click(plan, ActionKind.APPROVE, "U1"), CollectingSink()))
    await asyncio.sleep(0.45)  # inside step 2
    cancel = await service.decide(click(plan, ActionKind.CANCEL, "U1"), CollectingSink())
    assert "Stopping after the current step" in cancel.markdown
    again = await service.decide(click(plan, ActionKind.CANCEL, "U1"), CollectingSink())
    assert again.error == "stale"
    report = await run
    session = await service.store.get(session_id_of(plan))
    assert session.status is S.CANCELLED and session.cancel_requested_by == "U1"
    assert 1 <= len(session.results) < len(session.plan.steps)  # type: ignore[union-attr]
    assert "partial results" in report.markdown and "not run" in report.markdown
    assert report.markdown.splitlines()[1].startswith(("**Migrate", "**Stay on", "**It depends"))  # answered from what was found


async def test_llm_findings_naming_unfetched_repositories_are_dropped(tmp_path: Path) -> None:
    def script(messages, schema):  # type: ignore[no-untyped-def]
        if asks_for(schema, "findings"):
            return {"findings": ["facebook/react is the clear leader.", "invented/repo is great.",
                                 "See https://example.com/made-up for more."]}
        return LLMBadOutput(raw="", reason="not scripted")

    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(),
                                     llm=scripted_llm(script))
    reply = await service.start(QUICK_GOAL + " --quick", key=KEY, requester="U1")
    assert "facebook/react is the clear leader." in reply.markdown
    assert "invented/repo" not in reply.markdown and "example.com" not in reply.markdown


async def test_web_search_results_are_cited_when_configured(tmp_path: Path) -> None:
    web = StaticWebSearch([WebResult(title="React blog: v19", url="https://react.dev/blog/v19")])
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(), web=web)
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1")
    assert "https://react.dev/blog/v19" in reply.markdown and web.queries == ["react"]


async def test_offline_catalog_sources_are_named_without_fake_links(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(kind="catalog"))
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1")
    assert "Offline catalog of 2026-08-22: search" in reply.markdown
    assert "Offline catalog of 2026-08-22: README of facebook/react" in reply.markdown
    assert "](https://" not in reply.markdown  # nothing was fetched from a web page, so nothing is linked


async def test_signals_with_nothing_measured_are_not_cited(tmp_path: Path) -> None:
    from core.models import RepoSignals
    from core.research.steps import measured

    assert not measured(RepoSignals(notes=["the snapshot has no release data"]))  # type: ignore[call-arg]
    assert measured(RepoSignals(commits_90d=0))


async def test_invalid_goals_get_friendly_replies_and_no_session(service: ResearchService) -> None:
    for goal, code in (("", "empty_goal"), ("asdfgh qwrtzx", "unclear_goal")):
        reply = await service.start(goal, key=KEY, requester="U1")
        assert reply.error == code and reply.suggestions
    bad_mode = await service.start(DEEP_GOAL, key=KEY, requester="U1", mode="sideways")
    assert bad_mode.error == "invalid_mode"
    assert await service.store.list_sessions() == []


async def test_a_long_goal_is_condensed_and_says_so(service: ResearchService) -> None:
    goal = "Impact of AI on medical ethics. " + "Background sentence about our hospital. " * 500
    reply = await service.start(goal, key=KEY, requester="U1")
    assert reply.actions and "Your goal was long" in reply.markdown
    session = await service.store.get(session_id_of(reply))
    assert session.query_truncated and len(session.query) <= 600 and session.original_chars > 10_000


async def test_mode_override_from_the_caller_and_from_the_text(service: ResearchService) -> None:
    deep = await service.start(QUICK_GOAL, key=KEY, requester="U1", mode="deep")
    assert deep.actions and "requested explicitly" in deep.markdown
    quick = await service.start(DEEP_GOAL + " --quick", key=KEY, requester="U1")
    assert not quick.actions and "Quick Scan" in quick.markdown
