"""The REST client against the fake GitHub: caching, concurrency, errors, retries, rate limits."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from core.errors import InvalidQuery, RateLimited, RepoNotFound, SourceAuthError, SourceUnavailable
from core.github import GitHubClient
from core.github.client import RAW
from tests.fakes.github import FakeGitHub
from tests.github.conftest import RecordedSleep, make_settings


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_sends_version_accept_and_no_token_when_anonymous(gh: FakeGitHub, client: GitHubClient) -> None:
    answer = await client.get("/repos/pmndrs/zustand")
    assert answer.json()["full_name"] == "pmndrs/zustand"
    call = gh.calls[-1]
    assert call.accept == "application/vnd.github+json"
    assert call.authorization is False


async def test_token_is_sent_and_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    token = "ghp_" + "x" * 36
    async with FakeGitHub(token=token) as gh:
        client = GitHubClient(make_settings(gh))
        caplog.set_level(logging.DEBUG)
        await client.get("/repos/pmndrs/zustand")
        assert gh.calls[-1].authorization
        assert token not in caplog.text
        assert token not in repr(client.settings)
        await client.aclose()


async def test_wrong_token_is_a_clear_auth_error() -> None:
    async with FakeGitHub(token="right-token-123") as gh:
        client = GitHubClient(make_settings(gh, token=None))
        with pytest.raises(SourceAuthError) as err:
            await client.get("/repos/pmndrs/zustand")
        assert "GITHUB_TOKEN" in err.value.user_message
        await client.aclose()


async def test_enterprise_base_url_with_path_prefix() -> None:
    async with FakeGitHub(prefix="/api/v3") as gh:
        assert gh.env()["GITHUB_API_URL"].endswith("/api/v3")
        client = GitHubClient(make_settings(gh))
        answer = await client.get("/repos/pmndrs/zustand")
        assert answer.json()["full_name"] == "pmndrs/zustand"
        await client.aclose()


async def test_raw_readme(client: GitHubClient) -> None:
    answer = await client.get("/repos/pmndrs/zustand/readme", accept=RAW)
    assert answer.text().startswith("# zustand")


async def test_fresh_cache_entry_is_served_without_a_request(gh: FakeGitHub) -> None:
    clock = Clock()
    client = GitHubClient(make_settings(gh), cache_clock=clock)
    await client.get("/repos/pmndrs/zustand", ttl=60)
    clock.now += 30
    await client.get("/repos/pmndrs/zustand", ttl=60)
    assert gh.count("/repos/pmndrs/zustand$") == 1
    assert client.stats.cache_hits == 1
    clock.now += 31  # stale: revalidated with the ETag, answered 304
    again = await client.get("/repos/pmndrs/zustand", ttl=60)
    assert again.json()["full_name"] == "pmndrs/zustand"
    assert gh.count("/repos/pmndrs/zustand$") == 2
    assert gh.calls[-1].if_none_match and gh.calls[-1].status == 304
    assert client.stats.not_modified == 1
    clock.now += 30  # the 304 made the entry fresh again
    await client.get("/repos/pmndrs/zustand", ttl=60)
    assert gh.count("/repos/pmndrs/zustand$") == 2
    await client.aclose()


async def test_etag_revalidation_with_zero_ttl_reuses_the_body(gh: FakeGitHub, client: GitHubClient) -> None:
    first = await client.get("/repos/pmndrs/zustand/releases", {"per_page": 1})
    second = await client.get("/repos/pmndrs/zustand/releases", {"per_page": 1})
    assert gh.calls[0].if_none_match is None
    assert gh.calls[1].if_none_match is not None and gh.calls[1].status == 304
    assert second.cached and second.body == first.body
    assert second.links == first.links  # the Link header survives the 304


async def test_cache_is_bounded(gh: FakeGitHub) -> None:
    client = GitHubClient(make_settings(gh, cache_entries=2))
    for name in ("pmndrs/zustand", "reduxjs/redux", "react/react"):
        await client.get(f"/repos/{name}", ttl=60)
    await client.get("/repos/pmndrs/zustand", ttl=60)  # evicted: fetched again
    assert gh.count("/repos/pmndrs/zustand$") == 2
    await client.aclose()


async def test_cache_holds_at_most_its_bytes_of_bodies(gh: FakeGitHub) -> None:
    probe = GitHubClient(make_settings(gh))
    one = len((await probe.get("/repos/pmndrs/zustand")).body)
    await probe.aclose()
    client = GitHubClient(make_settings(gh, cache_bytes=int(2.5 * one)))
    for name in ("pmndrs/zustand", "reduxjs/redux", "react/react", "vuejs/vue"):
        await client.get(f"/repos/{name}", ttl=60)
    await client.get("/repos/vuejs/vue", ttl=60)  # the latest are kept
    assert gh.count("/repos/vuejs/vue$") == 1
    await client.get("/repos/pmndrs/zustand", ttl=60)  # the oldest went first: fetched again
    assert gh.count("/repos/pmndrs/zustand$") == 3
    await client.aclose()


def test_a_body_larger_than_the_budget_is_not_kept() -> None:
    from core.github.cache import ResponseCache

    cache = ResponseCache(10, max_bytes=100)
    cache.put("small", 200, b"x" * 60, {})
    cache.put("huge", 200, b"x" * 101, {})
    assert cache.get("huge") is None and cache.get("small") is not None and cache.size_bytes == 60
    cache.put("small", 200, b"x" * 30, {})  # replaced: counted once
    assert cache.size_bytes == 30 and len(cache) == 1


async def test_concurrency_is_bounded(gh: FakeGitHub) -> None:
    gh.latency = 0.05
    client = GitHubClient(make_settings(gh, max_concurrency=3))
    names = [r.full_name for r in gh.world.repos[:12]]
    await asyncio.gather(*(client.get(f"/repos/{n}") for n in names))
    assert gh.count() == 12
    assert gh.max_in_flight == 3
    await client.aclose()


async def test_identical_concurrent_requests_share_one_call(gh: FakeGitHub, client: GitHubClient) -> None:
    gh.latency = 0.05
    answers = await asyncio.gather(*(client.get("/repos/pmndrs/zustand") for _ in range(5)))
    assert gh.count() == 1
    assert {a.json()["full_name"] for a in answers} == {"pmndrs/zustand"}


async def test_404_names_the_repository(client: GitHubClient) -> None:
    with pytest.raises(RepoNotFound) as err:
        await client.get("/repos/nobody/nothing-here")
    assert err.value.user_message == (
        "I couldn't find nobody/nothing-here on GitHub. Check the owner/name spelling?"
    )


async def test_422_is_invalid_query(gh: FakeGitHub, client: GitHubClient) -> None:
    with pytest.raises(InvalidQuery):
        await client.get("/search/repositories", {"q": ""})


async def test_5xx_is_retried_with_backoff_then_succeeds(
    gh: FakeGitHub, client: GitHubClient, sleep: RecordedSleep
) -> None:
    gh.fail("/repos/pmndrs/zustand", status=502, times=2)
    answer = await client.get("/repos/pmndrs/zustand")
    assert answer.json()["full_name"] == "pmndrs/zustand"
    assert gh.count() == 3
    assert client.stats.retries == 2
    assert len(sleep.waits) == 2 and sleep.waits[1] > sleep.waits[0] > 0


async def test_5xx_every_time_becomes_source_unavailable(gh: FakeGitHub, client: GitHubClient) -> None:
    gh.fail("/repos/", status=500, times=None)
    with pytest.raises(SourceUnavailable) as err:
        await client.get("/repos/pmndrs/zustand")
    assert gh.count() == client.settings.retries == 3
    assert "couldn't reach GitHub" in err.value.user_message


async def test_slow_response_beyond_the_timeout(gh: FakeGitHub, sleep: RecordedSleep) -> None:
    client = GitHubClient(make_settings(gh, read_timeout=0.2), sleep=sleep)
    gh.slow("/repos/pmndrs/zustand$", seconds=1.0, times=1)  # the retry is fast
    answer = await client.get("/repos/pmndrs/zustand")
    assert answer.json()["full_name"] == "pmndrs/zustand"
    assert client.stats.retries == 1
    gh.slow("/repos/reduxjs/redux$", seconds=1.0, times=None)
    started = time.perf_counter()
    with pytest.raises(SourceUnavailable):
        await client.get("/repos/reduxjs/redux")
    assert time.perf_counter() - started < 1.0  # two timed-out attempts at most, not three
    await client.aclose()


async def test_unreachable_host_fails_fast(sleep: RecordedSleep) -> None:
    async with FakeGitHub() as gh:
        settings = make_settings(gh)
    client = GitHubClient(settings, sleep=sleep)  # the server is gone: connection refused
    started = time.perf_counter()
    with pytest.raises(SourceUnavailable):
        await client.get("/repos/pmndrs/zustand")
    assert time.perf_counter() - started < 1.0
    assert client.stats.requests == 2
    await client.aclose()


async def test_long_primary_rate_limit_raises_with_reset_time(gh: FakeGitHub, client: GitHubClient) -> None:
    gh.rate_limit("/search/", reset_in=1800)
    with pytest.raises(RateLimited) as err:
        await client.get("/search/repositories", {"q": "react"})
    assert err.value.reset_at is not None
    expected = err.value.reset_at.strftime("%H:%M")
    assert err.value.user_message == f"GitHub rate limit reached, resets at {expected} UTC."
    assert abs(err.value.reset_at.timestamp() - (time.time() + 1800)) < 5


async def test_exhausted_budget_is_remembered_until_reset(gh: FakeGitHub, client: GitHubClient) -> None:
    gh.rate_limit("/search/", reset_in=1800)
    with pytest.raises(RateLimited):
        await client.get("/search/repositories", {"q": "react"})
    with pytest.raises(RateLimited):
        await client.get("/search/repositories", {"q": "vue"})
    assert gh.count("/search/") == 1  # the second call never reached GitHub
    answer = await client.get("/repos/pmndrs/zustand")  # the core budget is separate
    assert answer.status == 200


async def test_short_primary_rate_limit_is_waited_out(
    gh: FakeGitHub, client: GitHubClient, sleep: RecordedSleep
) -> None:
    gh.rate_limit("/repos/pmndrs/zustand", reset_in=3)
    answer = await client.get("/repos/pmndrs/zustand")
    assert answer.status == 200
    assert len(sleep.waits) == 1 and 1 <= sleep.waits[0] <= 4
    assert client.stats.rate_limit_waits == 1


async def test_secondary_rate_limit_retry_after(
    gh: FakeGitHub, client: GitHubClient, sleep: RecordedSleep
) -> None:
    gh.secondary_rate_limit("/repos/pmndrs/zustand", retry_after=2)
    assert (await client.get("/repos/pmndrs/zustand")).status == 200
    assert sleep.waits == [2.0]
    gh.secondary_rate_limit("/repos/reduxjs/redux", retry_after=120, status=429)
    with pytest.raises(RateLimited) as err:
        await client.get("/repos/reduxjs/redux")
    assert err.value.reset_at is not None and "resets at" in err.value.user_message


async def test_stale_cache_is_served_when_rate_limited(gh: FakeGitHub, client: GitHubClient) -> None:
    first = await client.get("/repos/pmndrs/zustand")
    gh.rate_limit("/repos/", reset_in=1800)
    again = await client.get("/repos/pmndrs/zustand")
    assert again.cached and again.body == first.body
    assert client.stats.stale_served == 1


async def test_per_call_timeout(gh: FakeGitHub, client: GitHubClient) -> None:
    gh.slow("/repos/pmndrs/zustand$", seconds=1.0, times=None)
    started = time.perf_counter()
    with pytest.raises(SourceUnavailable):
        await client.get("/repos/pmndrs/zustand", timeout=0.1)
    assert time.perf_counter() - started < 0.9  # the client default here is 2 s
