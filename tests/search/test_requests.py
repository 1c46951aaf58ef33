"""'More' and 'alternatives to X' requests."""

from __future__ import annotations

from core.models import Repository
from core.search.requests import alternatives_target, is_more_request, params_like
from core.search.translator import RuleBasedTranslator


def test_more_requests() -> None:
    for text in ("Show me more results", "more", "more please", "show more", "next", "any other ones?", "more like these"):
        assert is_more_request(text), text
    for text in ("more popular ones", "show me more rust libraries", "moreover"):
        assert not is_more_request(text), text


def test_alternatives_target() -> None:
    assert alternatives_target("alternatives to pmndrs/zustand") == "pmndrs/zustand"
    assert alternatives_target("similar to https://github.com/fastapi/fastapi.") == "fastapi/fastapi"
    assert alternatives_target("something like django but in go", ["django/django"]) == "django/django"
    assert alternatives_target("a logbook on my own server instead of desktop software") is None  # a kind
    assert alternatives_target("libraries like zustand") == "zustand"
    assert alternatives_target("python web frameworks") is None
    # the named tools' counterpart for something else: a search of its own, not X's language
    assert alternatives_target("i want something like netcat or curl but for websockets") is None
    assert alternatives_target("something like htop, but for GPUs") is None
    # a language swapped for another is no repository to find alternatives to
    assert alternatives_target("want to write a native addon, but in rust instead of c++. bindings?") is None
    assert alternatives_target("alternatives to node.js") == "node.js"


def test_params_like_uses_the_description_topics_and_language() -> None:
    repo = Repository(full_name="pmndrs/zustand", description="🐻 Bear necessities for state management in React",
                      language="TypeScript", topics=["hooks", "state"])
    p = params_like(repo, RuleBasedTranslator(), "alternatives to zustand")
    assert p.keywords == ["react"] and p.language == "TypeScript"
    assert ["hooks", "state"] in p.synonym_groups
    assert any("state management" in g for g in p.synonym_groups)
    python = params_like(repo, RuleBasedTranslator(), "alternatives to zustand in python under 1k stars")
    assert python.language == "Python" and python.max_stars == 1000


def test_bare_alternatives_requests() -> None:
    from core.search.requests import is_bare_alternatives_request

    for text in ("show me alternatives", "alternatives?", "any alternatives to it?", "similar ones", "something similar"):
        assert is_bare_alternatives_request(text), text
    assert not is_bare_alternatives_request("alternatives to redux")
