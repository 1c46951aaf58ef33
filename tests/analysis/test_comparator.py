"""The Comparator: 2-5 repos, highlights and warnings from real numbers, needs, partial failures."""

from __future__ import annotations

import pytest

from core.agents.comparator import Comparator
from core.errors import RateLimited, RepoNotFound
from core.models import Clarification, Comparison, Intent, RepoList, ScoredRepository
from tests.analysis.fixtures import clock, context, rich_source, simple

COMPARE = Intent.COMPARE


def ctx(message: str, repos: list[str] | None = None, previous=None):
    return context(message, repos, intent=COMPARE, previous=previous)


def row(data: Comparison, name: str):
    return next(r for r in data.items if r.repo.full_name == name)


async def test_compare_two() -> None:
    source = rich_source()
    c, sink = ctx("compare zustand vs redux", ["pmndrs/zustand", "reduxjs/redux"])
    result = await Comparator(source, clock=clock).run(c)
    data = result.data
    assert isinstance(data, Comparison) and not result.partial
    assert [r.repo.full_name for r in data.items] == ["pmndrs/zustand", "reduxjs/redux"]
    assert all(r.repo.scores.overall > 0 and r.fit is not None for r in data.items)
    assert data.need is None
    assert sum(data.weights.values()) == pytest.approx(1.0, abs=1e-3)
    assert data.recommended in {"pmndrs/zustand", "reduxjs/redux"}
    assert data.recommendation_reasons[0].startswith("Best fit: ")
    assert sink.logs() == ["Comparing pmndrs/zustand and reduxjs/redux..."]
    assert source.max_in_flight == 6  # both repos: repo + signals + README at once
    zustand = row(data, "pmndrs/zustand")
    redux = row(data, "reduxjs/redux")
    assert "Most active: 84 commits in the last 90 days" in zustand.highlights
    assert "Quickest to respond: first reply to new issues within 4 hours (median)" in zustand.highlights
    assert "Most popular: 61.4k stars" in redux.highlights
    assert "Largest contributor base: 980 contributors" in redux.highlights
    assert "No release in 13 months" in redux.warnings
    assert zustand.warnings == []


async def test_compare_three_with_an_abandoned_one() -> None:
    names = ["pmndrs/zustand", "reduxjs/redux", "old/flux-store"]
    result = await Comparator(rich_source(), clock=clock).run(ctx("compare all of them", names)[0])
    data = result.data
    assert len(data.items) == 3
    old = row(data, "old/flux-store")
    assert "No code pushed in about 2.2 years: it may be abandoned" in old.warnings
    assert "No published releases: you would depend on the main branch" in old.warnings
    assert any("bus factor" in w for w in old.warnings)
    assert "Issue backlog: 110 open, none closed in 90 days" in old.warnings
    assert data.recommended != "old/flux-store"
    assert any("didn't pick old/flux-store" in r for r in data.recommendation_reasons)


async def test_compare_five() -> None:
    extra = [simple("acme/alpha", 5000, commits_90d=300), simple("acme/beta", 800, commits_90d=5)]
    names = ["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai", "acme/alpha", "acme/beta"]
    result = await Comparator(rich_source(*extra), clock=clock).run(ctx("compare", names)[0])
    data = result.data
    assert [r.repo.full_name for r in data.items] == names
    assert data.meta.notes == []
    assert "Most active: 300 commits in the last 90 days" in row(data, "acme/alpha").highlights


async def test_more_than_five_compares_the_first_five_and_says_so() -> None:
    extra = [simple("acme/alpha", 5000), simple("acme/beta", 800)]
    names = ["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai", "acme/alpha", "acme/beta",
             "old/flux-store"]
    source = rich_source(*extra)
    result = await Comparator(source, clock=clock).run(ctx("compare all six", names)[0])
    data = result.data
    assert [r.repo.full_name for r in data.items] == names[:5]
    assert "compared the first 5" in data.meta.notes[0] and "old/flux-store" in data.meta.notes[0]
    assert all(name != "old/flux-store" for _, name in source.calls)


async def test_need_changes_the_recommendation() -> None:
    # jotai: most active and responsive but weaker docs; redux: most mature and community-rich
    names = ["pmndrs/jotai", "reduxjs/redux"]
    comparator = Comparator(rich_source(), clock=clock)
    contrib = (await comparator.run(ctx("which should I contribute to", names)[0])).data
    prod = (await comparator.run(ctx("which is better for production?", names)[0])).data
    plain = (await comparator.run(ctx("compare them", names)[0])).data
    assert contrib.need == "contributing" and prod.need == "production"
    assert contrib.weights != plain.weights != prod.weights
    assert prod.weights["maturity"] > plain.weights["maturity"]
    assert any("For production" in r for r in prod.recommendation_reasons)
    for data in (contrib, prod, plain):
        best = max(data.items, key=lambda r: r.fit)
        assert data.recommended == best.repo.full_name


async def test_fit_uses_the_need_weights() -> None:
    names = ["pmndrs/zustand", "reduxjs/redux"]
    data = (await Comparator(rich_source(), clock=clock).run(
        ctx("compare for a small team", names)[0])).data
    assert data.need == "a small team"
    for r in data.items:
        measured = {d: w for d, w in data.weights.items() if d not in r.repo.scores.unmeasured}
        expected = sum(w * getattr(r.repo.scores, d) for d, w in measured.items()) / sum(measured.values())
        assert r.fit == pytest.approx(expected, abs=0.01)


async def test_one_repo_asks_for_a_second_with_candidates_from_context() -> None:
    previous = RepoList(items=[ScoredRepository(full_name=n) for n in
                               ("pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai")])
    result = await Comparator(rich_source(), clock=clock).run(
        ctx("compare zustand", ["pmndrs/zustand"], previous=previous)[0])
    assert isinstance(result.data, Clarification)
    assert "at least two" in result.data.question
    assert result.data.options == ["Compare pmndrs/zustand vs reduxjs/redux",
                                   "Compare pmndrs/zustand vs pmndrs/jotai",
                                   "Analyze pmndrs/zustand"]


async def test_one_repo_without_context_suggests_similar_repos() -> None:
    result = await Comparator(rich_source(), clock=clock).run(ctx("compare zustand", ["pmndrs/zustand"])[0])
    options = result.data.options
    assert "Compare pmndrs/zustand vs pmndrs/jotai" in options
    assert options[-1] == "Analyze pmndrs/zustand"
    assert not any(o.endswith("vs pmndrs/zustand") for o in options)


async def test_one_unknown_repo_is_not_found() -> None:
    with pytest.raises(RepoNotFound):
        await Comparator(rich_source(), clock=clock).run(ctx("compare", ["ghost/repo"])[0])


async def test_no_target() -> None:
    result = await Comparator(rich_source(), clock=clock).run(ctx("compare them")[0])
    assert result.error_code == "no_target" and "two to five" in result.error
    previous = RepoList(items=[ScoredRepository(full_name=n) for n in ("a/b", "c/d", "e/f")])
    result = await Comparator(rich_source(), clock=clock).run(ctx("compare", previous=previous)[0])
    assert result.data.options[0] == "Compare a/b vs c/d"


async def test_one_of_three_fails_compares_the_rest_and_warns() -> None:
    names = ["pmndrs/zustand", "ghost/repo", "reduxjs/redux"]
    result = await Comparator(rich_source(), clock=clock).run(ctx("compare", names)[0])
    # a repo that doesn't exist leaves a complete comparison of the others: not "partial"
    assert not result.partial and not result.data.meta.partial
    assert [r.repo.full_name for r in result.data.items] == ["pmndrs/zustand", "reduxjs/redux"]
    assert "I couldn't find ghost/repo on GitHub, so I compared the rest." in result.data.meta.notes


async def test_rate_limited_repo_is_left_out_with_the_reason() -> None:
    source = rich_source().fail("get_repo", "pmndrs/jotai", RateLimited())
    names = ["pmndrs/zustand", "pmndrs/jotai", "reduxjs/redux"]
    result = await Comparator(source, clock=clock).run(ctx("compare", names)[0])
    assert len(result.data.items) == 2 and result.partial and result.data.meta.partial
    assert "GitHub rate limit reached" in result.data.meta.notes[0]


async def test_signals_failure_keeps_the_repo_with_a_note() -> None:
    source = rich_source().fail("get_signals", "reduxjs/redux", RateLimited())
    result = await Comparator(source, clock=clock).run(
        ctx("compare", ["pmndrs/zustand", "reduxjs/redux"])[0])
    assert len(result.data.items) == 2 and result.partial
    assert row(result.data, "reduxjs/redux").repo.signals.commits_90d is None
    assert "activity and community numbers of reduxjs/redux" in result.data.meta.notes[0]


async def test_two_of_three_missing_offers_what_is_left() -> None:
    result = await Comparator(rich_source(), clock=clock).run(
        ctx("compare", ["ghost/one", "pmndrs/zustand", "ghost/two"])[0])
    assert isinstance(result.data, Clarification) and result.partial
    assert "ghost/one" in result.data.question and "ghost/two" in result.data.question
    assert result.data.options[-1] == "Analyze pmndrs/zustand"


async def test_all_missing() -> None:
    result = await Comparator(rich_source(), clock=clock).run(ctx("compare", ["ghost/one", "ghost/two"])[0])
    assert result.error_code == "repo_not_found"
    assert "ghost/one or ghost/two" in result.error


async def test_all_rate_limited_raises_for_the_coordinator() -> None:
    source = rich_source().fail("get_repo", "pmndrs/zustand", RateLimited()).fail(
        "get_repo", "reduxjs/redux", RateLimited())
    with pytest.raises(RateLimited):
        await Comparator(source, clock=clock).run(ctx("compare", ["pmndrs/zustand", "reduxjs/redux"])[0])


async def test_duplicates_are_compared_once() -> None:
    result = await Comparator(rich_source(), clock=clock).run(
        ctx("compare", ["pmndrs/zustand", "PMNDRS/Zustand", "reduxjs/redux"])[0])
    assert len(result.data.items) == 2


async def test_offline_catalog_comparison() -> None:
    from core.catalog import Catalog

    source = Catalog.load().source()
    names = ["pmndrs/zustand", "vuejs/vue", "react/react"]
    result = await Comparator(source, clock=clock).run(ctx("compare them for a small team", names)[0])
    data = result.data
    assert data.meta.source == "catalog" and data.meta.snapshot_date is not None
    assert data.need == "a small team"
    assert len(data.items) == 3 and data.recommended
    assert "Most popular: 247.5k stars" in row(data, "react/react").highlights
    vue = row(data, "vuejs/vue")
    assert any("No code pushed" in w for w in vue.warnings)
    assert data.recommended != "vuejs/vue"
    wire = data.dump()
    assert Comparison.model_validate(wire) == data


async def test_signal_gaps_reported_by_the_source_become_notes() -> None:
    source = rich_source()
    source.signals["reduxjs/redux"] = source.signals["reduxjs/redux"].model_copy(
        update={"notes": ["contributors not measured (rate limit)"], "contributors": None})
    result = await Comparator(source, clock=clock).run(
        ctx("compare", ["pmndrs/zustand", "reduxjs/redux"])[0])
    assert result.partial  # live: a gap means a request failed
    assert "reduxjs/redux: contributors not measured (rate limit)" in result.data.meta.notes


async def test_offline_signal_notes_are_not_partial() -> None:
    from core.catalog import Catalog

    result = await Comparator(Catalog.load().source(), clock=clock).run(
        ctx("compare", ["pmndrs/zustand", "reduxjs/redux"])[0])
    assert not result.partial and not result.data.meta.partial


async def test_offline_missing_repos_are_explained_as_snapshot_limits() -> None:
    from core.catalog import Catalog

    source = Catalog.load().source()
    comparator = Comparator(source, clock=clock)
    result = await comparator.run(ctx("compare", ["pmndrs/zustand", "ghost/repo", "reduxjs/redux"])[0])
    assert any(n.startswith("I couldn't find ghost/repo in the offline snapshot of")
               and n.endswith("so I compared the rest.") for n in result.data.meta.notes)
    result = await comparator.run(ctx("compare", ["ghost/one", "ghost/two"])[0])
    assert result.error == ("I couldn't find ghost/one or ghost/two in the offline snapshot "
                            "(it only holds the most-starred repositories)")
    with pytest.raises(RepoNotFound) as info:
        await comparator.run(ctx("compare", ["ghost/one"])[0])
    assert "offline snapshot" in info.value.user_message


async def test_two_names_for_one_repository_are_compared_once() -> None:
    source = rich_source()
    source.repos["facebook/zustand"] = source.repos["pmndrs/zustand"]  # a rename redirect
    result = await Comparator(source, clock=clock).run(
        ctx("compare", ["facebook/zustand", "pmndrs/zustand", "reduxjs/redux"])[0])
    assert [r.repo.full_name for r in result.data.items] == ["pmndrs/zustand", "reduxjs/redux"]
