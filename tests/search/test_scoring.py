"""Scoring: weights, measured-only dimensions, reasons, ranking."""

from __future__ import annotations

from datetime import datetime, timezone
from fractions import Fraction

from core.models import DIMENSIONS, Repository, RepoSignals, ScoredRepository, SearchParams
from core.search import scoring
from core.search.scoring import (
    WEIGHTS,
    DimensionScore,
    HeuristicTextScorer,
    TextScores,
    rank_key,
    score_repository,
)

NOW = datetime(2026, 8, 22, tzinfo=timezone.utc)
README = """# Zustand

A small, fast state management solution. See the [documentation](https://docs.pmnd.rs).

## Installation

```bash
npm install zustand
```

## Quick start

```js
const useStore = create((set) => ({ bears: 0 }))
```

## Examples

```js
useStore.getState()
```
""" + "More text. " * 300


def repo(**kw) -> Repository:
    base = dict(
        full_name="pmndrs/zustand",
        description="Bear necessities for state management in React",
        stars=50_000,
        forks=1_600,
        language="TypeScript",
        open_issues=20,
        pushed_at=datetime(2026, 8, 1, tzinfo=timezone.utc),
    )
    return Repository(**(base | kw))


FULL_SIGNALS = RepoSignals(
    releases=80, latest_release="v5.0.1", latest_release_at=datetime(2026, 7, 1, tzinfo=timezone.utc),
    commits_30d=20, commits_90d=70, contributors=250, open_issues_only=5, closed_issues_90d=40,
    open_pulls=4, merged_pulls_90d=30, median_first_response_hours=10, has_contributing=True,
    has_code_of_conduct=True, has_issue_template=False, has_pull_request_template=True, has_license=True,
)
PARAMS = SearchParams(text="react state management", keywords=["react"], synonym_groups=[["state management", "store"]])


def test_weights_sum_to_exactly_one() -> None:
    assert sum(Fraction(str(w)) for w in WEIGHTS.values()) == 1
    assert set(WEIGHTS) == set(DIMENSIONS)
    assert sum(scoring._EXACT_WEIGHTS.values()) == 1


def test_full_signals_score_every_dimension_with_a_reason() -> None:
    s = score_repository(repo(created_at=datetime(2019, 4, 1, tzinfo=timezone.utc), star_growth_12m=5000), FULL_SIGNALS, PARAMS, README, now=NOW)
    assert s.unmeasured == []
    for d in DIMENSIONS:
        assert 0 <= getattr(s, d) <= 10
        assert s.reasons[d] and "not measured" not in s.reasons[d]
    assert s.documentation >= 7 and s.ease_of_use >= 9
    assert "80 releases" in s.reasons["maturity"]
    assert expected_overall(s) == s.overall


def expected_overall(s) -> float:
    measured = [d for d in DIMENSIONS if d not in s.unmeasured]
    total = sum(WEIGHTS[d] for d in measured)
    return round(sum(WEIGHTS[d] * getattr(s, d) for d in measured) / total, 2)


def test_missing_signals_are_not_invented() -> None:
    """Only stars/forks/push/issues known (the catalog): nothing else appears in the reasons."""
    s = score_repository(repo(), None, PARAMS, None, now=NOW)
    assert s.unmeasured == ["documentation", "ease_of_use"]  # no README read: both n/a
    assert s.ease_of_use is None and "not measured" in s.reasons["ease_of_use"]
    assert s.documentation is None and "not measured" in s.reasons["documentation"]
    assert "releases" not in s.reasons["maturity"].split("not measured")[0]
    assert "not measured: age, releases, license" in s.reasons["maturity"]
    assert "not measured: commits 90d" in s.reasons["activity"]
    assert s.overall == expected_overall(s)
    assert s.overall != 5.0


def test_a_dimension_with_no_signal_is_left_out_of_overall() -> None:
    bare = Repository(full_name="a/b")  # nothing known except 0 stars / 0 forks
    s = score_repository(bare, None, None, None, now=NOW)
    assert {"ease_of_use", "relevance", "activity", "documentation", "maintenance"} <= set(s.unmeasured)
    assert s.overall == expected_overall(s)


def test_relevance_prefers_name_and_reports_misses() -> None:
    params = SearchParams(keywords=["zustand", "signals"])  # two core concepts ("vue" would be a qualifier)
    s = score_repository(repo(), None, params, None, now=NOW)
    assert "'zustand' in name" in s.reasons["relevance"]
    assert "no match for 'signals'" in s.reasons["relevance"]
    assert s.relevance == 5.0


def test_language_counts_in_relevance() -> None:
    same = score_repository(repo(), None, SearchParams(keywords=["react"], language="TypeScript"), now=NOW)
    other = score_repository(repo(), None, SearchParams(keywords=["react"], language="Rust"), now=NOW)
    assert same.relevance > other.relevance


def test_stale_repo_scores_low_on_activity() -> None:
    old = score_repository(repo(pushed_at=datetime(2022, 1, 1, tzinfo=timezone.utc)), None, now=NOW)
    fresh = score_repository(repo(pushed_at=datetime(2026, 8, 20, tzinfo=timezone.utc)), None, now=NOW)
    assert old.activity == 0 and fresh.activity == 10


def test_no_readme_signal_gives_zero_documentation() -> None:
    s = score_repository(repo(), RepoSignals(has_readme=False), now=NOW)
    assert s.documentation == 0 and s.reasons["documentation"] == "no README"


def test_text_scorer_overrides_only_what_it_covers() -> None:
    text = TextScores(relevance=DimensionScore(9.5, "LLM: exactly what was asked"))
    s = score_repository(repo(), None, PARAMS, README, now=NOW, text=text)
    heuristic = score_repository(repo(), None, PARAMS, README, now=NOW)
    assert s.relevance == 9.5 and s.reasons["relevance"].startswith("LLM")
    assert s.documentation == heuristic.documentation


async def test_heuristic_text_scorer_matches_score_repository() -> None:
    text = await HeuristicTextScorer().score_text(repo(), None, PARAMS, README)
    assert text.documentation is not None and text.ease_of_use is not None and text.relevance is not None


def test_rank_key_tie_breaks_relevance_then_stars_then_activity() -> None:
    def item(name: str, stars: int, relevance: float, activity: float) -> ScoredRepository:
        r = ScoredRepository(full_name=name, stars=stars)
        r.scores.overall, r.scores.relevance, r.scores.activity = 7.0, relevance, activity
        return r

    items = [item("a/low-rel", 900, 5, 9), item("a/few-stars", 10, 8, 9), item("a/top", 100, 8, 1), item("a/top-active", 100, 8, 5)]
    assert [i.full_name for i in sorted(items, key=rank_key)] == ["a/top-active", "a/top", "a/few-stars", "a/low-rel"]


def test_relevance_by_meaning_counts_when_the_words_say_less() -> None:
    terraform = Repository(full_name="hashicorp/terraform", description="Codifies APIs into declarative configuration files",
                           stars=49_000, language="Go")
    params = SearchParams(text="ops wants our AWS setup described in code", keywords=["aws", "setup"])
    by_words = score_repository(terraform, None, params, now=NOW)
    assert by_words.relevance == 0
    close = score_repository(terraform, None, params, now=NOW, closeness=0.62)
    assert close.relevance == 6.4 and close.reasons["relevance"] == "close in meaning to the request"
    assert close.overall > by_words.overall
    at_the_floor = score_repository(terraform, None, params, now=NOW, closeness=0.30)
    assert at_the_floor.relevance == 0  # the words' verdict stands on a tie


def test_the_words_keep_relevance_when_they_say_more() -> None:
    zustand = Repository(full_name="pmndrs/zustand", description="Bear necessities for state management in React",
                         stars=58_000, language="TypeScript")
    params = SearchParams(text="react state management", keywords=["react"], synonym_groups=[["state management"]])
    by_words = score_repository(zustand, None, params, now=NOW)
    assert score_repository(zustand, None, params, now=NOW, closeness=0.35).relevance == by_words.relevance
