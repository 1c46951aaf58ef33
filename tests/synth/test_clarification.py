"""clarification summaries: acknowledgement, question, options; suggestions = options + new search."""

from __future__ import annotations

from core.models import Clarification, Intent
from tests.synth.factories import clarification, repo_list

CLARIFY = {"intent": Intent.CLARIFY, "message": "the sixth one"}


def test_acknowledges_then_asks_with_options(run) -> None:
    out = run(clarification(), **CLARIFY)
    assert out.markdown == (
        "I want to make sure I get this right.\n\n"
        "**Which repository do you mean?**\n\n"
        "- pmndrs/zustand\n- reduxjs/redux\n- pmndrs/jotai\n\n"
        "Pick one of these, or tell me in your own words."
    )


def test_suggestions_are_the_options_then_a_new_search(run) -> None:
    out = run(clarification(), **CLARIFY)
    assert out.suggestions == ["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai", "Start a new search"]


def test_question_that_already_admits_confusion_is_not_doubled(run) -> None:
    data = Clarification(question="I'm having trouble understanding. Could you rephrase?", options=[])
    out = run(data, **CLARIFY)
    assert out.markdown == "**I'm having trouble understanding. Could you rephrase?**"
    assert out.suggestions == ["Start a new search"]


def test_answer_after_a_clarification_thanks_the_user(run) -> None:
    out = run(repo_list(3), message="zustand", previous=clarification())
    assert out.markdown.startswith("_Thanks for clarifying._")
    out = run(repo_list(3), message="pmndrs/zustand", previous=clarification())
    assert out.markdown.startswith("_Thanks for clarifying._")


def test_unrelated_message_after_a_clarification_is_not_thanked(run) -> None:
    out = run(repo_list(3), message="find rust web frameworks", previous=clarification())
    assert "Thanks for clarifying" not in out.markdown
