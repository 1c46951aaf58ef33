"""Comparison rules on hand-made scores: fit, the need-driven pick, leaders and ties."""

from __future__ import annotations

from core.analysis.compare import fit_score, highlights, pick, warnings
from core.analysis.need import DEFAULT_WEIGHTS, extract_need
from core.models import DimensionScores, RepoSignals, ScoredRepository
from tests.analysis.fixtures import NOW, days_ago


def repo(name: str, stars: int = 1000, signals: RepoSignals | None = None, **scores) -> ScoredRepository:
    return ScoredRepository(full_name=name, stars=stars, pushed_at=days_ago(5),
                            scores=DimensionScores(**scores), signals=signals)


# clearly apart so the flips don't depend on the exact search weights
MATURE = repo("big/mature", maturity=10, activity=9, documentation=5, community=9,
              ease_of_use=3, maintenance=9, overall=7.8)
FRIENDLY = repo("small/friendly", maturity=6, activity=7, documentation=9, community=5,
                ease_of_use=10, maintenance=6, overall=7.1)


def fits(need):
    weights = need.weights if need else DEFAULT_WEIGHTS
    return {r.full_name: fit_score(r, weights) for r in (MATURE, FRIENDLY)}


def test_the_stated_need_flips_the_pick() -> None:
    plain = pick([MATURE, FRIENDLY], fits(None), None, now=NOW)
    beginners = extract_need("for beginners")
    production = extract_need("for production")
    assert plain.full_name == "big/mature"
    assert pick([MATURE, FRIENDLY], fits(beginners), beginners, now=NOW).full_name == "small/friendly"
    assert pick([MATURE, FRIENDLY], fits(production), production, now=NOW).full_name == "big/mature"
    lightweight = extract_need("something lightweight")
    choice = pick([MATURE, FRIENDLY], fits(lightweight), lightweight, now=NOW)
    assert choice.full_name == "small/friendly"
    assert choice.reasons[0].startswith("Best fit for something lightweight: ")
    assert "size isn't measured directly" in choice.reasons[1]


def test_runner_up_edge_is_explained() -> None:
    choice = pick([MATURE, FRIENDLY], fits(None), None, now=NOW)
    assert "Consider small/friendly if ease of use matters most: it scores 10.0 vs 3.0." in choice.reasons


def test_a_pick_that_leads_on_fewer_dimensions_says_so() -> None:
    daisy = repo("saadeghi/daisyui", maturity=8.8, activity=9.0, documentation=9.0, community=8.1,
                 ease_of_use=9.0, maintenance=10.0, overall=9.6)
    mui = repo("mui/material-ui", maturity=9.0, activity=9.0, documentation=9.0, community=9.0,
               ease_of_use=9.0, maintenance=7.5, overall=9.3)
    group = [mui, daisy]
    choice = pick(group, {"saadeghi/daisyui": 9.6, "mui/material-ui": 9.3}, None, now=NOW)
    assert choice.full_name == "saadeghi/daisyui"
    assert ("saadeghi/daisyui wins mainly on maintenance (10.0 vs 7.5); mui/material-ui leads on "
            "maturity and community by smaller margins.") in choice.reasons


def test_a_pick_that_leads_on_most_dimensions_gets_no_split_note() -> None:
    choice = pick([MATURE, FRIENDLY], fits(None), None, now=NOW)
    assert not any("wins mainly on" in r for r in choice.reasons)


def test_fit_ignores_unmeasured_dimensions() -> None:
    partial = repo("x/y", maturity=8, activity=6, unmeasured=["documentation", "community",
                                                              "ease_of_use", "maintenance"])
    assert fit_score(partial, DEFAULT_WEIGHTS) == 7.0  # equal weights for maturity and activity
    nothing = repo("x/z", unmeasured=list(DEFAULT_WEIGHTS))
    assert fit_score(nothing, DEFAULT_WEIGHTS) is None


def test_archived_repos_are_not_picked_unless_all_are() -> None:
    archived = MATURE.model_copy(update={"archived": True})
    choice = pick([archived, FRIENDLY], fits(None), None, now=NOW)
    assert choice.full_name == "small/friendly"
    both = [archived, FRIENDLY.model_copy(update={"archived": True})]
    assert pick(both, fits(None), None, now=NOW) is not None


def test_no_scores_falls_back_to_popularity() -> None:
    a, b = repo("a/a", stars=10, unmeasured=list(DEFAULT_WEIGHTS)), repo("b/b", stars=99, unmeasured=list(DEFAULT_WEIGHTS))
    choice = pick([a, b], {"a/a": None, "b/b": None}, None, now=NOW)
    assert choice.full_name == "b/b" and "99 stars" in choice.reasons[0]


def test_leaders_need_two_measured_and_no_tie() -> None:
    a = repo("a/a", stars=500, signals=RepoSignals(commits_90d=40, contributors=12))
    b = repo("b/b", stars=500, signals=RepoSignals(commits_90d=40))
    c = repo("c/c", stars=100, signals=RepoSignals())
    out = highlights([a, b, c], now=NOW)
    assert not any("Most popular" in h for h in out["a/a"] + out["b/b"])  # tie on stars
    assert not any("Most active" in h for h in out["a/a"] + out["b/b"])  # tie on commits
    assert not any("contributor" in h for h in out["a/a"])  # only one repo measured


def test_response_time_leader_is_the_lowest() -> None:
    fast = repo("f/f", signals=RepoSignals(median_first_response_hours=3))
    slow = repo("s/s", signals=RepoSignals(median_first_response_hours=200))
    out = highlights([fast, slow], now=NOW)
    assert out["f/f"] == ["Quickest to respond: first reply to new issues within 3 hours (median)"]
    assert warnings(slow, now=NOW) == ["Slow to respond: about 8 days to a first reply on new issues (median)"]


def test_offline_leaders_use_push_dates_and_growth() -> None:
    a = ScoredRepository(full_name="a/a", stars=10, pushed_at=days_ago(2), star_growth_12m=900)
    b = ScoredRepository(full_name="b/b", stars=20, pushed_at=days_ago(40), star_growth_12m=100)
    out = highlights([a, b], now=NOW)
    assert out["a/a"] == ["Most recently updated: last push 2 days ago",
                          "Fastest growing: +900 stars in 12 months"]
    assert out["b/b"] == ["Most popular: 20 stars"]


def test_warnings_quote_numbers() -> None:
    r = ScoredRepository(full_name="w/w", pushed_at=days_ago(250), star_growth_12m=0,
                         signals=RepoSignals(releases=4, latest_release_at=days_ago(430),
                                             has_license=False, commits_90d=0))
    assert warnings(r, now=NOW) == [
        "Slowing down: the last push was 8 months ago",
        "No commits in the last 90 days",
        "No release in 14 months",
        "No license: reuse terms are unclear",
        "No star growth over the last 12 months",
    ]


def test_a_win_by_a_hair_is_not_a_highlight() -> None:
    a = repo("a/a", signals=RepoSignals(commits_90d=100, median_first_response_hours=6.0))
    b = repo("b/b", signals=RepoSignals(commits_90d=98, median_first_response_hours=6.2))
    out = highlights([a, b], now=NOW)
    assert out == {"a/a": [], "b/b": []}


def test_recent_committers_lead_and_warn_in_their_own_words() -> None:
    many = repo("m/m", signals=RepoSignals(recent_committers=34, recent_commits_sampled=100))
    few = repo("f/f", signals=RepoSignals(recent_committers=2, recent_commits_sampled=100))
    out = highlights([many, few], now=NOW)
    assert out["m/m"] == ["Most people committing: 34 people wrote the last 100 commits"]
    assert not any("contributor" in h for h in out["m/m"])  # not all-time contributors
    assert "Only 2 people wrote the last 100 commits: a low 'bus factor'" in warnings(few, now=NOW)[0]
