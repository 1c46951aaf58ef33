"""The Scout's searches over batched GraphQL (with a token) against the fake GitHub.

The same candidates as the REST path (so ranking does not change), in one call per round, and
REST again for whatever GraphQL could not answer.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import pytest

from core.errors import SourceUnavailable
from core.github import GitHubClient, GitHubSource
from core.github.query import MAX_QUERY_CHARS, build_query
from core.models import SearchParams
from core.search.scout import Scout, ScoutReport
from tests.fakes.github import FakeGitHub
from tests.github.conftest import RecordedSleep, make_settings

TOKEN = "test-token"
NARROW = SearchParams(keywords=["state"], synonym_groups=[["react"]])  # enough without widening
THIN = SearchParams(phrases=["state management"], language="Rust", min_stars=50000)  # widens four steps
DATED = SearchParams(keywords=["linter"], language="Python", pushed_after=date(2026, 1, 1))
QUERIES = [NARROW, THIN, DATED, SearchParams(synonym_groups=[["web framework", "http framework"]], language="Go"),
           SearchParams(topics=["graphql"], keywords=["client"], language="Elixir")]


@pytest.fixture
async def tgh() -> AsyncIterator[FakeGitHub]:
    async with FakeGitHub(token=TOKEN, search_budget=1000) as fake:
        yield fake


def _source(gh: FakeGitHub, **overrides: object) -> GitHubSource:
    return GitHubSource(GitHubClient(make_settings(gh, **overrides), sleep=RecordedSleep()))


async def _scout(gh: FakeGitHub, params: SearchParams, **overrides: object) -> ScoutReport:
    source = _source(gh, **overrides)
    try:
        return await Scout(source).gather(params, deadline=time.monotonic() + 30)
    finally:
        await source.aclose()


def _content(report: ScoutReport) -> tuple[Any, ...]:
    return ([c.model_dump() for c in report.candidates], report.found_by, report.relaxed,
            report.notes, report.params, report.exact)


@pytest.mark.parametrize("params", QUERIES, ids=lambda p: p.describe())
async def test_graphql_finds_the_same_candidates_as_rest(tgh: FakeGitHub, params: SearchParams) -> None:
    graphql = await _scout(tgh, params)
    assert tgh.count("/search/repositories") == 0
    assert 1 <= tgh.count("/graphql") <= 2  # the strategies, and one widening round if needed
    rest = await _scout(tgh, params, graphql=False)
    assert _content(graphql) == _content(rest)


async def test_the_strategies_are_one_call_and_widening_one_more(tgh: FakeGitHub) -> None:
    report = await _scout(tgh, NARROW)
    assert [c.path for c in tgh.calls] == ["/graphql"] and not report.relaxed
    tgh.reset_log()
    report = await _scout(tgh, THIN)
    assert [c.path for c in tgh.calls] == ["/graphql", "/graphql"]
    assert len(report.relaxed) == 4 and not report.partial


async def test_a_failed_search_in_a_partial_answer_alone_goes_over_rest(tgh: FakeGitHub) -> None:
    rest = await _scout(tgh, NARROW, graphql=False)
    tgh.reset_log()
    tgh.fail_search("sort:stars-desc")  # most-starred
    graphql = await _scout(tgh, NARROW)
    assert tgh.count("/graphql") == 1 and tgh.count("/search/repositories") == 1
    assert _content(graphql) == _content(rest) and not graphql.partial


async def test_a_spent_graphql_budget_searches_over_rest(tgh: FakeGitHub) -> None:
    rest = await _scout(tgh, NARROW, graphql=False)
    tgh.reset_log()
    tgh.graphql_rate_limit()
    graphql = await _scout(tgh, NARROW)
    assert tgh.count("/graphql") == 1 and tgh.count("/search/repositories") == 3
    assert _content(graphql) == _content(rest)


async def test_a_5xx_is_retried_and_a_refused_query_falls_back(tgh: FakeGitHub) -> None:
    tgh.fail("/graphql", status=502, times=1)
    await _scout(tgh, NARROW)
    assert tgh.count("/graphql") == 2 and tgh.count("/search/repositories") == 0
    tgh.reset_log()
    tgh.fail("/graphql", status=400, times=1)  # GitHub refused the query: REST answers
    report = await _scout(tgh, DATED)
    assert tgh.count("/search/repositories") >= 3 and report.candidates


async def test_a_graphql_timeout_is_an_outage_like_any_other(tgh: FakeGitHub) -> None:
    tgh.slow("/graphql", seconds=2.0, times=None)
    with pytest.raises(SourceUnavailable):  # FallbackSource then answers from the snapshot
        await _scout(tgh, NARROW, read_timeout=0.3, retries=2)


async def test_an_overlong_search_goes_over_rest_unchanged(tgh: FakeGitHub) -> None:
    long_words = [f"{w}-extraordinarily-long-library-name" for w in ("alpha", "bravo", "charlie", "delta")]
    params = SearchParams(synonym_groups=[long_words, ["framework", "toolkit"]], min_stars=10,
                          created_after=date(2020, 1, 1))
    assert len(build_query(params)) > MAX_QUERY_CHARS - len(" sort:stars-desc")
    source = _source(tgh)
    await source.search(params, sort="stars")
    assert tgh.count("/search/repositories") == 1 and tgh.count("/graphql") == 0
    await source.aclose()


async def test_the_search_query_reports_its_cost(tgh: FakeGitHub) -> None:
    source = _source(tgh)
    await Scout(source).gather(NARROW, deadline=time.monotonic() + 30)
    assert source.client.stats.graphql_cost >= 1
    assert source.info.batched_search
    await source.aclose()


async def test_anonymous_searches_stay_on_rest(gh: FakeGitHub) -> None:
    source = _source(gh)
    assert not source.info.batched_search
    await Scout(source).gather(NARROW, deadline=time.monotonic() + 30)
    assert gh.count("/graphql") == 0 and gh.count("/search/repositories") == 3
    await source.aclose()
