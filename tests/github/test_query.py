"""SearchParams -> GitHub ``q``: OR'd synonyms, phrases, qualifiers, GitHub's operator limits."""

from __future__ import annotations

import random
import shlex
from datetime import date

from core.github.query import build_query
from core.models import SearchParams
from core.search.scout import expanded, relaxation_steps
from tests.fakes.github_query import MAX_OPERATORS, parse


def test_synonym_group_is_ored_and_other_concepts_are_required() -> None:
    q = build_query(SearchParams(
        keywords=["react"], synonym_groups=[["state management", "store", "redux"]],
        language="TypeScript", min_stars=1000,
    ))
    assert q == ('"state management" react OR store react OR redux react '
                 "language:TypeScript stars:>=1000 archived:false")


def test_qualifiers() -> None:
    q = build_query(SearchParams(
        keywords=["parser"], phrases=["json schema"], language="Vim Script", topics=["Machine Learning"],
        min_stars=10, max_stars=500, pushed_after=date(2026, 1, 2), created_after=date(2025, 6, 1),
    ))
    assert q == ('"json schema" parser language:"Vim Script" topic:machine-learning stars:10..500 '
                 "pushed:>=2026-01-02 created:>=2025-06-01 archived:false")
    assert "stars:<=99" in build_query(SearchParams(keywords=["x"], max_stars=99))


def test_either_of_two_languages_asks_for_both() -> None:
    q = build_query(SearchParams(keywords=["limiter"], language="Go", also_languages=["Rust"]))
    assert q == "limiter language:Go language:Rust archived:false"  # GitHub ORs language: qualifiers


def test_phrase_words_are_not_repeated_as_keywords() -> None:
    q = build_query(SearchParams(phrases=["machine learning"], keywords=["machine", "learning", "python"]))
    assert q == '"machine learning" python archived:false'


def test_many_synonyms_stay_within_githubs_limits() -> None:
    params = SearchParams(
        keywords=["fast"],
        synonym_groups=[["http client", "requests", "fetch", "ajax", "rest client", "curl"],
                        ["async", "asynchronous", "non-blocking", "concurrent"]],
    )
    q = build_query(params)
    parsed = parse(q)  # the fake refuses what GitHub refuses
    assert q.count(" OR ") <= MAX_OPERATORS
    assert len(q) <= 256
    assert all("fast" in alt for alt in parsed.alternatives)
    assert ["http client", "async", "fast"] in parsed.alternatives  # the best synonyms survive


def test_long_terms_are_trimmed_to_256_characters() -> None:
    words = [f"averyveryverylongkeyword{i}" for i in range(20)]
    q = build_query(SearchParams(synonym_groups=[words[:6]], keywords=words[6:]))
    assert len(q) <= 256
    parse(q)


def test_empty_params_still_make_a_valid_query() -> None:
    assert build_query(SearchParams()) == "archived:false"


def _operators(q: str) -> int:
    return sum(1 for token in shlex.split(q) if token in {"AND", "OR", "NOT"})


def test_operator_words_in_the_terms_never_become_operators() -> None:
    q = build_query(SearchParams(keywords=["rock", "OR", "roll", "not", "And"],
                                 synonym_groups=[["NOT", "guitar", "bass"], ["or", "amp"]]))
    assert _operators(q) == q.count(" OR ") == 1  # guitar/bass: the only real alternatives
    assert parse(q).alternatives == [["guitar", "amp", "rock", "roll"], ["bass", "amp", "rock", "roll"]]


def test_a_leading_dash_is_not_a_negation_and_a_colon_is_not_a_qualifier() -> None:
    q = build_query(SearchParams(keywords=["-electron", "std::vector"], phrases=["-- rock and roll"]))
    assert q == '"rock and roll" electron "std::vector" archived:false'
    assert " -" not in q


def test_too_long_phrases_and_topics_are_dropped_not_cut_mid_quote() -> None:
    q = build_query(SearchParams(phrases=["big " + "a" * 100, "big " + "b" * 100, "c c"],
                                 language="Python", min_stars=10,
                                 topics=[f"topic-{i}-" + "x" * 30 for i in range(8)]))
    assert len(q) <= 256 and q.count('"') % 2 == 0
    assert q.startswith('"big ' + "a" * 100 + '"')  # the first phrase and topic are kept
    assert "topic:topic-0-" in q and "topic:topic-7-" not in q
    assert "language:Python topic:topic-0-" in q and q.endswith(" stars:>=10 archived:false")
    parsed = parse(q)
    assert parsed.qualifiers["language"] == ["Python"]


def test_random_params_always_make_a_query_github_accepts() -> None:
    """Every query the Scout can send (precise, expanded, relaxed) stays within GitHub's limits."""
    rng = random.Random(20260822)
    words = ["state", "management", "OR", "and", "NOT", "-x", "http", "client", "c++", "a:b",
             "machine learning", "verylongword" * 4, "react", "vue", "svelte", "rock and roll",
             '"quoted"', "go", "rust", "async", "fast api", "-", "", "  "]
    for _ in range(400):
        def pick(n: int) -> list[str]:
            return rng.sample(words, rng.randint(0, n))
        params = SearchParams(
            keywords=pick(6), phrases=[w for w in pick(3) if " " in w or rng.random() < 0.3],
            synonym_groups=[pick(6) for _ in range(rng.randint(0, 3))], topics=pick(3),
            language=rng.choice([None, "Python", "Vim Script", "C++"]),
            min_stars=rng.choice([None, 10, 1000]), max_stars=rng.choice([None, 50_000]),
            pushed_after=rng.choice([None, date(2026, 1, 1)]),
        )
        variants = [params, expanded(params)] + [change(params) for _, change in relaxation_steps(params)]
        for variant in variants:
            q = build_query(variant)
            assert len(q) <= 256, q
            assert _operators(q) <= MAX_OPERATORS, q
            assert q.count('"') % 2 == 0 and not q.endswith(" OR") and not q.startswith("OR "), q
            assert " -" not in f" {q}", q
            parse(q)  # the fake refuses what GitHub refuses


def test_a_single_giant_term_is_left_out_and_the_qualifiers_stay() -> None:
    q = build_query(SearchParams(keywords=["x" * 300], language="Go", min_stars=5))
    assert q == "language:Go stars:>=5 archived:false"
