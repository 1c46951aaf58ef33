"""GitHubSource against the fake GitHub: search, repo, README and real measured signals."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from core.errors import RateLimited, RepoNotFound, SourceError
from core.github import GitHubClient, GitHubSettings, GitHubSource
from core.models import SearchParams
from core.sources.base import SearchResults
from tests.fakes.github import FakeGitHub
from tests.fakes.github_data import FakeRepo
from tests.github.conftest import make_settings

QUIET = "d3/d3"  # fewer than 100 issues/PRs updated in 90 days: one listing page
ACTIVE = "react/react"  # 100-500: the listing's other pages are fetched in round 2
BUSY = "public-apis/public-apis"  # more pages than allowed (3 here): counts come from search


def _midnight(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


async def test_search_honours_terms_language_stars_and_sort(gh: FakeGitHub, source: GitHubSource) -> None:
    params = SearchParams(keywords=["react"], synonym_groups=[["state management", "store", "redux"]],
                          language="TypeScript", min_stars=10_000)
    repos = await source.search(params, sort="stars", limit=10)
    assert repos, "the fake world has TypeScript state-management libraries"
    assert all(r.language == "TypeScript" and r.stars >= 10_000 for r in repos)
    assert [r.stars for r in repos] == sorted((r.stars for r in repos), reverse=True)
    assert all(not r.archived and not r.fork for r in repos)
    assert repos[0].license and repos[0].topics and repos[0].created_at
    call = gh.calls[-1]
    assert call.query["sort"] == "stars" and call.query["per_page"] == "10"
    assert " OR " in call.query["q"]


async def test_search_best_match_and_small_star_ranges(gh: FakeGitHub, source: GitHubSource) -> None:
    repos = await source.search(SearchParams(keywords=["python"], max_stars=30_000), sort="best")
    assert repos and all(r.stars <= 30_000 for r in repos)
    assert "sort" not in gh.calls[-1].query


async def test_search_results_are_cached(gh: FakeGitHub, source: GitHubSource) -> None:
    params = SearchParams(keywords=["rust"], language="Rust")
    await source.search(params)
    await source.search(params)
    assert gh.count("/search/") == 1


async def test_get_repo_and_readme(gh: FakeGitHub, source: GitHubSource) -> None:
    repo = await source.get_repo("pmndrs/zustand")
    real = gh.world.get("pmndrs/zustand")
    assert real is not None
    assert (repo.stars, repo.forks, repo.language) == (real.record.stars, real.record.forks,
                                                      real.record.language)
    assert repo.url == "https://github.com/pmndrs/zustand"
    readme = await source.get_readme("pmndrs/zustand")
    assert readme == real.readme


async def test_missing_repo_and_missing_readme(gh: FakeGitHub, source: GitHubSource) -> None:
    with pytest.raises(RepoNotFound) as err:
        await source.get_repo("nobody/nothing-here")
    assert "nobody/nothing-here" in err.value.user_message
    no_readme = next(r.full_name for r in gh.world.repos if r.readme is None)
    assert await source.get_readme(no_readme) is None
    with pytest.raises(SourceError):
        await source.get_repo("not a repo name")


def expected_counts(fr: FakeRepo, now: datetime) -> dict[str, int]:
    since30, since90 = now - timedelta(days=30), now - timedelta(days=90)
    listed = [i for i in fr.recent_issues if i.updated_at >= _midnight(since90)]
    return {
        "releases": len(fr.releases),
        "commits_30d": sum(1 for d in fr.commit_dates if d >= _midnight(since30)),
        "commits_90d": sum(1 for d in fr.commit_dates if d >= _midnight(since90)),
        "contributors": fr.contributors,
        "open_pulls": fr.open_pulls,
        "open_issues_only": fr.record.open_issues - fr.open_pulls,
        "closed_issues_90d": sum(1 for i in listed if not i.is_pull and i.closed_at
                                 and i.closed_at >= since90),
        "merged_pulls_90d": sum(1 for i in listed if i.merged_at and i.merged_at >= since90),
    }


async def test_signals_are_measured_not_guessed(gh: FakeGitHub, client) -> None:  # type: ignore[no-untyped-def]
    now = datetime.now(UTC)
    source = GitHubSource(client, now=lambda: now)
    fr = gh.world.get(QUIET)
    assert fr is not None
    signals = await source.get_signals(QUIET)
    for name, value in expected_counts(fr, now).items():
        assert getattr(signals, name) == value, name
    assert signals.latest_release == fr.releases[0][0]
    assert signals.median_first_response_hours is not None and signals.median_first_response_hours > 0
    assert signals.has_readme is True and signals.readme_chars == len(fr.readme or "")
    assert signals.has_license == (fr.license is not None)
    assert signals.has_contributing == fr.community["contributing"]
    assert signals.health_percentage is not None
    assert signals.notes == []
    assert gh.count("/search/") == 0  # one listing page was enough
    assert gh.count() <= 9 + 5


async def test_a_listing_of_a_few_pages_is_read_in_full(gh: FakeGitHub, client) -> None:  # type: ignore[no-untyped-def]
    now = datetime.now(UTC)
    source = GitHubSource(client, now=lambda: now)
    fr = gh.world.get(ACTIVE)
    assert fr is not None
    signals = await source.get_signals(ACTIVE)
    expected = expected_counts(fr, now)
    assert signals.closed_issues_90d == expected["closed_issues_90d"]
    assert signals.merged_pulls_90d == expected["merged_pulls_90d"]
    assert gh.count("/issues$") == 3 and gh.count("/search/") == 0


async def test_busy_repo_counts_come_from_search(gh: FakeGitHub, client) -> None:  # type: ignore[no-untyped-def]
    source = GitHubSource(client, max_listing_pages=3)
    signals = await source.get_signals(BUSY)
    assert gh.count("/search/issues") == 2
    fr = gh.world.get(BUSY)
    assert fr is not None
    since = (datetime.now(UTC) - timedelta(days=90)).date()
    assert signals.closed_issues_90d == sum(
        1 for i in fr.recent_issues if not i.is_pull and i.closed_at and i.closed_at.date() >= since)
    assert signals.merged_pulls_90d == sum(
        1 for i in fr.recent_issues if i.merged_at and i.merged_at.date() >= since)


async def test_a_failed_signal_stays_unknown(gh: FakeGitHub, source: GitHubSource) -> None:
    gh.fail("/community/profile", status=500, times=None)
    gh.rate_limit("/releases", reset_in=1800, times=None)
    signals = await source.get_signals(QUIET)
    assert signals.health_percentage is None and signals.has_contributing is None
    assert signals.releases is None and signals.latest_release is None
    assert signals.commits_30d is not None and signals.contributors is not None
    assert signals.has_readme is True  # known from the README itself
    assert len(signals.notes) == 1 and "GitHub rate limit reached, resets at" in signals.notes[0]


async def test_nothing_measurable_raises_the_cause(gh: FakeGitHub, source: GitHubSource) -> None:
    gh.rate_limit("/repos/", reset_in=1800, times=None)
    with pytest.raises(RateLimited):
        await source.get_signals(QUIET)


async def test_signals_of_a_missing_repo(source: GitHubSource) -> None:
    with pytest.raises(RepoNotFound):
        await source.get_signals("nobody/nothing-here")


async def test_analyze_fetches_each_resource_once(gh: FakeGitHub, source: GitHubSource) -> None:
    """What the Auditor does: repo, signals and README at once -- shared, not duplicated."""
    await asyncio.gather(source.get_repo(QUIET), source.get_signals(QUIET), source.get_readme(QUIET))
    assert gh.count(f"/repos/{QUIET}$") == 1
    assert gh.count(f"/repos/{QUIET}/readme") == 1
    assert gh.count() <= 9 + 5


async def test_search_results_prime_the_repository_metadata(gh: FakeGitHub, source: GitHubSource) -> None:
    repos = await source.search(SearchParams(keywords=["react"]), limit=5)
    repo = await source.get_repo(repos[0].full_name)
    assert repo == repos[0]
    assert gh.count("/repos/") == 0


async def test_round_two_is_skipped_when_the_budget_runs_low() -> None:
    async with FakeGitHub(core_budget=250) as low:
        frugal = GitHubClient(make_settings(low))
        signals = await GitHubSource(frugal).get_signals(QUIET)
        assert signals.commits_30d is not None and signals.releases is not None
        assert signals.median_first_response_hours is None and signals.closed_issues_90d is None
        assert "running low" in signals.notes[0]
        assert low.count("/comments") == 0
        await frugal.aclose()


async def test_light_signals_cost_three_calls_and_are_measured(gh: FakeGitHub, client) -> None:  # type: ignore[no-untyped-def]
    now = datetime.now(UTC)
    source = GitHubSource(client, now=lambda: now)
    fr = gh.world.get(ACTIVE)
    assert fr is not None
    signals = await source.get_signals(ACTIVE, depth="light")
    expected = expected_counts(fr, now)
    assert signals.releases == expected["releases"] and signals.commits_90d == expected["commits_90d"]
    assert signals.latest_release == fr.releases[0][0]
    assert signals.readme_chars == len(fr.readme or "") and signals.has_readme is True
    skipped = ("commits_30d", "contributors", "open_pulls", "open_issues_only", "closed_issues_90d",
               "merged_pulls_90d", "median_first_response_hours", "health_percentage")
    assert all(getattr(signals, name) is None for name in skipped)  # not fetched: unknown, not 0
    assert gh.count() == 3
    assert "measured when you analyze" in signals.notes[-1] and "contributors" in signals.notes[-1]


async def test_light_signals_share_the_readme_call_with_get_readme(gh: FakeGitHub, source: GitHubSource) -> None:
    signals, readme = await asyncio.gather(source.get_signals(QUIET, depth="light"),
                                           source.get_readme(QUIET))
    assert readme and signals.readme_chars == len(readme)
    assert gh.count("/readme") == 1 and gh.count() == 3


async def test_light_signals_of_a_missing_repo(source: GitHubSource) -> None:
    with pytest.raises(RepoNotFound):
        await source.get_signals("nobody/nothing-here", depth="light")


async def test_full_is_the_default_depth(gh: FakeGitHub, source: GitHubSource) -> None:
    signals = await source.get_signals(QUIET)
    assert signals.contributors is not None and signals.health_percentage is not None
    assert gh.count() > 9


async def test_calls_per_hour_comes_from_github(gh: FakeGitHub, source: GitHubSource) -> None:
    assert source.info.calls_per_hour == 60  # no token, no answer yet: GitHub's anonymous limit
    await source.get_repo(QUIET)
    assert source.info.calls_per_hour == 5000  # what GitHub says wins
    gh.limit_headers = False  # GitHub Enterprise with rate limiting switched off
    await source.get_repo(ACTIVE)
    assert source.info.calls_per_hour is None


def test_calls_per_hour_before_any_answer() -> None:
    anonymous = GitHubSource(GitHubClient(GitHubSettings()))
    assert anonymous.info.calls_per_hour == 60 and anonymous.info.kind == "github"
    with_token = GitHubSource(GitHubClient(GitHubSettings(token="t0ken")))  # type: ignore[arg-type]
    assert with_token.info.calls_per_hour is None


async def test_incomplete_search_results_are_flagged(gh: FakeGitHub, source: GitHubSource) -> None:
    found = await source.search(SearchParams(keywords=["react"]), limit=5)
    assert isinstance(found, SearchResults) and not found.incomplete
    gh.incomplete_results = True
    found = await source.search(SearchParams(keywords=["vue"]), limit=5)
    assert found and found.incomplete
