"""The wording module: the user's request quoted back, counts and articles, never garbled."""

from __future__ import annotations

import pytest

from core.synth.phrases import article, join_words, plural, request_topic, request_words, share_of, with_article


@pytest.mark.parametrize(
    ("request_text", "topic"),
    [
        ("find a static site generator written in Go", "the results for *static site generator written in Go*"),
        ("show me a vector database", "the vector database repositories we found"),
        ("find React state management libraries", "the React state management libraries we found"),
        ("React state management", "the React state management repositories we found"),
        ("can you find me some good rust web frameworks?", "the rust web frameworks we found"),
        ("find", "the results we found"),
    ],
)
def test_a_follow_up_quotes_the_request_without_garbling_it(request_text: str, topic: str) -> None:
    assert request_topic(request_text) == topic
    assert "the a " not in topic and "the me " not in topic


def test_request_words_drop_the_verbs_and_articles() -> None:
    assert request_words("show me a vector database") == "vector database"
    assert request_words("I need an HTTP client for Python") == "HTTP client for Python"


@pytest.mark.parametrize(
    ("matching", "total", "text"),
    [
        (0, 10, "None of these 10 results are in Go"),
        (1, 10, "Only 1 of these 10 results is in Go"),
        (3, 10, "Only 3 of these 10 results are in Go"),
        (10, 10, "All 10 results are in Go"),
    ],
)
def test_shares_never_say_only_zero(matching: int, total: int, text: str) -> None:
    assert share_of(matching, total, "results", "are in Go") == text


def test_a_share_of_a_condition_with_a_plain_verb() -> None:
    assert share_of(1, 4, "results", "mention offline") == "Only 1 of these 4 results mentions offline"


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("HTML project", "an HTML project"), ("Go project", "a Go project"), ("API", "an API"),
        ("URL", "a URL"), ("SQL client", "an SQL client"), ("Elixir project", "an Elixir project"),
        ("hour", "an hour"), ("unicorn", "a unicorn"), ("user interface", "a user interface"),
        ("8-bit emulator", "an 8-bit emulator"), ("Rust project", "a Rust project"),
        ("OCaml project", "an OCaml project"), ("R project", "an R project"),
    ],
)
def test_articles_follow_the_sound(phrase: str, expected: str) -> None:
    assert with_article(phrase) == expected


def test_counts_and_lists() -> None:
    assert plural(1, "commit") == "1 commit"
    assert plural(1204, "star") == "1,204 stars"
    assert plural(2, "repository", "repositories") == "2 repositories"
    assert join_words(["a"]) == "a" and join_words(["a", "b", "c"], "or") == "a, b or c"
    assert article("") == "a"
