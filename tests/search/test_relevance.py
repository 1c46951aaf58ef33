"""Relevance to the query: the core concept carries a result, qualifiers only adjust it."""

from __future__ import annotations

from core.models import Repository, SearchParams
from core.search.concepts import adjacent_pairs, core_search_params, language_mention_params, query_concepts
from core.search.relevance import (
    TIER_ALL_CORE, TIER_PARTIAL, TIER_QUALIFIERS_ONLY, compile_terms, misses_language, relevance, unknown_language_fits,
)
from core.search.translator import RuleBasedTranslator
from core.search.synonyms import spell_out_compounds

RULES = RuleBasedTranslator()


def rel(text: str, name: str, description: str, language: str | None = "TypeScript", readme: str | None = None):
    params = RULES.translate_sync(text)
    result = relevance(Repository(full_name=name, description=description, language=language),
                       compile_terms(params), readme)
    assert result is not None
    return result


def test_roles_core_concept_versus_qualifiers() -> None:
    roles = {c.label: c.role for c in query_concepts(RULES.translate_sync("react state management"))}
    assert roles == {"state management": "core", "react": "qualifier"}
    roles = {c.label: c.role for c in query_concepts(RULES.translate_sync("kubernetes dashboard"))}
    assert roles == {"dashboard": "core", "kubernetes": "qualifier"}
    # nothing but qualifiers and generic words: they become the core
    assert {c.role for c in query_concepts(RULES.translate_sync("react"))} == {"core"}
    assert {c.role for c in query_concepts(SearchParams(keywords=["desktop", "framework"]))} == {"core"}


def test_a_qualifier_alone_does_not_carry_a_result() -> None:
    react = rel("react state management", "react/react", "The library for web and native user interfaces.",
                "JavaScript")
    zustand = rel("react state management", "pmndrs/zustand", "Bear necessities for state management in React")
    redux = rel("react state management", "reduxjs/redux", "A JS library for predictable global state management")
    assert react.score == 0 and react.tier >= TIER_QUALIFIERS_ONLY
    assert react.reason.startswith("matches only 'react'") and "no match for 'state management'" in react.reason
    assert zustand.tier == TIER_ALL_CORE and zustand.score > redux.score > react.score
    # redux does not say "React", and TypeScript does not imply it: the core matches, a tier below
    assert TIER_ALL_CORE < redux.tier < TIER_QUALIFIERS_ONLY and "no match for 'react'" in redux.reason


def test_only_a_language_that_means_the_framework_implies_it() -> None:
    daisy = rel("vue ui component library", "saadeghi/daisyui", "Tailwind CSS component library", "JavaScript")
    vuelib = rel("vue ui component library", "a/b", "A UI component library", "Vue")
    assert "implied" not in daisy.reason and daisy.missed_qualifiers == ("vue",) and daisy.tier > TIER_ALL_CORE
    assert vuelib.tier == TIER_ALL_CORE and "implied by its language (Vue)" in vuelib.reason
    bloc = rel("flutter state management", "felangel/bloc", "A predictable state management library", "Dart")
    assert "implied by its language (Dart)" in bloc.reason


def test_an_awesome_list_comes_after_the_real_thing() -> None:
    real = rel("python web framework", "pallets/flask", "A micro web framework", "Python")
    listed = rel("python web framework", "a/awesome-web", "Awesome Python web framework packages", "R")
    assert listed.tier > real.tier
    # asked for lists: no extra step down for being one
    asked = rel("curated list of python web frameworks", "a/awesome-web", "A curated list of Python web frameworks", "R")
    assert asked.tier == TIER_ALL_CORE


def test_a_core_match_in_another_ecosystem_is_a_lower_tier() -> None:
    bloc = rel("flutter state management", "felangel/bloc", "A predictable state management library", "Dart")
    zustand = rel("flutter state management", "pmndrs/zustand", "Bear necessities for state management in React")
    assert bloc.tier == TIER_ALL_CORE < zustand.tier < TIER_QUALIFIERS_ONLY


def test_equivalents_count_more_than_related_terms() -> None:
    container = rel("state management", "a/b", "A predictable state container")
    store = rel("state management", "a/c", "An app store for releases")
    assert container.score > store.score > 0
    assert container.tier == TIER_ALL_CORE and store.tier > TIER_ALL_CORE  # only a related term: partial
    assert "(weak)" in store.reason


def test_phrase_beats_scattered_words_beats_head_word() -> None:
    phrase = rel("web framework", "a/b", "A web framework for Python", "Python")
    scattered = rel("web framework", "a/c", "The micro framework for building web applications", "Python")
    head = rel("web framework", "a/d", "Scraping framework, high performance", "Python")
    assert phrase.score > scattered.score > head.score > 0
    assert scattered.tier == TIER_ALL_CORE and head.tier > TIER_ALL_CORE


def test_api_frameworks_and_http_routing_libraries_are_web_frameworks() -> None:
    fastapi = rel("python web frameworks", "fastapi/fastapi", "FastAPI framework, high performance", "Python")
    axum = rel("rust web framework", "tokio-rs/axum", "HTTP routing and request-handling library for Rust", "Rust")
    for result in (fastapi, axum):
        assert result.tier == TIER_ALL_CORE and "(weak)" not in result.reason
    assert "'api framework'" in fastapi.reason and "'http routing'" in axum.reason
    scraper = rel("python web frameworks", "a/s", "An adaptive scraping framework for Python", "Python")
    assert scraper.tier > TIER_ALL_CORE  # "framework" alone is still only the head noun


def test_compound_names_are_spelled_out_but_not_javascript() -> None:
    assert spell_out_compounds("FastAPI framework") == "FastAPI Fast API framework"
    assert spell_out_compounds("Stable Diffusion WebUI") == "Stable Diffusion WebUI Web UI"
    assert spell_out_compounds("Written in JavaScript") == "Written in JavaScript"


def test_the_look_for_a_compound_first_changes_no_catalog_text() -> None:
    from core.catalog import Catalog
    from core.search.synonyms import _COMPOUND

    for record in Catalog.load().records:
        for text in (record.description, *record.list_descriptions, *record.categories):
            assert spell_out_compounds(text) == _COMPOUND.sub(r"\1\2 \1 \2", text)


def test_adjacent_query_words_are_a_phrase() -> None:
    params = RULES.translate_sync("vector database")
    assert "vector database" in adjacent_pairs(params)
    together = rel("vector database", "a/b", "A cloud-native vector database")
    apart = rel("vector database", "a/c", "Vector graphics editor with a database of shapes")
    assert together.score > apart.score
    assert adjacent_pairs(RULES.translate_sync("desktop app framework")) == ["desktop app", "app framework"]


def test_the_language_is_a_qualifier_its_family_and_mentions_count() -> None:
    same = rel("javascript testing framework", "a/b", "Delightful JavaScript Testing.", "JavaScript")
    family = rel("javascript testing framework", "a/c", "Delightful JavaScript Testing.", "TypeScript")
    other = rel("javascript testing framework", "a/d", "Delightful Testing.", "Go")
    assert same.score >= family.score > other.score and family.tier <= other.tier
    ruff = rel("python linter", "astral-sh/ruff", "An extremely fast Python linter, written in Rust.", "Rust")
    biome = rel("python linter", "biomejs/biome", "A linter for web projects", "Rust")
    assert ruff.tier == TIER_ALL_CORE < biome.tier and "'Python' in description" in ruff.reason


def test_a_shell_tool_may_say_so_by_the_shells_it_serves() -> None:
    # curated lists leave these without a language: their text says which shells they are for
    for name, description in (
            ("shellspec/shellspec", "A full-featured BDD unit-testing framework for all POSIX shells."),
            ("bats-core/bats-core", "Bash Automated Testing System.")):
        assert not misses_language(rel("shell script testing framework", name, description, None).tier), name
    assert misses_language(rel("shell script testing framework", "a/b", "Testing framework for PHP.", None).tier)


def test_a_repository_lists_of_several_languages_file_is_made_for_each_of_them() -> None:
    """Its language is unknown (the lists disagree), but a list for a language, or a list's section
    for it, filing it says it is made for that language."""
    def filed(text: str, categories: list[str]) -> int:
        repo = Repository(full_name="a/paramonte", description="Monte Carlo and MCMC simulations.", language=None,
                          categories=categories)
        result = relevance(repo, compile_terms(RULES.translate_sync(text)), None)
        assert result is not None
        return result.tier

    sections = ["awesome-machine-learning: C++ > General-Purpose", "awesome-machine-learning: Fortran > Data Analysis"]
    assert not misses_language(filed("fortran library for mcmc sampling", sections))
    assert misses_language(filed("julia package for mcmc sampling", sections))
    assert not misses_language(filed("go library for mcmc", ["awesome-go: Science", "awesome-rust: Science"]))
    assert not misses_language(filed("node.js library for mcmc", ["awesome-nodejs: Packages > Science"]))
    assert misses_language(filed("go library for mcmc", ["awesome-selfhosted: Go"]))  # a tag there, not a section


def test_an_application_whose_language_is_unknown_offline_is_not_in_another_language() -> None:
    """A list of several languages' applications (awesome-selfhosted) does not say what they are
    written in: asked for an application in a language, one of them is not ruled out; asked for
    code to build with (a library, a crate, a client), it is: such lists file applications."""
    def tier(text: str, **fields) -> int:
        repo = Repository(full_name="sabre-io/dav", description="Open source CardDAV, CalDAV, and WebDAV server.",
                          language=None, categories=["awesome-selfhosted: Calendar & Contacts"], **fields)
        result = relevance(repo, compile_terms(RULES.translate_sync(text)), None)
        assert result is not None
        return result.tier

    assert not misses_language(tier("self-hosted CalDAV server in PHP", figures_known=False))
    assert misses_language(tier("PHP library for a CalDAV server", figures_known=False))
    assert misses_language(tier("Rust CalDAV client crate", figures_known=False))
    # measured on GitHub with no language given there: nothing says it is unknown offline
    assert misses_language(tier("self-hosted CalDAV server in PHP"))
    # nor is a list's application written in a language the catalog holds nothing in
    assert misses_language(tier("self-hosted CalDAV server in COBOL", figures_known=False))


def test_an_unknown_language_is_unconfirmed_after_those_known_to_be_in_it() -> None:
    """Not ruled out, but not as good as a confirmed one: such a match is a partial one."""
    def tier(**fields) -> int:
        repo = Repository(full_name="sabre-io/dav", description="Open source CardDAV, CalDAV, and WebDAV server.",
                          categories=["awesome-selfhosted: Calendar & Contacts"], **fields)
        result = relevance(repo, compile_terms(RULES.translate_sync("self-hosted CalDAV server in PHP")), None)
        assert result is not None
        return result.tier

    assert tier(language=None, figures_known=False) & TIER_PARTIAL
    assert tier(language="PHP") == TIER_ALL_CORE


def test_which_languages_an_application_of_unknown_language_may_stand_for() -> None:
    def fits(text: str) -> bool:
        return unknown_language_fits(RULES.translate_sync(text))

    assert fits("self-hosted PHP webmail") and fits("a wiki written in Go")
    assert not fits("PHP library for sending mail") and not fits("swift lib for gpx files")
    assert not fits("cobol payroll system")  # nothing offline is in COBOL
    assert not fits("jupyter notebook dark theme")  # notebooks are not what applications are written in
    assert not fits("self-hosted webmail")  # no language asked for


def test_a_core_concept_a_lists_section_names_matches_as_a_readme_would() -> None:
    """"Webmail Clients" files roundcube, whose description never says webmail; the list's own name
    ("awesome-selfhosted") is not a section."""
    repo = Repository(full_name="roundcube/roundcubemail", language=None, figures_known=False,
                      description="Browser-based IMAP client with an application-like user interface.",
                      categories=["awesome-selfhosted: Communication - Email - Webmail Clients"])
    found = relevance(repo, compile_terms(RULES.translate_sync("webmail")), None)
    assert found is not None and found.tier == TIER_ALL_CORE and "its list's section" in found.reason
    rss = relevance(repo, compile_terms(RULES.translate_sync("awesome rss reader")), None)
    assert rss is not None and rss.tier >= TIER_QUALIFIERS_ONLY


def test_a_language_named_in_the_possessive_is_compared_with_not_served() -> None:
    # "similar to Python's SQLAlchemy": a C++ ORM, not one made for Python
    sqlgen = rel("python orm", "getml/sqlgen", "An ORM for C++-20, similar to Python's SQLAlchemy or Rust's Diesel.",
                 "C++")
    made_for = rel("python orm", "a/pyorm", "An async ORM for Python and PostgreSQL.", "Rust")
    assert misses_language(sqlgen.tier) and "'Python' in description" not in sqlgen.reason
    assert not misses_language(made_for.tier)
    port = rel("ruby dotenv", "joho/godotenv", "Go port of Ruby\u2019s dotenv library.", "Go")
    assert misses_language(port.tier)


def test_search_shapes_for_the_core_and_the_named_language() -> None:
    core = core_search_params(RULES.translate_sync("react state management"))
    assert core is not None and core.keywords == [] and "react" not in core.synonym_groups[0]
    assert core.synonym_groups[0][:2] == ["state management", "state manager"]
    named = language_mention_params(RULES.translate_sync("python linter"))
    assert named is not None and named.language is None and named.keywords == ["python"]
    assert language_mention_params(RULES.translate_sync("c++ json library")) is None  # "c" is no search term
    assert language_mention_params(RULES.translate_sync("golang orm")).keywords == ["golang"]


def test_a_curated_list_a_repository_is_filed_in_implies_a_qualifier() -> None:
    terms = compile_terms(RULES.translate_sync("self-hosted feature flag service"))

    def listed(categories: list[str]):
        repo = Repository(full_name="flagsmith/flagsmith", description="Dashboard, API and SDKs for adding Feature Flags",
                          categories=categories)
        return relevance(repo, terms)

    filed = listed(["awesome-selfhosted: Software Development - Feature Toggle"])
    assert filed is not None and filed.missed_qualifiers == () and "'self-hosted' implied by its list (awesome-selfhosted)" in filed.reason
    elsewhere = listed(["awesome-go: Server Applications"])
    assert elsewhere is not None and elsewhere.missed_qualifiers == ("self-hosted",)
