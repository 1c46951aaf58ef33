"""The offline catalog: real packaged data, growth, full-text search, names, the RepoSource."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from core.catalog import Catalog, CatalogSource
from core.catalog.build import DATA_FILE, build
from core.catalog.index import match_expression
from core.errors import RepoNotFound
from core.models import SearchParams
from core.search.relevance import filing_languages

SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "github-ranking"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def test_loads_the_real_snapshot_once(catalog: Catalog) -> None:
    assert 3400 <= sum(r.figures_known for r in catalog.records) <= 3500
    assert catalog.snapshot_date == date(2026, 8, 22)
    assert catalog.snapshot_dates == [date(2025, 8, 18), date(2026, 2, 22), date(2026, 5, 22), date(2026, 8, 22)]
    assert Catalog.load() is catalog
    assert len({r.full_name.lower() for r in catalog.records}) == len(catalog)


def test_attribution_ships_next_to_the_data() -> None:
    text = DATA_FILE.with_name("DATA_LICENSE.md").read_text(encoding="utf-8")
    assert "EvanLi/Github-Ranking" in text and "MIT License" in text and "Evan Li" in text


def test_star_growth_from_the_four_dates(catalog: Catalog) -> None:
    # pmndrs/zustand: 54,175 (2025-08-18), 57,082 (2026-02-22), 58,092 (2026-05-22), 58,592 (2026-08-22)
    zustand = catalog.get("pmndrs/zustand")
    assert zustand is not None
    assert zustand.stars == 58_592
    assert zustand.star_growth_6m == 58_592 - 57_082
    assert zustand.star_growth_12m == 58_592 - 54_175
    repo = zustand.to_repository()
    assert (repo.star_growth_6m, repo.star_growth_12m) == (1510, 4417)


def test_fork_growth_from_the_four_dates(catalog: Catalog) -> None:
    # pmndrs/zustand forks: 1,769 (2025-08-18), 1,950 (2026-02-22), 2,055 (2026-05-22), 2,184 (2026-08-22)
    zustand = catalog.get("pmndrs/zustand")
    assert zustand is not None and zustand.forks == 2_184
    assert zustand.forks_by_date[date(2025, 8, 18)] == 1_769
    assert (zustand.fork_growth_6m, zustand.fork_growth_12m) == (2_184 - 1_950, 2_184 - 1_769)
    repo = zustand.to_repository()
    assert (repo.fork_growth_6m, repo.fork_growth_12m) == (234, 415)
    known = sum(r.fork_growth_12m is not None for r in catalog.records)
    assert known == sum(r.star_growth_12m is not None for r in catalog.records) > 3_000


def test_growth_is_unknown_not_zero_when_a_repo_was_not_listed(catalog: Catalog) -> None:
    newcomer = catalog.get("openclaw/openclaw")  # not in the 2025-08-18 top lists
    assert newcomer is not None
    assert newcomer.star_growth_12m is None and newcomer.fork_growth_12m is None
    assert newcomer.star_growth_6m == newcomer.stars - newcomer.stars_by_date[date(2026, 2, 22)]
    assert newcomer.fork_growth_6m == newcomer.forks - newcomer.forks_by_date[date(2026, 2, 22)]


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="source CSVs not available")
def test_packaged_data_is_rebuilt_identically_from_the_source_csvs() -> None:
    assert build(SHARED_DATA) == DATA_FILE.read_bytes()


def test_names_resolve_case_insensitively_most_starred_first(catalog: Catalog) -> None:
    assert catalog.names.resolve("zustand") == ["pmndrs/zustand"]
    assert catalog.names.resolve("ZUSTAND") == ["pmndrs/zustand"]
    assert catalog.names.resolve("PMNDRS/Zustand") == ["pmndrs/zustand"]
    awesome = catalog.names.resolve("awesome")
    assert awesome[0] == "sindresorhus/awesome" and len(awesome) > 1
    stars = [catalog.get(n).stars for n in awesome]
    assert stars == sorted(stars, reverse=True)
    assert catalog.names.resolve("no-such-repo-xyz") == []
    assert catalog.names.resolve("  ") == []


def test_match_expression_ands_concepts_and_ors_synonyms() -> None:
    expr = match_expression([["state management", "store"], ["react"]])
    assert expr == '("state management" OR "store") AND "react"'
    assert match_expression([["c++"]]) == '"c"'
    assert match_expression([['he said "hi"']]) == '"he said hi"'
    assert match_expression([]) is None


def test_search_finds_by_description_with_synonyms(catalog: Catalog) -> None:
    params = SearchParams(keywords=["react"], synonym_groups=[["state management", "store"]])
    names = [r.full_name for r in catalog.search(params, sort="best")]
    assert "pmndrs/zustand" in names


def test_search_filters(catalog: Catalog) -> None:
    rust = catalog.search(SearchParams(keywords=["web"], language="rust"), sort="stars", limit=50)
    assert rust and all(r.language == "Rust" for r in rust)
    stars = [r.stars for r in rust]
    assert stars == sorted(stars, reverse=True)
    small = catalog.search(SearchParams(max_stars=50), limit=20)
    assert small and all(r.stars <= 50 for r in small)
    band = catalog.search(SearchParams(min_stars=1000, max_stars=2000), limit=20)
    assert band and all(1000 <= r.stars <= 2000 for r in band)
    recent = catalog.search(SearchParams(pushed_after=date(2026, 8, 20)), sort="updated", limit=20)
    assert recent and all(r.pushed_at.date() >= date(2026, 8, 20) for r in recent)
    assert recent[0].pushed_at >= recent[-1].pushed_at


def test_applications_of_unknown_language_pass_a_language_filter_when_they_may_be_in_it(catalog: Catalog) -> None:
    """Known only from lists of several languages, their language is unknown offline: asked for an
    application in PHP, they are searched too; asked for PHP code to build with, they are not."""
    webmail = catalog.get("the-djmaze/snappymail")
    assert webmail is not None and webmail.language is None and not webmail.figures_known
    found = [r.full_name for r in catalog.search(SearchParams(text="self-hosted PHP webmail", keywords=["webmail"],
                                                                 language="PHP"), limit=30)]
    assert "the-djmaze/snappymail" in found
    library = [r.full_name for r in catalog.search(SearchParams(text="PHP webmail library", keywords=["webmail"],
                                                                   language="PHP"), limit=30)]
    assert "the-djmaze/snappymail" not in library
    assert all(catalog.get(n).language or "PHP" in filing_languages(tuple(catalog.get(n).categories)) for n in library)


def test_a_repository_lists_of_two_languages_file_passes_a_filter_on_either(catalog: Catalog) -> None:
    """neon-bindings/neon (Rust bindings for Node.js modules) is filed by awesome-rust and
    awesome-nodejs: its one language is unknown, but it is made for each of them."""
    neon = catalog.get("neon-bindings/neon")
    assert neon is not None and neon.language is None
    for language in ("Rust", "JavaScript"):
        found = [r.full_name for r in catalog.search(SearchParams(text="native node.js modules", keywords=["native", "modules"],
                                                                 language=language), limit=30)]
        assert "neon-bindings/neon" in found, language
    assert "neon-bindings/neon" not in [r.full_name for r in catalog.search(
        SearchParams(text="native node.js modules", keywords=["native", "modules"], language="Go"), limit=30)]


def test_search_sort_by_growth_and_nonsense_query(catalog: Catalog) -> None:
    growing = catalog.search(SearchParams(), sort="growth", limit=5)
    assert growing[0].star_growth_12m >= growing[-1].star_growth_12m
    assert catalog.search(SearchParams(keywords=["zzqqxxnotaword"])) == []
    assert catalog.search(SearchParams(keywords=["AND", "OR", "NOT", "*"])) == [] or True  # no crash


async def test_catalog_source_contract(catalog: Catalog) -> None:
    source = catalog.source()
    assert isinstance(source, CatalogSource)
    assert source.info.kind == "catalog" and source.info.snapshot_date == date(2026, 8, 22)
    assert "2026-08-22" in source.info.label
    repo = await source.get_repo("PMNDRS/zustand")
    assert repo.full_name == "pmndrs/zustand" and repo.url == "https://github.com/pmndrs/zustand"
    with pytest.raises(RepoNotFound):
        await source.get_repo("nobody/nothing")
    signals = await source.get_signals("pmndrs/zustand")
    measured = signals.model_dump(exclude={"notes"})
    assert all(v is None for v in measured.values())
    assert signals.notes and "offline snapshot" in signals.notes[0]
    assert await source.get_readme("pmndrs/zustand") is None
    found = await source.search(SearchParams(keywords=["zustand"]), limit=3)
    assert found[0].full_name == "pmndrs/zustand"


@pytest.mark.parametrize("name", ["zustand", "ZUSTAND", "firebase", "notion", "google", "gin", "react", "fzf", "redux"])
async def test_find_named_is_the_first_repository_so_called_in_a_search_by_name(catalog: Catalog, name: str) -> None:
    source = catalog.source()
    found = await source.search(SearchParams(text=name, keywords=[name]), sort="stars", limit=10)
    expected = next((r for r in found if r.name.lower() == name.lower()), None)
    assert await source.find_named(name, limit=10) == expected


@pytest.mark.parametrize("name", ["zustand", "firebase", "google"])
def test_find_named_does_not_embed_a_name_found_by_words_or_called_by_no_record(catalog: Catalog, name: str) -> None:
    from core.search import semantic

    semantic.query_vector.clear()
    encoded = semantic.query_vector.encoded
    catalog.find_named(name)
    assert semantic.query_vector.encoded == encoded


@pytest.mark.parametrize("message", [
    "find a static site generator written in Go", "python web frameworks", "hidden gem game engines under 500 stars",
    "actively maintained rust cli tools", "something like notion but open source", "awesome lists about rust",
])
def test_kept_nearest_records_are_what_each_strategy_would_compute(catalog: Catalog, message: str) -> None:
    from core.search.scout import relaxation_steps, strategies, widened
    from core.search.translator import RuleBasedTranslator

    params = RuleBasedTranslator(today=lambda: catalog.snapshot_date).translate_sync(message)
    asked = [s.params for s in strategies(params)]
    current = params
    for _, change in relaxation_steps(params):
        current = change(current)
        asked.append(widened(current))
    for p in asked + asked:  # the second round answers from what was kept
        for limit in (10, 30):
            assert catalog._nearest(p, limit) == catalog._nearest_uncached(p, limit)


def test_the_searches_of_a_turn_share_the_repository_objects_of_their_records(catalog: Catalog) -> None:
    from core.catalog.catalog import RECENT_REPOSITORIES

    params = SearchParams(text="python web frameworks", synonym_groups=[["web framework"]], language="Python")
    by_stars, by_push = catalog.search(params, sort="stars"), catalog.search(params, sort="updated")
    first = {r.full_name: r for r in by_stars}
    shared = [r for r in by_push if r.full_name in first]
    assert shared and all(r is first[r.full_name] for r in shared)
    assert all(r == catalog.get(r.full_name).to_repository() for r in by_push)  # type: ignore[union-attr]
    for word in ("database", "editor", "terminal", "game", "http"):
        catalog.search(SearchParams(text=word, keywords=[word]), limit=100)
    assert len(catalog._recent_repositories) <= RECENT_REPOSITORIES


def test_a_loaded_catalog_is_out_of_the_garbage_collectors_way(catalog: Catalog) -> None:
    import gc

    assert gc.is_tracked(catalog.records[0]) and gc.get_freeze_count() >= len(catalog.records)
    assert not any(obj is catalog.records[0] for obj in gc.get_objects(generation=2))


async def test_the_strategies_of_one_search_embed_their_needs_in_one_pass(catalog: Catalog) -> None:
    import time

    from core.search import fit, semantic
    from core.search.scout import Scout
    from core.search.translator import RuleBasedTranslator

    semantic.query_vector.clear()
    fit.need_vector.cache_clear()
    encoded, passes = semantic.query_vector.encoded, semantic.query_vector.passes
    params = RuleBasedTranslator().translate_sync("library to make charts in javascript")  # with and without the language
    await Scout(catalog.source()).gather(params, deadline=time.monotonic() + 30)
    assert (semantic.query_vector.encoded - encoded, semantic.query_vector.passes - passes) == (2, 1)


async def test_the_need_without_its_language_shares_the_one_pass(catalog: Catalog) -> None:
    import time

    from core.search import fit, semantic
    from core.search.scout import Scout
    from core.search.translator import RuleBasedTranslator

    semantic.query_vector.clear()
    fit.need_vector.cache_clear()
    params = RuleBasedTranslator().translate_sync("clojure library for generating QR codes")
    assert fit.evidence_query(params) == "library for generating QR codes"
    passes = semantic.query_vector.passes
    await Scout(catalog.source()).gather(params, deadline=time.monotonic() + 30)
    assert semantic.query_vector.passes - passes == 1
    fit.need_vector(fit.evidence_query(params))  # what the gate reads: already encoded
    assert semantic.query_vector.passes - passes == 1
