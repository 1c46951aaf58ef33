"""Goals as users type them: flags, empty and nonsense input, very long goals."""

from __future__ import annotations

import pytest

from core.research.goal import InvalidGoal, parse_mode, read_goal, split_mode_flags
from core.models.research import ResearchMode


@pytest.mark.parametrize("raw", ["", "   ", "\n\t", None, '""', "--deep", "\x00\x01"])
def test_empty_goals_are_a_validation_error(raw: str | None) -> None:
    with pytest.raises(InvalidGoal) as caught:
        read_goal(raw)
    assert caught.value.code == "empty_goal"
    assert "for example" in caught.value.user_message


@pytest.mark.parametrize("raw", ["asdfghjkl", "qwrtzp xkcdvbn", "!!!???", "aaaaaaa", "🙂🙂🙂", "x", "asdfgh qwrtzx", "a b c"])
def test_nonsense_goals_ask_for_clarification(raw: str) -> None:
    with pytest.raises(InvalidGoal) as caught:
        read_goal(raw)
    assert caught.value.code == "unclear_goal"


@pytest.mark.parametrize("raw", ["Weather in Seoul", "AI ethics", "서울 날씨", "LLM CI tools", "Rust 1.80 release", "property testing", "C compilers"])
def test_real_goals_pass(raw: str) -> None:
    assert read_goal(raw).text == raw


def test_flags_are_removed_and_the_last_one_wins() -> None:
    assert split_mode_flags("React state --quick") == ("React state", ResearchMode.QUICK_SCAN)
    assert split_mode_flags("--quick React --deep") == ("React", ResearchMode.DEEP_PROBE)
    assert read_goal("impact of AI —deep").mode_flag is ResearchMode.DEEP_PROBE
    assert read_goal("a well-known --quickly thing").mode_flag is None


@pytest.mark.parametrize(("value", "mode"), [("quick", ResearchMode.QUICK_SCAN), ("deep_probe", ResearchMode.DEEP_PROBE),
                                             ("--deep", ResearchMode.DEEP_PROBE), ("", None), ("auto", None), (None, None)])
def test_parse_mode(value: str | None, mode: ResearchMode | None) -> None:
    assert parse_mode(value) is mode


def test_unknown_mode_is_a_clear_error() -> None:
    with pytest.raises(InvalidGoal) as caught:
        parse_mode("medium")
    assert caught.value.code == "invalid_mode"


def test_an_extremely_long_goal_is_condensed_before_analysis() -> None:
    first = "Evaluate the trade-offs of Rust async runtimes for a high-throughput web service."
    raw = first + " " + "Some more background about our team and infrastructure. " * 2000
    goal = read_goal(raw, max_chars=300)
    assert goal.truncated and len(goal.text) <= 300
    assert goal.text.startswith(first)
    assert goal.original_chars > 100_000
    assert goal.notes and "long" in goal.notes[0]


def test_a_long_goal_without_sentences_is_cut_at_a_word() -> None:
    goal = read_goal("word " * 1000, max_chars=100)
    assert goal.truncated and len(goal.text) <= 100 and goal.text.endswith("…")
