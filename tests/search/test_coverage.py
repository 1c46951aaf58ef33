"""How much of a request, its rarest words weighing most, a candidate's texts speak of: the gate's
``covered`` reading (the closest three together) and a term of each candidate's fit."""

from __future__ import annotations

import math

import pytest

from core.search.coverage import rarities, restricted, share, text_words

RECORDS = 10_000
USERS = {"tool": 1_500, "weather": 40, "forecast": 60, "wax": 0}


def records_using(word: str) -> int:
    return USERS.get(word, 100)


def test_the_words_of_a_text_are_lower_cased_and_stemmed() -> None:
    assert text_words(["Self-hosted Kanban boards", "for C++ and C#"]) == {"self", "hosted", "kanban", "board", "for",
                                                                             "c++", "and", "c#"}


def test_a_word_weighs_by_how_rare_it_is_among_the_repositories() -> None:
    weights = rarities(["Forecasts", "tool", "wax"], records_using, RECORDS)
    assert weights == pytest.approx({"forecast": math.log(RECORDS / 101), "tool": math.log(RECORDS / 1_501),
                                     "wax": math.log(RECORDS)})
    assert rarities(["tool"], lambda word: RECORDS, RECORDS) == {"tool": 0.0}  # every repository says it


def test_a_rare_word_left_unsaid_weighs_more_than_a_common_one() -> None:
    weather = text_words(["A weather forecast tool"])
    assert share(rarities(["weather", "forecast", "tool"], records_using, RECORDS), weather) == pytest.approx(1.0)
    without_the_rare = share(rarities(["weather", "forecast", "wax"], records_using, RECORDS), weather)
    without_the_common = share(rarities(["weather", "forecast", "tool"], records_using, RECORDS),
                               text_words(["weather forecasts"]))
    assert without_the_rare < 0.6 < without_the_common < 1.0


def test_a_request_whose_words_weigh_nothing_is_covered() -> None:
    assert share({}, frozenset()) == 1.0
    assert share({"tool": 0.0}, frozenset()) == 1.0


def test_the_weights_of_some_words_are_read_apart() -> None:
    weights = rarities(["weather", "forecasts", "wax"], records_using, RECORDS)
    assert restricted(weights, ["Forecasts", "wax", "snow"]) == {"forecast": weights["forecast"], "wax": weights["wax"]}
