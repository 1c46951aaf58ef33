"""repo_detail summaries: overview, key metrics, findings, contribute / watch / avoid."""

from __future__ import annotations

from datetime import timedelta

from core.models import Intent, RepoDetailData, RepositoryDetail
from tests.synth.factories import NOW, catalog_meta, repo, repo_detail, repo_list

ANALYZE = {"intent": Intent.ANALYZE, "message": "analyze zustand"}


def sections(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def test_has_overview_metrics_findings_and_recommendation(run) -> None:
    out = run(repo_detail(0), **ANALYZE)
    assert sections(out.markdown) == [
        "## pmndrs/zustand", "### Summary", "### Key metrics", "### Main findings", "### Recommendation"
    ]
    overview = out.markdown.split("### Key metrics")[0]
    assert "**Stars:** 58.6k" in overview and "**Language:** TypeScript" in overview
    assert "**License:** MIT" in overview and "**Last code change:** 2026-08-19" in overview


def test_key_metrics_grouped_with_scores_and_missing_ones_summed_up(run) -> None:
    out = run(repo_detail(0), **ANALYZE)
    metrics = out.markdown.split("### Key metrics")[1].split("### Main findings")[0]
    assert "**Activity**: 9.0/10 (how recently and how often new code lands)" in metrics
    assert "- Commits (last 90 days): 142" in metrics
    assert "- _Not available in the offline snapshot: commits (last 30 days)._" in metrics
    assert "**Maintenance**" in metrics and "**Community**" in metrics
    assert "Stars" not in metrics  # overview metrics are not repeated


def test_metrics_fall_back_to_signals_when_the_auditor_gave_none(run) -> None:
    out = run(repo_detail(0, with_metrics=False), **ANALYZE)
    metrics = out.markdown.split("### Key metrics")[1]
    assert "131 commits in the last 90 days" in metrics or "140 commits" in metrics
    assert "maintainer responsiveness (how quickly maintainers reply to issues)" in metrics
    assert "250 contributors" in metrics


def test_findings_and_analysis_are_shown(run) -> None:
    out = run(repo_detail(0), **ANALYZE)
    findings = out.markdown.split("### Main findings")[1].split("### Recommendation")[0]
    assert "- Very active: 142 commits in the last 90 days." in findings
    story = out.markdown.split("### Summary")[1].split("### Key metrics")[0]
    assert "is a TypeScript project with 58,592 stars" in story


def test_notes_inside_the_analysis_are_not_repeated(run) -> None:
    data = repo_detail(0)
    data.analysis += "\n\n_This is based on the offline snapshot of 2026-08-22; not available offline: releases._"
    out = run(data, **ANALYZE)
    assert "not available offline: releases" not in out.markdown


def test_recommendation_from_the_auditor_with_reasons(run) -> None:
    out = run(repo_detail(0), **ANALYZE)
    rec = out.markdown.split("### Recommendation")[1]
    assert "**Contribute**: a healthy, active project" in rec
    assert "- Active maintainers who review pull requests within days." in rec


def test_archived_repo_gets_a_derived_avoid(run) -> None:
    data = repo_detail(9, recommendation=None)  # facebookexperimental/Recoil, archived
    out = run(data, **ANALYZE)
    rec = out.markdown.split("### Recommendation")[1]
    assert "**Avoid**" in rec and "archived" in rec
    assert "This repository is archived (read-only" in out.markdown


def test_derived_verdicts_for_active_and_quiet_repos(run) -> None:
    active = run(repo_detail(0, recommendation=None), **ANALYZE).markdown
    assert "**Contribute**" in active
    quiet = repo_detail(1, recommendation=None)
    quiet.repo.signals = None
    quiet.repo.pushed_at = NOW - timedelta(days=200)
    quiet.repo.scores.overall = 5.0
    assert "**Watch**" in run(quiet, **ANALYZE).markdown


def test_unmeasured_dimensions_show_as_not_available(run) -> None:
    data = repo_detail(0)
    data.repo.scores.activity = 0.0
    if "unmeasured" in type(data.repo.scores).model_fields:
        data.repo.scores.unmeasured = ["activity"]
        assert "**Activity**: n/a (not measured)" in run(data, **ANALYZE).markdown


def test_no_measurements_says_so_plainly(run) -> None:
    bare = RepositoryDetail(full_name="someone/tiny", stars=12)
    out = run(RepoDetailData(repo=bare), **ANALYZE)
    assert "I don't have activity, maintenance or community measurements" in out.markdown
    assert "### Recommendation" in out.markdown


def test_suggestions_compare_with_a_similar_repo_from_the_thread(run) -> None:
    out = run(repo_detail(0), intent=Intent.ANALYZE, message="analyze the first one", previous=repo_list(3))
    assert out.suggestions == [
        "Compare pmndrs/zustand vs reduxjs/redux",
        "Show contribution guide for pmndrs/zustand",
        "Analyze another repository",
        "Search for alternatives to pmndrs/zustand",
    ]


def test_follow_up_acknowledges_the_list_it_came_from(run) -> None:
    out = run(repo_detail(0), intent=Intent.ANALYZE, message="analyze the first one",
              previous=repo_list(3, meta=catalog_meta("find React libraries")))
    assert out.markdown.startswith("_Following up on the React libraries we found..._")


def test_long_description_is_truncated(run) -> None:
    data = repo_detail(0)
    data.repo.description = "x" * 900
    out = run(data, **ANALYZE)
    assert "x" * 501 not in out.markdown
    assert len(out.data.repo.description) <= 500


def test_snapshot_note(run) -> None:
    assert "offline snapshot of GitHub taken on 2026-08-22" in run(repo_detail(0), **ANALYZE).markdown


def test_repo_without_description_or_language(run) -> None:
    bare = repo(0).model_dump()
    bare.update(description="", language=None)
    out = run(RepoDetailData(repo=RepositoryDetail(**bare)), **ANALYZE)
    assert "**Language:** not stated" in out.markdown


def test_recent_committers_stand_in_where_contributors_were_not_counted(run) -> None:
    data = repo_detail(0, with_metrics=False)
    assert data.repo.signals is not None
    data.repo.signals.contributors = None  # GraphQL: no all-time count
    data.repo.signals.recent_committers, data.repo.signals.recent_commits_sampled = 14, 100
    metrics = run(data, **ANALYZE).markdown.split("### Key metrics")[1]
    assert "14 people wrote the last 100 commits" in metrics and "contributor" not in metrics
