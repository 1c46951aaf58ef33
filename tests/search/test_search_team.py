"""The Search Team agent: progress, meta, follow-ups, budget, fallbacks -- on fakes and the real catalog."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime

import pytest

from core.agents.base import AgentContext
from core.agents.search import SearchTeam
from core.analysis import reference_time
from core.catalog import Catalog
from core.catalog.catalog import default_data_file
from core.errors import LLMBadOutput, RateLimited, SourceUnavailable
from core.github import FallbackSource
from core.models import (
    Classification,
    CollectingSink,
    Conversation,
    ConversationKey,
    Intent,
    RepoList,
    ResultMeta,
    SearchParams,
)
from core.sources.base import SourceInfo
from tests.fakes.search_source import SearchSource, repo

NOW = datetime(2026, 8, 22, 12, tzinfo=UTC)


def fake_source(**kw) -> SearchSource:
    return SearchSource(
        [
            repo("pmndrs/zustand", 58_592, "Bear necessities for state management in React", "TypeScript"),
            repo("reduxjs/redux", 61_509, "Predictable state container for JS apps, React store", "TypeScript"),
            repo("tiny/signals", 40, "Tiny signals-based state management for React", "TypeScript",
                 created_at=datetime(2026, 6, 1, tzinfo=UTC)),
            repo("py/statekit", 700, "state management for Python apps", "Python"),
        ],
        **kw,
    )


def context(message: str, previous=None, classification: Classification | None = None) -> tuple[AgentContext, CollectingSink]:
    sink = CollectingSink()
    ctx = AgentContext(
        message=message,
        classification=classification or Classification(intent=Intent.SEARCH, confidence=0.95),
        conversation=Conversation(id="t", key=ConversationKey(platform="test", channel="c", thread="t")),
        previous=previous,
        progress=sink,
    )
    return ctx, sink


def team(source, **kw) -> SearchTeam:
    return SearchTeam(source, clock=lambda: NOW, **kw)


async def test_search_returns_a_scored_repo_list_with_meta_and_progress() -> None:
    ctx, sink = context("find React state management libraries")
    result = await team(fake_source()).run(ctx)
    data = result.data
    assert isinstance(data, RepoList) and not result.partial and result.error is None
    names = [i.full_name for i in data.items]
    assert names[:2] == ["pmndrs/zustand", "reduxjs/redux"] or set(names[:2]) == {"pmndrs/zustand", "reduxjs/redux"}
    assert "tiny/signals" in names  # no blanket star cut
    assert all(i.why and 0 < i.scores.overall <= 10 for i in data.items)
    meta = data.meta
    assert meta.source == "github" and meta.snapshot_date is None and not meta.partial
    assert meta.query == "find React state management libraries"
    assert meta.search_params.keywords == ["react"] and meta.total_candidates == len(names)
    logs = sink.logs()
    assert logs[0] == "Searching GitHub for react state management..."
    assert logs[1] == f"Scoring {len(names)} candidates..."


async def test_a_new_query_returns_a_project_under_50_stars() -> None:
    ctx, _ = context("new react state management libraries")
    data = (await team(fake_source()).run(ctx)).data
    assert "tiny/signals" in [i.full_name for i in data.items]
    assert min(i.stars for i in data.items) < 50


async def test_follow_up_modifies_the_previous_parameters() -> None:
    source = fake_source()
    first_ctx, _ = context("find state management libraries")
    first = (await team(source).run(first_ctx)).data
    ctx, sink = context("what about Python?", previous=first)
    data = (await team(source).run(ctx)).data
    params = data.meta.search_params
    assert params.language == "Python" and params.synonym_groups == first.meta.search_params.synonym_groups
    assert data.items[0].full_name == "py/statekit"
    assert data.meta.query == "state management (Python)"
    assert "Python" in sink.logs()[0]


async def test_classifier_supplied_parameters_win() -> None:
    given = SearchParams(text="zustand", keywords=["zustand"])
    ctx, _ = context("whatever", classification=Classification(intent=Intent.SEARCH, confidence=1, search_params=given))
    data = (await team(fake_source()).run(ctx)).data
    assert [i.full_name for i in data.items] == ["pmndrs/zustand"]


class BrokenTranslator:
    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        raise LLMBadOutput(raw="{", reason="not json")


async def test_a_failing_translator_falls_back_to_the_rules() -> None:
    ctx, _ = context("react state management")
    data = (await team(fake_source(), translator=BrokenTranslator()).run(ctx)).data
    assert data.meta.search_params.keywords == ["react"] and data.items


async def test_time_budget_answers_partial_with_what_is_ready() -> None:
    source = fake_source()
    source.delay_sort["updated"] = 10.0
    ctx, _ = context("react state management")
    started = time.monotonic()
    result = await team(source, budget_seconds=1.0).run(ctx)
    assert time.monotonic() - started < 2.0
    assert result.partial and result.data.meta.partial and result.data.items
    assert any("took too long" in n for n in result.data.meta.notes)


async def test_every_search_failing_raises_a_core_error() -> None:
    source = fake_source()
    for sort in ("stars", "updated", "best"):
        source.fail_sort[sort] = RateLimited()
    ctx, _ = context("react state management")
    with pytest.raises(RateLimited):
        await team(source).run(ctx)


async def test_relaxation_is_reported_in_meta_notes() -> None:
    ctx, _ = context("react state management with over 100k stars")
    data = (await team(fake_source()).run(ctx)).data
    assert data.items
    assert data.meta.notes[0].startswith("No exact matches for react state management (100k+ stars)")


def test_as_of_uses_the_snapshot_date_for_a_snapshot() -> None:
    github = SourceInfo(kind="github")
    snapshot = SourceInfo(kind="catalog", snapshot_date=date(2026, 8, 22))
    assert reference_time(github, NOW) == NOW
    later = datetime(2026, 11, 22, tzinfo=UTC)
    assert reference_time(snapshot, later) == datetime(2026, 8, 22, 23, 59, 59, tzinfo=UTC)


# -- on the real offline catalog -------------------------------------------------------------------


@pytest.fixture(scope="module")
def catalog_team() -> SearchTeam:
    # the ranking on the measured snapshot alone; tests/catalog/test_lists.py covers the list-only part
    return SearchTeam(Catalog.load(default_data_file()).source(), clock=lambda: datetime(2026, 11, 22, tzinfo=UTC))


async def test_catalog_search_end_to_end(catalog_team: SearchTeam) -> None:
    ctx, sink = context("find React state management libraries")
    data = (await catalog_team.run(ctx)).data
    names = [i.full_name for i in data.items]
    # only what matches the concept: five state-management libraries, no "app store" padding
    assert {"pmndrs/zustand", "reduxjs/redux", "TanStack/query"} <= set(names[:5]) and len(names) >= 5
    assert not {"react/react", "react/react-native", "remix-run/react-router"} & set(names)
    assert data.meta.source == "catalog" and data.meta.snapshot_date == date(2026, 8, 22)
    assert sink.logs()[0].startswith("Searching the offline snapshot of 2026-08-22 for")
    zustand = next(i for i in data.items if i.full_name == "pmndrs/zustand")
    assert zustand.star_growth_12m == 4417
    assert "ease_of_use" in zustand.scores.unmeasured  # no README offline: not invented
    assert "release" not in zustand.scores.reasons["maturity"].split("(")[0]


async def test_catalog_language_follow_up_and_active_filter(catalog_team: SearchTeam) -> None:
    ctx, _ = context("actively maintained web frameworks")
    first = (await catalog_team.run(ctx)).data
    assert first.items and not any("date filter" in n for n in first.meta.notes)
    ctx, _ = context("what about python?", previous=first)
    data = (await catalog_team.run(ctx)).data
    assert data.items[0].language == "Python"
    assert data.meta.search_params.pushed_after == first.meta.search_params.pushed_after


async def test_catalog_small_projects_query(catalog_team: SearchTeam) -> None:
    ctx, _ = context("hidden gem game engines under 500 stars")
    data = (await catalog_team.run(ctx)).data
    assert data.items[0].stars <= 500


async def test_catalog_new_query_says_what_it_could_not_do(catalog_team: SearchTeam) -> None:
    ctx, _ = context("new python testing tools")
    data = (await catalog_team.run(ctx)).data
    assert any("no creation dates" in n for n in data.meta.notes)


async def test_previous_meta_without_params_starts_fresh(catalog_team: SearchTeam) -> None:
    previous = RepoList(items=[], meta=ResultMeta(query="x"))
    ctx, _ = context("rust web framework", previous=previous)
    data = (await catalog_team.run(ctx)).data
    assert data.meta.search_params.language == "Rust"


# -- "more" and "alternatives to X" -----------------------------------------------------------------


async def test_show_more_skips_what_was_shown(catalog_team: SearchTeam) -> None:
    ctx, _ = context("find React state management libraries")
    first = (await catalog_team.run(ctx)).data
    ctx, _ = context("Show me more results", previous=first)
    more = (await catalog_team.run(ctx)).data
    shown = {i.full_name for i in first.items}
    assert more.items and not shown & {i.full_name for i in more.items}
    assert more.meta.search_params.keywords == first.meta.search_params.keywords
    assert more.meta.notes[0].startswith(f"More results for react state management, skipping the {len(shown)}")


async def test_refine_search_suggestion_adds_to_the_query(catalog_team: SearchTeam) -> None:
    ctx, _ = context("find React state management libraries")
    first = (await catalog_team.run(ctx)).data
    ctx, _ = context("Refine search: hooks", previous=first)
    params = (await catalog_team.run(ctx)).data.meta.search_params
    assert params.keywords == ["react", "hooks"]


async def test_alternatives_to_a_named_repo(catalog_team: SearchTeam) -> None:
    ctx, _ = context("something like django but in go",
                     classification=Classification(intent=Intent.SEARCH, confidence=0.9, repos=["django/django"]))
    data = (await catalog_team.run(ctx)).data
    names = [i.full_name for i in data.items]
    assert "django/django" not in names and "gin-gonic/gin" in names
    assert all(i.language == "Go" for i in data.items[:5])
    assert data.meta.notes[0].startswith("Alternatives to django/django")


def named(*repos: str) -> Classification:
    """What the classifier makes of a search that names repositories by owner/name."""
    return Classification(intent=Intent.SEARCH, confidence=0.9, repos=list(repos))


async def test_alternatives_by_owner_name_and_unknown_repo(catalog_team: SearchTeam) -> None:
    ctx, _ = context("Search for alternatives to pmndrs/zustand", classification=named("pmndrs/zustand"))
    data = (await catalog_team.run(ctx)).data
    assert "pmndrs/zustand" not in [i.full_name for i in data.items]
    assert data.meta.search_params.language == "TypeScript"
    assert "state management" in data.meta.search_params.describe()
    from core.errors import RepoNotFound

    ctx, _ = context("alternatives to nobody/nothing-here", classification=named("nobody/nothing-here"))
    with pytest.raises(RepoNotFound):
        await catalog_team.run(ctx)


async def test_a_slash_the_classifier_read_as_words_is_no_repository_to_replace(catalog_team: SearchTeam) -> None:
    ctx, _ = context("declarative retries and a circuit breaker instead of try/catch spaghetti")
    data = (await catalog_team.run(ctx)).data
    assert not data.meta.notes or not data.meta.notes[0].startswith("Alternatives to")


async def test_show_me_alternatives_after_an_analysis(catalog_team: SearchTeam) -> None:
    from core.models import RepoDetailData, RepositoryDetail

    detail = RepoDetailData(repo=RepositoryDetail(full_name="pmndrs/zustand"))
    ctx, _ = context("show me alternatives", previous=detail)
    data = (await catalog_team.run(ctx)).data
    assert data.meta.notes[0].startswith("Alternatives to pmndrs/zustand")
    assert "pmndrs/zustand" not in [i.full_name for i in data.items]


async def test_exclusions_are_respected(catalog_team: SearchTeam) -> None:
    ctx, _ = context("python orm besides sqlalchemy")
    data = (await catalog_team.run(ctx)).data
    assert data.meta.search_params.exclude == ["sqlalchemy"]
    assert all(i.name.lower() != "sqlalchemy" for i in data.items)


class SlowTranslator:
    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        import asyncio

        await asyncio.sleep(30)
        raise AssertionError("unreachable")


async def test_a_slow_translator_yields_to_the_rules() -> None:
    ctx, _ = context("react state management")
    started = time.monotonic()
    result = await team(fake_source(), translator=SlowTranslator(), budget_seconds=2.0).run(ctx)
    assert time.monotonic() - started < 1.5
    assert result.data.meta.search_params.keywords == ["react"] and result.data.items


async def test_a_turn_that_falls_back_mid_way_is_labelled_as_the_snapshot() -> None:
    live = fake_source()
    for sort in ("stars", "updated", "best"):
        live.fail_sort[sort] = SourceUnavailable()
    snapshot = fake_source(kind="catalog", snapshot_date=date(2026, 8, 20))
    source = FallbackSource(live, snapshot)
    ctx, sink = context("find React state management libraries")
    data = (await team(source).run(ctx)).data
    assert sink.logs()[0].startswith("Searching GitHub for")  # what it expected before the calls
    assert data.items and data.meta.source == "catalog" and data.meta.snapshot_date == date(2026, 8, 20)


async def test_anonymous_github_scores_from_search_results_and_says_so() -> None:
    source = fake_source(calls_per_hour=60)
    ctx, _ = context("find React state management libraries")
    data = (await team(source).run(ctx)).data
    assert data.items and not data.meta.partial
    assert [c for c in source.calls if c[0] != "search"] == []
    assert any("without a token" in n for n in data.meta.notes)


async def test_an_incomplete_github_search_is_partial_with_a_note() -> None:
    source = fake_source()
    source.incomplete_sorts.add("stars")
    data = (await team(source).run(context("find React state management libraries")[0])).data
    assert data.meta.partial and any("ran out of time on its side" in n for n in data.meta.notes)


@pytest.mark.parametrize(
    ("message", "first", "absent"),  # queries of the "dev" half of tests/search/data/relevance.jsonl
    [
        # the core concept leads; a qualifier or a related term alone does not carry a result
        ("popular golang orm", "go-gorm/gorm", {"prometheus/prometheus", "milvus-io/milvus", "cockroachdb/cockroach"}),
        ("python linter", "astral-sh/ruff", set()),  # a linter for Python, written in Rust
        ("neovim plugin manager", "folke/lazy.nvim", {"github/copilot.vim", "lervag/vimtex", "neovim/neovim"}),
    ],
)
async def test_catalog_core_concept_first(catalog_team: SearchTeam, message: str, first: str,
                                          absent: set[str]) -> None:
    ctx, _ = context(message)
    names = [i.full_name for i in (await catalog_team.run(ctx)).data.items]
    assert names[0] == first
    assert not absent & set(names[:3])


async def test_catalog_language_family_and_widening_in_words(catalog_team: SearchTeam) -> None:
    ctx, _ = context("javascript testing framework")
    names = [i.full_name for i in (await catalog_team.run(ctx)).data.items][:5]
    assert {"jestjs/jest", "microsoft/playwright", "cypress-io/cypress"} <= set(names)  # TypeScript counts
    ctx, _ = context("rust web framework")
    data = (await catalog_team.run(ctx)).data
    names = [i.full_name for i in data.items][:3]
    assert {"rwf2/Rocket", "tokio-rs/axum"} == set(names[:2])  # axum: "HTTP routing" library
    assert "yewstack/yew" in names  # "framework ... for ... web applications"
    assert any("matched the words of 'web framework' separately" in n for n in data.meta.notes)


async def test_without_a_token_a_turn_spends_at_most_five_searches() -> None:
    ctx, _ = context("rust web frameworks with over 100k stars")  # thin: every widening step would run
    rich, anonymous = fake_source(), fake_source(calls_per_hour=60)
    await team(rich).run(ctx)
    await team(anonymous).run(ctx)
    assert len(rich.searches) > 5  # four strategies and the widening ladder
    assert len(anonymous.searches) == 5  # GitHub allows 10 searches a minute without a token
