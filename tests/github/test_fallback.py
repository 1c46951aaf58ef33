"""Backends: live GitHub by default, the offline catalog when disabled or unreachable."""

from __future__ import annotations

import time

import pytest

from core.catalog.catalog import Catalog
from core.errors import RateLimited, RepoNotFound
from core.usage import UsageMeter, current_meter
from core.github import FallbackSource, GitHubSource, build_source
from core.models import SearchParams
from tests.fakes.github import FakeGitHub


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def catalog_source():  # type: ignore[no-untyped-def]
    return Catalog.load().source()


async def _closed_port_env() -> dict[str, str]:
    async with FakeGitHub() as gh:
        env = gh.env()
    return env  # nothing listens there any more: connection refused


def test_offline_mode_is_the_catalog(catalog_source) -> None:  # type: ignore[no-untyped-def]
    assert build_source({"OMG_GITHUB": "offline"}, catalog_source) is catalog_source


async def test_live_by_default(gh: FakeGitHub, catalog_source) -> None:  # type: ignore[no-untyped-def]
    source = build_source(gh.env(), catalog_source)
    assert isinstance(source, FallbackSource) and isinstance(source.primary, GitHubSource)
    repos = await source.search(SearchParams(keywords=["react"]), limit=5)
    assert repos and gh.count("/search/") == 1
    assert source.info.kind == "github"
    assert source.info.label == "GitHub (127.0.0.1:%d)" % gh.port
    await source.aclose()


async def test_unreachable_github_falls_back_to_the_catalog_and_says_so(catalog_source) -> None:  # type: ignore[no-untyped-def]
    source = build_source(await _closed_port_env(), catalog_source)
    assert isinstance(source, FallbackSource)
    started = time.perf_counter()
    repos = await source.search(SearchParams(keywords=["react"]), limit=5)
    assert time.perf_counter() - started < 2.0
    assert repos, "the catalog answered"
    info = source.info
    assert info.kind == "catalog" and info.snapshot_date == Catalog.load().snapshot_date
    assert "unreachable" in info.label
    # the outage is remembered: the next calls go straight to the catalog
    started = time.perf_counter()
    repo = await source.get_repo(repos[0].full_name)
    signals = await source.get_signals(repo.full_name)
    assert time.perf_counter() - started < 0.2
    assert signals.commits_30d is None and signals.notes  # nothing measured, and it says so
    assert source.fallbacks == 3
    await source.aclose()


async def test_github_comes_back_after_the_outage_window(gh: FakeGitHub, catalog_source) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    live = build_source(gh.env(), catalog_source)
    assert isinstance(live, FallbackSource)
    source = FallbackSource(live.primary, catalog_source, outage_seconds=60, clock=clock)
    gh.fail("/repos/", status=503, times=3)  # every retry fails once
    repo = await source.get_repo("pmndrs/zustand")
    assert source.info.kind == "catalog" and repo.full_name == "pmndrs/zustand"
    calls = gh.count()
    await source.get_repo("pmndrs/zustand")
    assert gh.count() == calls  # still in the outage window
    clock.now += 61
    await source.get_repo("pmndrs/zustand")
    assert gh.count() == calls + 1 and source.info.kind == "github"
    await source.aclose()


async def test_missing_repos_are_not_hidden_by_the_fallback(
    gh: FakeGitHub, catalog_source  # type: ignore[no-untyped-def]
) -> None:
    source = build_source(gh.env(), catalog_source)
    with pytest.raises(RepoNotFound):
        await source.get_repo("nobody/nothing-here")
    assert source.info.kind == "github"
    await source.aclose()


async def test_a_spent_rate_limit_answers_from_the_snapshot_and_says_so(
    gh: FakeGitHub, catalog_source  # type: ignore[no-untyped-def]
) -> None:
    source = build_source(gh.env(), catalog_source)
    gh.rate_limit("/search/", reset_in=1800)
    meter = UsageMeter()
    token = current_meter.set(meter)
    try:
        found = await source.search(SearchParams(keywords=["react"]))
    finally:
        current_meter.reset(token)
    assert found and source.info.kind == "catalog" and "rate limit" in source.info.label
    assert len(meter.notes) == 1 and "GitHub rate limit reached, resets at" in meter.notes[0]
    assert "offline snapshot of" in meter.notes[0]
    await source.get_repo("pmndrs/zustand")  # the core budget is not spent: GitHub answers
    assert source.info.kind == "github"
    gh.rate_limit("/repos/", reset_in=1800)
    with pytest.raises(RateLimited):  # not in the snapshot either: the rate limit is the answer
        await source.get_repo("nobody/nothing-here")
    await source.aclose()


async def test_probe_finds_an_outage_before_the_first_turn(catalog_source) -> None:  # type: ignore[no-untyped-def]
    source = build_source(await _closed_port_env(), catalog_source)
    assert isinstance(source, FallbackSource)
    assert source.info.kind == "github"
    assert await source.probe() is False
    assert source.info.kind == "catalog"  # the very first search already reports the snapshot
    await source.aclose()


async def test_probe_against_a_reachable_github(gh: FakeGitHub, catalog_source) -> None:  # type: ignore[no-untyped-def]
    source = build_source(gh.env(), catalog_source)
    assert isinstance(source, FallbackSource)
    assert await source.probe() is True
    assert gh.count("/rate_limit") == 1 and source.info.kind == "github"
    await source.aclose()


async def test_consecutive_outages_widen_the_window(gh: FakeGitHub, catalog_source) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    live = build_source(gh.env(), catalog_source)
    assert isinstance(live, FallbackSource)
    source = FallbackSource(live.primary, catalog_source, outage_seconds=60, clock=clock)
    source.mark_outage()
    clock.now += 61
    assert not source.in_outage
    source.mark_outage()  # GitHub still down at the next try: twice as long
    clock.now += 61
    assert source.in_outage
    clock.now += 60
    assert not source.in_outage
    await source.aclose()


async def test_calls_wait_for_a_running_probe(catalog_source) -> None:  # type: ignore[no-untyped-def]
    source = build_source(await _closed_port_env(), catalog_source)
    assert isinstance(source, FallbackSource)
    source.start_probe()
    repos = await source.search(SearchParams(keywords=["react"]), limit=3)
    assert repos and source.info.kind == "catalog"
    assert source.primary.client.stats.requests == 2  # type: ignore[attr-defined]  # the probe's only
    await source.aclose()
