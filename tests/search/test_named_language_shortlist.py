"""Which candidates get scored when the user named a language."""

from __future__ import annotations

from core.models import Repository, SearchParams
from core.search.screener import named_language_first


def repo(name: str, language: str) -> Repository:
    return Repository(full_name=f"o/{name}", description="", url=f"https://github.com/o/{name}", language=language)


RANKED = [repo(f"ruby{i}", "Ruby") for i in range(6)] + [repo(f"go{i}", "Go") for i in range(3)]


def test_the_named_language_keeps_its_places_and_a_free_source_scores_a_few_others() -> None:
    shortlist = named_language_first(RANKED, SearchParams(language="Go"), top=4, extra=2)
    assert [r.name for r in shortlist] == ["ruby0", "ruby1", "go0", "go1", "go2"]


def test_where_scoring_costs_calls_the_shortlist_stays_within_its_size() -> None:
    shortlist = named_language_first(RANKED, SearchParams(language="Go"), top=4)
    assert len(shortlist) == 4 and {r.name for r in shortlist} >= {"go0", "go1", "go2"}
    assert named_language_first(RANKED, SearchParams(), top=4) == RANKED[:4]


def test_a_language_covers_its_family() -> None:
    ranked = [repo("scala-web", "Scala"), repo("kotlin-http", "Kotlin"), repo("ruby-web", "Ruby"), repo("coffee", "CoffeeScript")]
    jvm = named_language_first(ranked, SearchParams(language="Java"), top=2)
    assert [r.name for r in jvm] == ["scala-web", "kotlin-http"]  # what runs on the JVM is used from Java
    js = named_language_first(ranked, SearchParams(language="JavaScript"), top=1)
    assert [r.name for r in js] == ["coffee"]


def test_a_repository_with_no_language_of_its_own_is_in_the_one_its_text_names() -> None:
    listed = Repository(full_name="gesellix/docker-client", url="https://github.com/gesellix/docker-client",
                        description="A Docker remote api client library for the JVM, written in Groovy.", language=None)
    unknown = Repository(full_name="o/docker-thing", url="https://github.com/o/docker-thing",
                         description="A Docker remote api client.", language=None)
    ranked = [repo(f"groovy{i}", "Groovy") for i in range(4)] + [unknown, listed]
    params = SearchParams(text="groovy client for the docker api", keywords=["docker", "client"], language="Groovy")
    shortlist = named_language_first(ranked, params, top=5)
    assert "docker-client" in [r.name for r in shortlist] and "docker-thing" not in [r.name for r in shortlist]
