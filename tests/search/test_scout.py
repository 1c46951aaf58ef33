"""The Scout: parallel strategies, merge, drop archived/forks, relaxation, graceful failures."""

from __future__ import annotations

import time

import pytest

from core.errors import RateLimited, SourceUnavailable
from core.models import SearchParams
from core.search.scout import (
    Scout, expanded, related_only, relaxation_steps, split_words, strategies, widened, without_related,
)
from tests.fakes.search_source import SearchSource, repo

STATE = ["state management", "store"]


def params(**kw) -> SearchParams:
    base = dict(text="react state management", keywords=["react"], synonym_groups=[STATE])
    return SearchParams(**(base | kw))


def source() -> SearchSource:
    return SearchSource(
        [
            repo("pmndrs/zustand", 58_000, "Bear necessities for state management in React", "TypeScript"),
            repo("reduxjs/redux", 61_000, "Predictable state container, store for React apps", "TypeScript"),
            repo("old/react-store", 9_000, "A React store", "JavaScript", archived=True),
            repo("someone/zustand", 3, "Fork of a React state management lib", "TypeScript", fork=True),
            repo("vuejs/pinia", 13_000, "Intuitive store for Vue", "TypeScript"),
            repo("tiny/react-atoms", 40, "Tiny atomic state management for React", "TypeScript"),
            repo("py/state", 800, "state management for python", "Python"),
        ]
    )


def deadline(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


def test_strategies_and_expansion() -> None:
    plan = strategies(params())
    assert [s.name for s in plan] == ["most-starred", "recently-active", "core-concepts"]
    assert [s.sort for s in plan] == ["stars", "updated", "best"]
    # the precise searches leave out the related term ("store"); the core search also the qualifier
    assert plan[0].params.synonym_groups == [["state management"]] and plan[0].params.keywords == ["react"]
    assert plan[2].params.keywords == [] and plan[2].params.synonym_groups == [["state management"]]
    broad = expanded(params())
    assert broad.keywords == [] and broad.synonym_groups == [["state management", "store", "react"]]
    assert widened(params()).synonym_groups == [["state management", "store"]]  # relaxation: no qualifier
    assert related_only(params()).synonym_groups == [["store"]]  # the related-terms step searches them alone
    assert without_related(params()).synonym_groups == [["state management"]]
    assert split_words(params()).keywords == ["state", "management"]
    assert split_words(SearchParams(keywords=["react", "hooks"])) is None  # no multi-word concept
    assert [s.name for s in strategies(SearchParams(language="Go"))] == ["most-starred", "recently-active"]


async def test_strategies_run_in_parallel_and_merge_without_archived_or_forks() -> None:
    src = source()
    report = await Scout(src, min_results=1).gather(params(), deadline=deadline())
    names = [r.full_name for r in report.candidates]
    assert len(names) == len(set(names))
    assert {"pmndrs/zustand", "tiny/react-atoms", "py/state"} <= set(names)
    # "store" is only a related term: no strategy searches it unless results are thin
    assert "reduxjs/redux" not in names and "vuejs/pinia" not in names
    assert "old/react-store" not in names and "someone/zustand" not in names
    assert src.max_in_flight == 3 and report.searches == 3
    assert not report.partial and not report.relaxed and report.notes == []
    assert set(report.found_by["pmndrs/zustand"]) >= {"most-starred", "recently-active"}


async def test_thin_results_relax_filters_step_by_step_and_say_so() -> None:
    src = source()
    strict = params(language="TypeScript", min_stars=100_000)
    report = await Scout(src, min_results=3).gather(strict, deadline=deadline())
    assert report.relaxed == [
        "matched the words of 'state management' separately", "also matched related terms", "removed the star limits",
    ]
    assert report.params.min_stars is None and report.params.language == "TypeScript"
    assert report.candidates and report.exact == set()
    note = report.notes[0]
    assert note.startswith("No exact matches for react state management (TypeScript, 100k+ stars)")
    assert "I widened the search to" in note and "removed the star limits" in note


async def test_relaxation_goes_as_far_as_needed_and_keeps_the_exact_matches() -> None:
    src = source()
    strict = params(language="TypeScript", max_stars=100, pushed_after=None)
    report = await Scout(src, min_results=5).gather(strict, deadline=deadline())
    assert report.exact == {"tiny/react-atoms"}
    # four TypeScript candidates once the star limit is gone: the language is not relaxed
    assert report.relaxed == [
        "matched the words of 'state management' separately", "also matched related terms",
        "removed the star limits",
    ]
    assert "Only a few exact matches" in report.notes[0]
    assert all(r.language == "TypeScript" for r in report.candidates)


async def test_the_language_is_relaxed_only_when_it_has_fewer_than_three_candidates() -> None:
    report = await Scout(source(), min_results=5).gather(params(language="Python"), deadline=deadline())
    assert report.relaxed[-1] == "included languages other than Python"
    assert {r.language for r in report.candidates} > {"Python"}


def test_relaxation_order() -> None:
    p = SearchParams(phrases=["x y"], language="Go", min_stars=5, pushed_after=None, created_after=None)
    labels = [label for label, _ in relaxation_steps(p)]
    assert labels[0].startswith("matched the words loosely")
    assert labels[1:] == ["removed the star limits", "included languages other than Go"]


async def test_a_failing_strategy_degrades_to_partial_results() -> None:
    src = source()
    src.fail_sort["updated"] = SourceUnavailable("GitHub is down")
    report = await Scout(src, min_results=1).gather(params(), deadline=deadline())
    assert report.partial
    assert report.errors == ["recently-active: GitHub is down"]
    assert "pmndrs/zustand" in [r.full_name for r in report.candidates]


async def test_a_slow_strategy_is_cut_at_the_deadline() -> None:
    src = source()
    src.delay_sort["updated"] = 5.0
    started = time.monotonic()
    report = await Scout(src, min_results=1).gather(params(), deadline=deadline(0.3))
    assert time.monotonic() - started < 1.5
    assert report.partial and "recently-active: timed out" in report.errors
    assert any("took too long" in n for n in report.notes)
    assert report.candidates


async def test_nothing_found_and_every_search_failed_raises_the_source_error() -> None:
    src = source()
    for sort in ("stars", "updated", "best"):
        src.fail_sort[sort] = RateLimited()
    with pytest.raises(RateLimited):
        await Scout(src).gather(params(), deadline=deadline())


async def test_no_match_at_all_is_an_empty_report_not_an_error() -> None:
    report = await Scout(source()).gather(SearchParams(keywords=["zzqqxx"]), deadline=deadline())
    assert report.candidates == [] and not report.partial


async def test_nothing_even_after_widening_says_so() -> None:
    report = await Scout(source()).gather(
        SearchParams(keywords=["zzqqxx"], language="Go", min_stars=10), deadline=deadline()
    )
    assert report.candidates == []
    assert report.notes == [
        "No matches for zzqqxx (Go, 10+ stars), even after widening the search to zzqqxx "
        "(removed the star limits; included languages other than Go)."
    ]


async def test_an_incomplete_search_flags_partial_and_says_so() -> None:
    src = source()
    src.incomplete_sorts.add("updated")
    report = await Scout(src, min_results=1).gather(params(), deadline=deadline())
    assert report.partial and report.incomplete == 1 and report.candidates
    assert report.notes == ["GitHub's search ran out of time on its side, so some matches may be missing."]
