"""The Auditor end to end over an in-memory source (rich signals) and the offline catalog."""

from __future__ import annotations

import pytest

from core.agents.auditor import Auditor
from core.analysis.readme import MAX_README_CHARS
from core.errors import RateLimited, RepoNotFound, SourceUnavailable
from core.models import Clarification, Recommendation, RepoDetailData, RepoList, ScoredRepository
from tests.analysis.fixtures import NOW, clock, context, rich_source


class FailingNarrator:
    async def narrate(self, detail, *, source, now) -> str:
        raise TimeoutError("LLM timed out")


class ScriptedNarrator:
    async def narrate(self, detail, *, source, now) -> str:
        return f"LLM says {detail.full_name} is fine."


async def test_analysis_of_a_rich_repository() -> None:
    source = rich_source()
    ctx, sink = context("analyze zustand", ["pmndrs/zustand"])
    result = await Auditor(source, clock=clock).run(ctx)
    assert result.error is None and not result.partial
    data = result.data
    assert isinstance(data, RepoDetailData)
    detail = data.repo
    assert detail.full_name == "pmndrs/zustand" and detail.stars == 58_592
    assert detail.signals.commits_90d == 84
    assert detail.recommendation is Recommendation.CONTRIBUTE
    assert detail.recommendation_reasons
    assert detail.findings and all(f.endswith(".") for f in detail.findings)
    assert {m.group for m in detail.metrics} == {"overview", "activity", "maintenance", "community"}
    assert 0 < detail.scores.overall <= 10
    assert "relevance" in detail.scores.unmeasured  # no query: relevance is not invented
    assert detail.readme_summary and len(detail.readme_summary) <= MAX_README_CHARS
    assert "npm install zustand" in detail.readme_summary
    assert "**pmndrs/zustand** is a TypeScript project" in data.analysis
    assert "84 commits landed in the last 90 days" in data.analysis
    assert "My verdict: **contribute**" in data.analysis
    assert data.meta.source == "github" and data.meta.snapshot_date is None
    assert sink.logs() == ["Analyzing pmndrs/zustand..."]
    # repo, signals and README were requested together
    assert source.max_in_flight == 3
    assert sorted(m for m, _ in source.calls) == ["get_readme", "get_repo", "get_signals"]


async def test_data_round_trips_through_the_wire_format() -> None:
    result = await Auditor(rich_source(), clock=clock).run(context("x", ["reduxjs/redux"])[0])
    wire = result.data.dump()
    assert wire["type"] == "repo_detail" and wire["repo"]["fullName"] == "reduxjs/redux"
    assert wire["repo"]["metrics"][0]["group"] == "overview"
    assert RepoDetailData.model_validate(wire) == result.data


async def test_short_readme_is_stored_unchanged() -> None:
    result = await Auditor(rich_source(), clock=clock).run(context("x", ["reduxjs/redux"])[0])
    assert result.data.repo.readme_summary.startswith("# Redux")


async def test_abandoned_repository_is_avoid() -> None:
    result = await Auditor(rich_source(), clock=clock).run(context("x", ["old/flux-store"])[0])
    detail = result.data.repo
    assert detail.recommendation is Recommendation.AVOID
    assert detail.readme_summary is None
    assert "My verdict: **avoid**" in result.data.analysis


async def test_an_unknown_repository_is_an_answer_not_an_error() -> None:
    result = await Auditor(rich_source(), clock=clock).run(context("x", ["nobody/nothing"])[0])
    assert result.error is None and result.data is None
    assert result.text.startswith("I couldn't find nobody/nothing on GitHub")


async def test_a_repository_missing_from_the_snapshot_says_what_would_help() -> None:
    from core.catalog import Catalog

    result = await Auditor(Catalog.load().source(), clock=clock).run(context("x", ["weaviate/weaviate"])[0])
    assert result.error is None and result.data is None
    assert result.text.startswith("weaviate/weaviate isn't in the offline snapshot of 20")
    assert "With GitHub access" in result.text


async def test_a_repository_known_only_from_curated_lists_gets_no_invented_figures() -> None:
    from core.catalog import Catalog

    result = await Auditor(Catalog.load().source(), clock=clock).run(context("x", ["pandas-dev/pandas"])[0])
    assert result.error is None and result.data is None
    assert result.text.startswith("pandas-dev/pandas (A library providing")
    assert "isn't in the offline snapshot of 20" in result.text and "only listed in awesome-python" in result.text and "With GitHub access" in result.text


async def test_no_target_without_context_is_a_helpful_error() -> None:
    result = await Auditor(rich_source(), clock=clock).run(context("analyze it")[0])
    assert result.error_code == "no_target" and "owner/name" in result.error


async def test_no_target_after_a_search_offers_the_results() -> None:
    previous = RepoList(items=[ScoredRepository(full_name="pmndrs/zustand"),
                               ScoredRepository(full_name="reduxjs/redux")])
    result = await Auditor(rich_source(), clock=clock).run(context("analyze", previous=previous)[0])
    assert isinstance(result.data, Clarification)
    assert result.data.options == ["Analyze pmndrs/zustand", "Analyze reduxjs/redux"]


async def test_names_in_the_message_are_a_fallback_target() -> None:
    result = await Auditor(rich_source(), clock=clock).run(
        context("analyze https://github.com/pmndrs/jotai please")[0])
    assert result.data.repo.full_name == "pmndrs/jotai"


async def test_several_targets_analyze_the_first_and_say_so() -> None:
    result = await Auditor(rich_source(), clock=clock).run(
        context("analyze these", ["pmndrs/jotai", "pmndrs/zustand"])[0])
    assert result.data.repo.full_name == "pmndrs/jotai"
    assert "compare pmndrs/jotai vs pmndrs/zustand" in result.data.meta.notes[0]


async def test_signals_failure_gives_a_partial_analysis() -> None:
    source = rich_source().fail("get_signals", "pmndrs/zustand", RateLimited())
    result = await Auditor(source, clock=clock).run(context("x", ["pmndrs/zustand"])[0])
    assert result.partial and result.data.meta.partial
    assert "GitHub rate limit reached" in result.data.meta.notes[0]
    commits = next(m for m in result.data.repo.metrics if m.name == "commits_90d")
    assert commits.value is None and commits.note.startswith("not measured")
    assert "_Not measured this time:" in result.data.analysis


async def test_readme_failure_still_analyzes() -> None:
    source = rich_source().fail("get_readme", "pmndrs/zustand", SourceUnavailable())
    result = await Auditor(source, clock=clock).run(context("x", ["pmndrs/zustand"])[0])
    assert result.data.repo.readme_summary is None
    assert "README" in result.data.meta.notes[0]
    assert result.data.repo.recommendation is Recommendation.CONTRIBUTE


async def test_narrator_failure_falls_back_to_the_deterministic_analysis() -> None:
    auditor = Auditor(rich_source(), narrator=FailingNarrator(), clock=clock)
    result = await auditor.run(context("x", ["pmndrs/zustand"])[0])
    assert "**pmndrs/zustand** is a TypeScript project" in result.data.analysis


async def test_a_narrator_replaces_the_analysis() -> None:
    auditor = Auditor(rich_source(), narrator=ScriptedNarrator(), clock=clock)
    result = await auditor.run(context("x", ["pmndrs/zustand"])[0])
    assert result.data.analysis == "LLM says pmndrs/zustand is fine."


async def test_a_failing_text_scorer_falls_back_to_heuristics() -> None:
    class BrokenJudge:
        async def score_text(self, repo, signals, params, readme):
            raise RuntimeError("bad JSON")

    plain = await Auditor(rich_source(), clock=clock).run(context("x", ["pmndrs/zustand"])[0])
    judged = await Auditor(rich_source(), text_scorer=BrokenJudge(), clock=clock).run(
        context("x", ["pmndrs/zustand"])[0])
    assert judged.data.repo.scores == plain.data.repo.scores


async def test_offline_catalog_analysis_is_honest_about_gaps() -> None:
    from core.catalog import Catalog

    source = Catalog.load().source()
    ctx, _ = context("analyze zustand", ["pmndrs/zustand"])
    result = await Auditor(source, clock=clock).run(ctx)
    data = result.data
    assert data.meta.source == "catalog" and data.meta.snapshot_date == source.info.snapshot_date
    metrics = {m.name: m for m in data.repo.metrics}
    assert metrics["commits_90d"].note == "not available in the offline snapshot"
    assert metrics["last_push"].value is not None
    assert metrics["star_growth"].value is not None
    assert "based on the offline snapshot" in data.analysis
    assert data.repo.readme_summary is None
    assert data.repo.recommendation is not None and data.repo.recommendation_reasons
    assert NOW > data.repo.pushed_at


async def test_offline_catalog_unknown_repo() -> None:
    from core.catalog import Catalog

    result = await Auditor(Catalog.load().source(), clock=clock).run(context("x", ["no/such-repo"])[0])
    # offline, "not found" means "not in the snapshot", not a misspelling
    assert result.text.startswith("no/such-repo isn't in the offline snapshot of")
    assert "spelling" not in result.text


async def test_offline_catalog_analysis_is_not_partial() -> None:
    from core.catalog import Catalog

    result = await Auditor(Catalog.load().source(), clock=clock).run(context("x", ["pmndrs/zustand"])[0])
    assert not result.partial and not result.data.meta.partial
    assert result.data.meta.notes == []  # the snapshot's limits travel in signals.notes


async def test_live_signal_gaps_make_the_analysis_partial() -> None:
    source = rich_source()
    source.signals["pmndrs/zustand"] = source.signals["pmndrs/zustand"].model_copy(
        update={"notes": ["releases not measured (GitHub returned 502)"], "releases": None})
    result = await Auditor(source, clock=clock).run(context("x", ["pmndrs/zustand"])[0])
    assert result.partial
    assert result.data.repo.signals.notes == ["releases not measured (GitHub returned 502)"]


async def test_unmeasured_dimensions_are_null_on_the_wire_never_zero() -> None:
    from core.catalog import Catalog

    result = await Auditor(Catalog.load().source(), clock=clock).run(context("x", ["pmndrs/zustand"])[0])
    wire = result.data.model_dump(mode="json", by_alias=True)["repo"]["scores"]
    assert wire["documentation"] is None and wire["easeOfUse"] is None  # no README offline
    assert set(wire["unmeasured"]) >= {"documentation", "ease_of_use"}
    assert wire["activity"] is not None
