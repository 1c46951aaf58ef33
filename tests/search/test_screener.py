"""The Screener: star range respected (no blanket cut), diversity, bounded concurrent scoring."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from core.errors import LLMTimeout, RateLimited, SourceUnavailable
from core.models import RepoSignals, SearchParams
from core.search.screener import Screener, coarse_rank, diversify, why_line
from tests.fakes.search_source import SearchSource, repo

NOW = datetime(2026, 8, 22, tzinfo=UTC)
PARAMS = SearchParams(text="state management", synonym_groups=[["state management", "store"]])


def deadline(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


def big_and_small() -> list:
    old = datetime(2018, 1, 1, tzinfo=UTC)
    big = [
        repo(f"big{i}/state-lib{i}", 20_000 + i * 1000, "state management library", "TypeScript", created_at=old)
        for i in range(15)
    ]
    small = repo("fresh/atomstate", 40, "New atomic state management", "Rust", star_growth_6m=30,
                 created_at=datetime(2026, 5, 1, tzinfo=UTC))
    return [*big, small]


async def test_a_new_query_can_return_a_40_star_project() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates)
    new = PARAMS.model_copy(update={"created_after": datetime(2025, 8, 22).date(), "max_stars": None})
    report = await Screener(src).screen(candidates, new, now=NOW, deadline=deadline())
    assert "fresh/atomstate" in [i.full_name for i in report.items]
    small_only = PARAMS.model_copy(update={"max_stars": 1000})
    report = await Screener(src).screen(candidates, small_only, now=NOW, deadline=deadline())
    assert [i.full_name for i in report.items] == ["fresh/atomstate"]


def test_no_blanket_star_cut_but_the_users_range_is_respected() -> None:
    candidates = big_and_small()
    assert "fresh/atomstate" in [r.full_name for r in coarse_rank(candidates, PARAMS, NOW)[0]]
    popular = PARAMS.model_copy(update={"min_stars": 1000})
    assert "fresh/atomstate" not in [r.full_name for r in coarse_rank(candidates, popular, NOW)[0]]
    relaxed = PARAMS.model_copy(update={"min_stars": None})
    ranked, _ = coarse_rank(candidates, popular, NOW, star_range=relaxed)
    assert "fresh/atomstate" in [r.full_name for r in ranked]


def test_exact_matches_rank_higher_than_widened_ones() -> None:
    candidates = big_and_small()
    plain, _ = coarse_rank(candidates, PARAMS, NOW)
    ranked, _ = coarse_rank(candidates, PARAMS, NOW, exact={"fresh/atomstate"})
    position = [r.full_name for r in ranked].index("fresh/atomstate")
    assert position < [r.full_name for r in plain].index("fresh/atomstate")


def test_diversity_caps_clones_owners_and_one_language() -> None:
    clones = [repo(f"user{i}/todo-app", 1000 - i, "todo app", "JavaScript") for i in range(5)]
    same_owner = [repo(f"acme/tool{i}", 900 - i, "tool", "Go") for i in range(4)]
    pythons = [repo(f"p{i}/lib{i}", 800 - i, "lib", "Python") for i in range(12)]
    picked = diversify(clones + same_owner + pythons, 12, language_free=True)
    names = [r.full_name for r in picked]
    assert sum(n.endswith("/todo-app") for n in names) == 1
    assert sum(n.startswith("acme/") for n in names) == 2
    assert sum(r.language == "Python" for r in picked[:11]) == 8  # ceil(60 % of 12)
    assert len(picked) == 12  # skipped ones fill the space left: language-capped before clones
    assert picked[11].language == "Python"
    only_python = diversify(pythons, 12, language_free=False)
    assert len(only_python) == 12


async def test_signals_fetched_for_the_top_12_concurrently_with_a_bound() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates, latency=0.01)
    report = await Screener(src, concurrency=4).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    signal_calls = [c for c in src.calls if c[0] == "get_signals"]
    assert len(signal_calls) == 12 and report.scored == 12
    assert 1 < src.max_in_flight <= 8  # 4 slots x (signals + README) in flight
    assert len(report.items) == 10
    assert all(i.why and i.scores.reasons for i in report.items)


async def test_measured_signals_are_used() -> None:
    candidates = big_and_small()[:3]
    src = SearchSource(candidates)
    src.signals["big0/state-lib0"] = RepoSignals(releases=40, commits_90d=100, contributors=200)
    src.readmes["big0/state-lib0"] = "# lib\n## Install\n```\nnpm install lib\n```\n## Usage\n```js\nx\n```\n"
    report = await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    item = next(i for i in report.items if i.full_name == "big0/state-lib0")
    assert "40 releases" in item.scores.reasons["maturity"]
    assert "ease_of_use" not in item.scores.unmeasured
    other = next(i for i in report.items if i.full_name != "big0/state-lib0")
    assert "ease_of_use" in other.scores.unmeasured


async def test_a_signal_failure_keeps_the_repo_and_flags_partial() -> None:
    candidates = big_and_small()[:3]
    src = SearchSource(candidates)
    src.fail_repo["big1/state-lib1"] = SourceUnavailable("timeout")
    report = await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    assert len(report.items) == 3 and report.partial
    assert "1 of 3" in report.notes[0]


async def test_a_rate_limit_stops_further_signal_calls() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates)
    for c in candidates:
        src.fail_repo[c.full_name.lower()] = RateLimited()
    report = await Screener(src, concurrency=1).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    assert len([c for c in src.calls if c[0] == "get_signals"]) == 1
    assert report.partial and len(report.items) == 10


async def test_the_time_budget_scores_what_is_ready() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates, latency=3.0)
    started = time.monotonic()
    report = await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline(0.2))
    assert time.monotonic() - started < 1.5
    assert report.partial and len(report.items) == 10
    assert all(i.scores.overall > 0 for i in report.items)


class FailingJudge:
    async def score_text(self, repo, signals, params, readme):
        raise LLMTimeout()


async def test_a_failing_text_scorer_falls_back_to_heuristics_not_5() -> None:
    candidates = big_and_small()[:2]
    report = await Screener(SearchSource(candidates), FailingJudge()).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    for item in report.items:
        # the heuristics: what the words match (8.0, "state management"), or the meaning when it says more
        reason = item.scores.reasons["relevance"]
        assert item.scores.relevance is not None and item.scores.relevance >= 8.0
        assert "state management" in reason or reason == "close in meaning to the request"
        assert item.scores.overall != 5.0


async def test_limit_is_respected_and_capped_at_10() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates)
    three = await Screener(src).screen(candidates, PARAMS.model_copy(update={"limit": 3}), now=NOW, deadline=deadline())
    assert len(three.items) == 3
    many = await Screener(src).screen(candidates, PARAMS.model_copy(update={"limit": 50}), now=NOW, deadline=deadline())
    assert len(many.items) == 10


async def test_why_line_is_one_line_of_real_facts() -> None:
    candidates = [repo("pmndrs/zustand", 58_592, "Bear necessities for state management in React", "TypeScript", star_growth_12m=4417)]
    report = await Screener(SearchSource(candidates)).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    line = why_line(report.items[0])
    assert "\n" not in line
    assert line.startswith("Matches 'state management' in description")
    assert "59k stars" in line and "+4.4k in 12 months" in line


class ReadmeFails(SearchSource):
    async def get_readme(self, full_name: str) -> str | None:
        raise SourceUnavailable("README timed out")


async def test_a_readme_failure_keeps_the_signals() -> None:
    candidates = big_and_small()[:1]
    src = ReadmeFails(candidates)
    src.signals["big0/state-lib0"] = RepoSignals(releases=7)
    report = await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    assert "7 releases" in report.items[0].scores.reasons["maturity"]
    assert not report.partial


async def test_search_candidates_get_light_signals() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates)
    await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    assert len(src.depths) == 12 and {depth for _, depth in src.depths} == {"light"}
    await Screener(src, depth="full").screen(candidates[:2], PARAMS, now=NOW, deadline=deadline())
    assert [depth for _, depth in src.depths[12:]] == ["full", "full"]


async def test_a_scarce_hourly_budget_scores_from_the_search_results_alone() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates, calls_per_hour=60)  # anonymous GitHub
    report = await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    assert src.calls == []  # not one call per candidate
    assert len(report.items) == 10 and not report.partial
    assert "without a token (60 calls an hour)" in report.notes[0] and "GITHUB_TOKEN" in report.notes[0]
    top = report.items[0]
    assert top.signals is None and top.scores.overall > 0
    assert "yrs old" in top.scores.reasons["maturity"] and "stars" in top.scores.reasons["maturity"]
    assert "not measured: releases" in top.scores.reasons["maturity"]  # the reason says what is missing
    assert "ease_of_use" in top.scores.unmeasured


async def test_a_plentiful_budget_fetches_signals() -> None:
    candidates = big_and_small()[:3]
    src = SearchSource(candidates, calls_per_hour=5000)
    report = await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline())
    assert len(src.depths) == 3 and not any("without a token" in n for n in report.notes)


async def test_searches_already_spent_leave_fewer_candidates_to_fetch() -> None:
    candidates = big_and_small()
    src = SearchSource(candidates)
    await Screener(src).screen(candidates, PARAMS, now=NOW, deadline=deadline(), searches=7)
    assert len(src.depths) == (40 - 7) // 3  # 11: the cold search stays within 40 GitHub calls
    offline = SearchSource(candidates, kind="catalog")  # a snapshot costs nothing per candidate
    await Screener(offline).screen(candidates, PARAMS, now=NOW, deadline=deadline(), searches=7)
    assert len(offline.depths) == 12


async def test_results_are_ranked_by_relevance_tier_first() -> None:
    candidates = [
        repo("react/react", 240_000, "The library for web and native user interfaces.", "JavaScript"),
        repo("tiny/signals", 300, "Tiny state management for React", "TypeScript"),
    ]
    params = SearchParams(text="react state management", keywords=["react"], synonym_groups=[["state management"]])
    report = await Screener(SearchSource(candidates)).screen(candidates, params, now=NOW, deadline=deadline())
    # a 300-star state-management library before React itself, which only matches the qualifier
    assert [i.full_name for i in report.items] == ["tiny/signals", "react/react"]
    # React only matches the qualifier by its words; in meaning it is related, not what was asked
    assert report.items[-1].scores.relevance is not None and report.items[-1].scores.relevance < 5
    assert report.items[0].scores.relevance is not None and report.items[0].scores.relevance >= 8
    # beside a library far closer in meaning (zustand, 0.84 against React's 0.50), React does not fit at all
    zustand = repo("pmndrs/zustand", 58_000, "Bear necessities for state management in React", "TypeScript")
    report = await Screener(SearchSource([*candidates, zustand])).screen([*candidates, zustand], params, now=NOW,
                                                                         deadline=deadline())
    assert [i.full_name for i in report.items] == ["pmndrs/zustand", "tiny/signals"]


class VouchingJudge:
    """An LLM judge that read the README: it knows preact is a React-compatible state container."""

    async def score_text(self, repo, signals, params, readme):
        from core.search.measures import DimensionScore
        from core.search.text_scores import TextScores

        score = 9.0 if repo.full_name == "preactjs/signals" else 5.0
        return TextScores(relevance=DimensionScore(score, "judged from the README"))


async def test_a_judge_can_vouch_for_a_result_the_words_missed() -> None:
    candidates = [
        repo("mobxjs/mobx", 27_000, "Simple, scalable state management.", "TypeScript"),
        repo("preactjs/signals", 4_000, "Reactive state primitives with fine-grained updates", "TypeScript"),
    ]
    params = SearchParams(text="react state management", keywords=["react"], synonym_groups=[["state management"]])
    plain = await Screener(SearchSource(candidates)).screen(candidates, params, now=NOW, deadline=deadline())
    assert [i.full_name for i in plain.items] == ["mobxjs/mobx", "preactjs/signals"]
    judged = await Screener(SearchSource(candidates), VouchingJudge()).screen(candidates, params, now=NOW,
                                                                               deadline=deadline())
    assert judged.items[0].full_name == "preactjs/signals"  # same tier now, and the judge's relevance wins
