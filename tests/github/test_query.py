"""SearchParams -> GitHub ``q``: OR'd synonyms, phrases, qualifiers, GitHub's operator limits."""

from __future__ import annotations

from datetime import date

from core.github.query import build_query
from core.models import SearchParams
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
