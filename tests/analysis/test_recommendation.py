"""Contribute / watch / avoid rules."""

from __future__ import annotations

from core.analysis.recommendation import recommend
from core.models import Recommendation, Repository, RepoSignals
from tests.analysis.fixtures import NOW, abandoned, days_ago, redux, zustand


def test_active_welcoming_project_is_contribute() -> None:
    repo, signals, _ = zustand()
    verdict = recommend(repo, signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.CONTRIBUTE
    assert verdict.reasons[0] == "It is actively developed: 84 commits in the last 90 days."
    assert any("CONTRIBUTING" in r for r in verdict.reasons)
    assert any("4 hours" in r for r in verdict.reasons)
    assert len(verdict.reasons) <= 4


def test_archived_is_avoid() -> None:
    repo, signals, _ = zustand()
    verdict = recommend(repo.model_copy(update={"archived": True}), signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.AVOID
    assert "archived" in verdict.reasons[0]


def test_no_push_for_over_a_year_is_avoid() -> None:
    repo, signals, _ = abandoned()
    verdict = recommend(repo, signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.AVOID
    assert "2.2 years" in verdict.reasons[0]


def test_missing_license_blocks_contribute() -> None:
    repo, signals, _ = zustand()
    repo = repo.model_copy(update={"license": None})
    signals = signals.model_copy(update={"has_license": False})
    verdict = recommend(repo, signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.WATCH
    assert "no license" in verdict.reasons[0]


def test_slow_responses_block_contribute() -> None:
    repo, signals, _ = zustand()
    signals = signals.model_copy(update={"median_first_response_hours": 24 * 30.0})
    verdict = recommend(repo, signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.WATCH
    assert "30 days" in verdict.reasons[0]


def test_slowing_down_is_watch() -> None:
    repo, signals, _ = redux()
    repo = repo.model_copy(update={"pushed_at": days_ago(200)})
    verdict = recommend(repo, signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.WATCH
    assert any("6 months ago" in r for r in verdict.reasons)


def test_active_but_no_welcome_signs_is_watch() -> None:
    repo = Repository(full_name="solo/tool", stars=300, forks=10, license="MIT", pushed_at=days_ago(5))
    signals = RepoSignals(commits_90d=40, contributors=1, has_contributing=False,
                          merged_pulls_90d=0, has_license=True)
    verdict = recommend(repo, signals, now=NOW, source_kind="github")
    assert verdict.recommendation is Recommendation.WATCH
    assert "no sign that outside contributions are welcome" in verdict.reasons[0]


def test_no_commits_in_90_days_is_watch_even_if_pushed() -> None:
    repo, signals, _ = zustand()
    signals = signals.model_copy(update={"commits_90d": 0})
    assert recommend(repo, signals, now=NOW, source_kind="github").recommendation is Recommendation.WATCH


def test_offline_uses_forks_and_recent_push_as_a_labelled_proxy() -> None:
    repo = Repository(full_name="big/project", stars=40_000, forks=3_000, pushed_at=days_ago(4))
    verdict = recommend(repo, RepoSignals(), now=NOW, source_kind="catalog")
    assert verdict.recommendation is Recommendation.CONTRIBUTE
    assert "aren't available offline" in verdict.reasons[1]


def test_offline_small_project_is_watch_not_invented() -> None:
    repo = Repository(full_name="small/project", stars=900, forks=20, pushed_at=days_ago(4),
                      star_growth_12m=400)
    verdict = recommend(repo, RepoSignals(), now=NOW, source_kind="catalog")
    assert verdict.recommendation is Recommendation.WATCH
    assert any("400 new stars" in r for r in verdict.reasons)


def test_unknown_push_date_is_watch() -> None:
    verdict = recommend(Repository(full_name="x/y"), RepoSignals(), now=NOW, source_kind="catalog")
    assert verdict.recommendation is Recommendation.WATCH
    assert "couldn't tell when the code last changed" in verdict.reasons[0]
