"""The gate's ``covered`` reading: how much of a request, its rarest words weighing most, the
closest candidates' texts speak of."""

from __future__ import annotations

import pytest

from core.search.coverage import covered, text_words

RECORDS = 10_000
USERS = {"tool": 1_500, "weather": 40, "forecast": 60, "wax": 0}


def records_using(word: str) -> int:
    return USERS.get(word, 100)


def test_the_words_of_a_text_are_lower_cased_and_stemmed() -> None:
    assert text_words(["Self-hosted Kanban boards", "for C++ and C#"]) == {"self", "hosted", "kanban", "board", "for",
                                                                             "c++", "and", "c#"}


def test_a_rare_word_left_unsaid_weighs_more_than_a_common_one() -> None:
    weather = text_words(["A weather forecast tool"])
    assert covered(["weather", "forecast", "tool"], [weather], records_using, RECORDS) == pytest.approx(1.0)
    without_the_rare = covered(["weather", "forecast", "wax"], [weather], records_using, RECORDS)
    without_the_common = covered(["weather", "forecast", "tool"], [text_words(["weather forecasts"])], records_using, RECORDS)
    assert without_the_rare < 0.6 < without_the_common < 1.0


def test_any_of_the_closest_candidates_may_say_a_word() -> None:
    spoken = [text_words(["weather station"]), text_words(["ski wax picker"])]
    assert covered(["weather", "wax"], spoken, records_using, RECORDS) == pytest.approx(1.0)
    assert covered(["weather", "wax"], spoken[:1], records_using, RECORDS) < 0.5


def test_a_request_with_no_telling_words_is_covered() -> None:
    assert covered([], [frozenset()], records_using, RECORDS) == 1.0
    assert covered(["tool"], [frozenset()], lambda word: RECORDS, RECORDS) == 1.0  # every repository says it
