"""Signals over batched GraphQL (with a token) against the fake GitHub's GraphQL endpoint."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from core.errors import RepoNotFound, SourceUnavailable
from core.github.budget import BudgetSaved
from core.github import GitHubClient, GitHubSource
from tests.fakes.github import FakeGitHub
from tests.github.conftest import RecordedSleep, make_settings

CANDIDATES = ["pmndrs/zustand", "reduxjs/redux", "vercel/next.js", "d3/d3", "react/react"]
TOKEN = "test-token"


@pytest.fixture
async def tgh() -> AsyncIterator[FakeGitHub]:
    async with FakeGitHub(token=TOKEN) as fake:
        yield fake


def _source(gh: FakeGitHub, sleep: RecordedSleep, **overrides: object) -> GitHubSource:
    return GitHubSource(GitHubClient(make_settings(gh, **overrides), sleep=sleep))


async def test_a_search_s_candidates_cost_one_graphql_call(tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    graphql, rest = _source(tgh, sleep), _source(tgh, sleep, graphql=False)
    light = await asyncio.gather(*(graphql.get_signals(n, depth="light") for n in CANDIDATES),
                                 *(graphql.get_readme(n) for n in CANDIDATES))
    assert [c.path for c in tgh.calls] == ["/graphql"]
    assert graphql.client.stats.graphql_cost >= 1
    for name, signals, readme in zip(CANDIDATES, light, light[len(CANDIDATES):]):
        measured = await rest.get_signals(name, depth="light")
        assert (signals.releases, signals.latest_release, signals.commits_90d) == (
            measured.releases, measured.latest_release, measured.commits_90d)
        assert readme == await rest.get_readme(name)
        assert signals.commits_30d is not None  # GraphQL gives it for free
    await graphql.aclose()
    await rest.aclose()


async def test_an_analysis_is_one_graphql_call(tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    graphql, rest = _source(tgh, sleep), _source(tgh, sleep, graphql=False)
    repo, signals, readme = await asyncio.gather(
        graphql.get_repo("d3/d3"), graphql.get_signals("d3/d3"), graphql.get_readme("d3/d3"))
    assert [c.path for c in tgh.calls] == ["/graphql"]
    measured = await rest.get_signals("d3/d3")
    for field in ("releases", "commits_30d", "commits_90d", "open_pulls",
                  "open_issues_only", "closed_issues_90d", "merged_pulls_90d",
                  "median_first_response_hours", "has_contributing", "has_license",
                  "has_code_of_conduct", "has_issue_template", "has_pull_request_template"):
        assert getattr(signals, field) == getattr(measured, field), field
    assert repo.full_name == "d3/d3" and repo.stars > 0 and readme
    assert signals.notes == []
    await graphql.aclose()
    await rest.aclose()


async def test_an_analysis_counts_recent_committers_instead_of_contributors(
        tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    source = _source(tgh, sleep)
    signals = await source.get_signals("d3/d3")
    authors = tgh.world.get("d3/d3").commit_authors  # type: ignore[union-attr]
    people = {login or f"~{email}" for login, email, name in authors if "[bot]" not in name}
    assert signals.recent_committers == len(people) and signals.recent_commits_sampled == len(authors)
    assert 0 < len(people) < len(authors) and any("[bot]" in name for _, _, name in authors)
    assert signals.contributors is None  # all-time contributors are a REST count, not asked
    await source.aclose()


async def test_a_failed_default_branch_is_measured_over_rest_with_the_contributor_count(
        tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    tgh.fail_field("vercel/next.js", "defaultBranchRef")
    source = _source(tgh, sleep)
    signals = await source.get_signals("vercel/next.js")
    assert sorted(c.path.split("?")[0] for c in tgh.calls) == [
        "/graphql", "/repos/vercel/next.js/commits", "/repos/vercel/next.js/commits",
        "/repos/vercel/next.js/contributors"]
    rest = _source(tgh, sleep, graphql=False)
    measured = await rest.get_signals("vercel/next.js")
    assert (signals.commits_30d, signals.commits_90d) == (measured.commits_30d, measured.commits_90d)
    await rest.aclose()
    assert signals.contributors is not None
    assert signals.recent_committers is None and signals.recent_commits_sampled is None  # not "0 people"
    await source.aclose()


async def test_a_partial_answer_re_measures_only_the_failed_field_over_rest(
        tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    tgh.fail_field("reduxjs/redux", "releases")
    source = _source(tgh, sleep)
    signals = await asyncio.gather(*(source.get_signals(n, depth="light") for n in CANDIDATES[:3]))
    assert sorted(c.path for c in tgh.calls) == ["/graphql", "/repos/reduxjs/redux/releases"]
    assert all(s.releases is not None for s in signals)
    await source.aclose()


async def test_an_unknown_repository_is_not_found(tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    source = _source(tgh, sleep)
    known, missing = await asyncio.gather(source.get_signals("d3/d3", depth="light"),
                                          source.get_signals("nobody/nothing", depth="light"),
                                          return_exceptions=True)
    assert not isinstance(known, BaseException) and known.releases is not None
    assert isinstance(missing, RepoNotFound)
    assert tgh.count("/graphql") == 1
    await source.aclose()


async def test_a_spent_graphql_budget_falls_back_to_rest(tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    tgh.graphql_rate_limit()
    source = _source(tgh, sleep)
    signals = await source.get_signals("d3/d3", depth="light")
    assert signals.releases is not None and signals.commits_90d is not None
    assert tgh.count("/graphql") == 1 and tgh.count("/releases") == 1
    assert source.client.remaining("graphql") == 0
    await source.aclose()


async def test_a_5xx_is_retried_and_a_down_graphql_endpoint_falls_back(
        tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    tgh.fail("/graphql", status=502, times=1)
    source = _source(tgh, sleep)
    assert (await source.get_signals("d3/d3", depth="light")).releases is not None
    assert tgh.count("/graphql") == 2 and tgh.count("/releases") == 0
    await source.aclose()


async def test_anonymous_use_stays_on_rest(gh: FakeGitHub, sleep: RecordedSleep) -> None:
    source = _source(gh, sleep)
    await source.get_signals("d3/d3", depth="light")
    assert gh.count("/graphql") == 0 and gh.count("/releases") == 1
    await source.aclose()


async def test_enterprise_graphql_lives_under_api_graphql(sleep: RecordedSleep) -> None:
    async with FakeGitHub(token=TOKEN, prefix="/api/v3") as gh:
        source = _source(gh, sleep)
        assert source.client.settings.graphql_url.endswith("/api/graphql")
        assert (await source.get_signals("d3/d3", depth="light")).releases is not None
        assert gh.count("/graphql") == 1
        await source.aclose()


async def test_a_low_graphql_budget_measures_only_the_top_candidates(
        tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    source = _source(tgh, sleep)
    await source.get_signals("yt-dlp/yt-dlp", depth="light")  # learns the budget
    tgh.used["graphql"] = 4990  # 10 points left of 5,000
    source.client.clear_cache()
    await source.get_signals("vuejs/vue", depth="light")
    assert source.client.remaining("graphql") is not None and source.client.remaining("graphql") < 50
    answers = await asyncio.gather(*(source.get_signals(n, depth="light") for n in CANDIDATES + ["sveltejs/svelte"]),
                                   return_exceptions=True)
    measured = [a for a in answers if not isinstance(a, BaseException)]
    saved = [a for a in answers if isinstance(a, BudgetSaved)]
    assert len(measured) == 5 and len(saved) == 1
    assert "running low" in saved[0].user_message
    analysis = await source.get_signals("yt-dlp/yt-dlp")  # analyses are still measured in full
    assert analysis.recent_committers is not None and analysis.median_first_response_hours is not None
    await source.aclose()


async def test_the_same_candidates_in_any_order_make_the_same_query(
        tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    client = GitHubClient(make_settings(tgh), sleep=sleep)
    first, second = GitHubSource(client), GitHubSource(client)
    await asyncio.gather(*(first.get_signals(n, depth="light") for n in CANDIDATES))
    await asyncio.gather(*(second.get_signals(n, depth="light") for n in reversed(CANDIDATES)))
    assert tgh.count("/graphql") == 1 and client.stats.cache_hits == 1
    assert client.stats.graphql_cost == 1  # reported once: the cached answer cost nothing
    await client.aclose()


async def test_a_graphql_timeout_is_an_outage_like_any_other(tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    tgh.slow("/graphql", seconds=2.0, times=None)
    source = _source(tgh, sleep, read_timeout=0.3, retries=2)
    with pytest.raises(SourceUnavailable):  # FallbackSource then answers from the snapshot
        await source.get_signals("d3/d3", depth="light")
    await source.aclose()


async def test_answers_past_their_ttl_are_not_kept(tgh: FakeGitHub, sleep: RecordedSleep) -> None:
    """An answer older than the TTL is never served, so it is dropped rather than held."""
    from core.github.batch import GraphQLBatcher
    from core.github.signals import SignalCollector

    now = [1000.0]
    client = GitHubClient(make_settings(tgh), sleep=sleep)
    batcher = GraphQLBatcher(client, SignalCollector(client, ttl=60), ttl=60, clock=lambda: now[0])
    await batcher.load("pmndrs/zustand", "light")
    await batcher.load("pmndrs/zustand", "light")
    assert batcher.queries == 1  # within the TTL: the kept answer
    now[0] += 61
    await batcher.load("reduxjs/redux", "light")
    assert set(batcher._done) == {"reduxjs/redux"}
    await client.aclose()
