"""Chat scenarios through the test adapter, with GitHub live (the fake server) and offline.

    search -> "analyze the second one" -> "compare the first two"

plus every GitHub failure mode as the user meets it: a clear reply, and the conversation goes on.
The app builds its own source from the environment (``bot.app`` -> ``core.github.build_source``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import BotApp, build_app
from bot.testing import TestBackend
from core.catalog import Catalog
from core.github import FallbackSource
from core.models import Comparison, RepoDetailData, RepoList, Reply
from tests.fakes.github import FakeGitHub

SEARCH = "find react state management libraries"


async def _app(env: dict[str, str]) -> BotApp:
    return await build_app(env=env, memory=True)


@pytest.fixture
async def online(gh: FakeGitHub) -> AsyncIterator[TestBackend]:
    app = await _app(gh.env())
    assert isinstance(app.source, FallbackSource)
    yield TestBackend(app)
    await app.aclose()


@pytest.fixture
async def offline() -> AsyncIterator[TestBackend]:
    app = await _app({"OMG_GITHUB": "offline"})
    yield TestBackend(app)
    await app.aclose()


@pytest.fixture(params=["online", "offline"])
async def bot(request: pytest.FixtureRequest, gh: FakeGitHub) -> AsyncIterator[TestBackend]:
    app = await _app(gh.env() if request.param == "online" else {"OMG_GITHUB": "offline"})
    yield TestBackend(app)
    await app.aclose()


def _expected_source(bot: TestBackend) -> str:
    return "github" if isinstance(bot.app.source, FallbackSource) else "catalog"


def _list(reply: Reply) -> RepoList:
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    assert len(reply.structured_data.items) >= 2, reply.markdown
    return reply.structured_data


def _detail(reply: Reply) -> RepoDetailData:
    assert isinstance(reply.structured_data, RepoDetailData), reply.markdown
    return reply.structured_data


async def _search_then_analyze(bot: TestBackend) -> tuple[RepoList, RepoDetailData]:
    found = _list(await bot.ask(SEARCH))
    detail = _detail(await bot.ask("analyze the second one"))
    assert detail.repo.full_name == found.items[1].full_name
    return found, detail


async def test_online_search_analyze(online: TestBackend, gh: FakeGitHub) -> None:
    reply = await online.ask(SEARCH)
    found = _list(reply)
    assert found.meta is not None and found.meta.source == "github" and not found.meta.partial
    assert "offline snapshot" not in reply.markdown
    assert gh.count("/search/repositories") >= 1
    top = found.items[0]
    assert top.signals is not None and top.signals.commits_90d is not None  # measured live
    assert top.scores.overall > 0 and top.scores.reasons
    reply = await online.ask("analyze the second one")
    detail = _detail(reply)
    assert detail.repo.full_name == found.items[1].full_name
    assert detail.meta is not None and detail.meta.source == "github"
    assert detail.repo.signals is not None and detail.repo.signals.contributors is not None
    assert detail.repo.recommendation is not None and detail.repo.findings


async def test_a_cold_search_stays_within_the_call_budget(online: TestBackend, gh: FakeGitHub) -> None:
    before = len(gh.calls)
    found = _list(await online.ask(SEARCH))
    turn = gh.calls[before:]
    assert len(turn) <= 40 and not any("/comments" in c.path for c in turn)  # light signals only
    assert found.items[0].signals is not None and found.items[0].signals.contributors is None
    assert any("measured when you analyze" in n for n in found.meta.notes)  # type: ignore[union-attr]
    before = len(gh.calls)
    detail = _detail(await online.ask("analyze the first one"))
    assert detail.repo.signals is not None and detail.repo.signals.contributors is not None  # full
    assert not any(c.path.endswith(("/releases", "/readme")) for c in gh.calls[before:])  # shared


async def test_anonymous_search_spends_no_core_calls_and_says_so() -> None:
    async with FakeGitHub(core_budget=60) as anonymous:
        app = await _app(anonymous.env())
        bot = TestBackend(app)
        await app.source.start_probe()  # type: ignore[attr-defined]  # /rate_limit: free, says 60
        before = len(anonymous.calls)
        reply = await bot.ask(SEARCH)
        found = _list(reply)
        assert all(c.path.startswith("/search/") for c in anonymous.calls[before:])
        assert found.meta is not None and found.meta.source == "github" and not found.meta.partial
        assert "GITHUB_TOKEN" in reply.markdown and found.items[0].signals is None
        await app.aclose()


async def test_offline_search_analyze_says_snapshot(offline: TestBackend) -> None:
    found, detail = await _search_then_analyze(offline)
    snapshot = Catalog.load().snapshot_date
    assert found.meta is not None and found.meta.source == "catalog"
    assert found.meta.snapshot_date == snapshot
    assert detail.meta is not None and detail.meta.source == "catalog"



async def test_search_analyze_compare_the_first_two(bot: TestBackend) -> None:
    found, _ = await _search_then_analyze(bot)
    reply = await bot.ask("compare the first two")
    assert isinstance(reply.structured_data, Comparison), reply.markdown
    names = [row.repo.full_name for row in reply.structured_data.items]
    assert names == [r.full_name for r in found.items[:2]]
    assert reply.structured_data.meta is not None
    assert reply.structured_data.meta.source == _expected_source(bot)


async def test_compare_named_repositories(bot: TestBackend) -> None:
    reply = await bot.ask("compare pmndrs/zustand vs reduxjs/redux")
    assert isinstance(reply.structured_data, Comparison), reply.markdown
    names = {row.repo.full_name for row in reply.structured_data.items}
    assert names == {"pmndrs/zustand", "reduxjs/redux"}
    assert reply.structured_data.meta is not None
    assert reply.structured_data.meta.source == _expected_source(bot)


async def test_unreachable_github_answers_from_the_snapshot_and_says_so() -> None:
    async with FakeGitHub() as gone:
        env = gone.env()
    app = await _app(env)  # nothing listens any more
    bot = TestBackend(app)
    reply = await bot.ask(SEARCH)
    found = _list(reply)
    assert found.meta is not None and found.meta.source == "catalog"
    assert Catalog.load().snapshot_date.isoformat() in reply.markdown
    detail = _detail(await bot.ask("analyze the second one"))
    assert detail.meta is not None and detail.meta.source == "catalog"
    await app.aclose()


async def test_rate_limit_mid_conversation_then_recovery(online: TestBackend, gh: FakeGitHub) -> None:
    found = _list(await online.ask(SEARCH))
    second = found.items[1].full_name
    limit = gh.secondary_rate_limit("/repos/", retry_after=600, times=None)
    online.app.source.primary.client.clear_cache()  # type: ignore[attr-defined]
    reply = await online.ask("analyze the second one")  # degraded to the snapshot, and says so
    assert _detail(reply).repo.full_name == second
    assert reply.footer and "GitHub rate limit reached, resets at" in reply.footer
    assert "offline snapshot" in reply.markdown
    gh.faults.remove(limit)
    detail = _detail(await online.ask(f"analyze {second}"))  # the thread goes on
    assert detail.repo.full_name == second
    assert detail.repo.signals is not None and detail.repo.signals.commits_30d is not None


async def test_a_spent_search_budget_answers_from_the_snapshot_and_says_so(
        online: TestBackend, gh: FakeGitHub) -> None:
    gh.rate_limit("/search/", reset_in=1800, times=None)
    reply = await online.ask(SEARCH)
    assert len(_list(reply).items) >= 2  # degraded, not failed
    assert reply.footer and "GitHub rate limit reached, resets at" in reply.footer
    assert "offline snapshot" in reply.footer


async def test_unknown_repository(online: TestBackend) -> None:
    reply = await online.ask("analyze nobody-here/nothing-at-all")
    assert "I couldn't find nobody-here/nothing-at-all on GitHub" in reply.markdown


async def test_github_errors_fall_back_without_losing_the_thread(online: TestBackend, gh: FakeGitHub) -> None:
    found = _list(await online.ask(SEARCH))
    gh.fail("/repos/", status=502, times=None)
    online.app.source.primary.client.clear_cache()  # type: ignore[attr-defined]
    reply = await online.ask("analyze the second one")
    detail = _detail(reply)
    assert detail.repo.full_name == found.items[1].full_name
    assert detail.meta is not None and detail.meta.source == "catalog"  # and the reply says so
    assert "offline snapshot" in reply.markdown


async def test_with_a_token_a_search_naming_a_language_and_a_comparison_cost_one_query_each() -> None:
    async with FakeGitHub(token="t", search_budget=1000) as gh:
        app = await _app(gh.env())
        bot = TestBackend(app)
        gh.reset_log()  # the start-up probe (/rate_limit, free)
        found = _list(await bot.ask("javascript testing frameworks"))  # up to 12 + 4 scored
        assert [c.path for c in gh.calls] == ["/graphql", "/graphql"], "the searches, the signals"
        gh.reset_log()
        reply = await bot.ask("compare the first three")
        assert isinstance(reply.structured_data, Comparison), reply.markdown
        assert [c.path for c in gh.calls] == ["/graphql"]
        signals = [row.repo.signals for row in reply.structured_data.items]
        assert all(s is not None and s.recent_committers is not None for s in signals)
        assert len(found.items) >= 3
        await app.aclose()
