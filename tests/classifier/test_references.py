"""Deterministic reference resolution: every form, out of range, and no referent."""

from __future__ import annotations

import pytest

from core.classifier import Problem, ReferenceResolver, build_context
from core.classifier.mentions import MentionFinder
from core.classifier.vocabulary import Vocabulary
from core.models import Intent

from .conftest import STATE_LIBS, asked, compared, detailed, listed

A, B, C, D, E = STATE_LIBS


@pytest.fixture
def resolver(names) -> ReferenceResolver:
    return ReferenceResolver(MentionFinder(Vocabulary(common=frozenset({"state", "library"})), names))


def resolve(resolver, message, history, intent=Intent.ANALYZE):
    return resolver.resolve(message, build_context(history), intent)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("the second one", [B]),
        ("analyze the 2nd", [B]),
        ("#2", [B]),
        ("number 4", [D]),
        ("no. 3 please", [C]),
        ("4", [D]),
        ("the fourth repo", [D]),
        ("the last one", [E]),
        ("the second to last", [D]),
        ("analyze the top one", [A]),
        ("tell me more about jotai", [D]),
        ("pmndrs/jotai", [D]),
        ("https://github.com/reduxjs/redux", [B]),
        ("is MobX still maintained?", [C]),
    ],
)
def test_singular_references_after_a_list(resolver, message, expected):
    result = resolve(resolver, message, listed(STATE_LIBS))
    assert result.problem is None, result.detail
    assert result.repos == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("compare the first two", [A, B]),
        ("compare the top 3", [A, B, C]),
        ("compare the last two", [D, E]),
        ("compare #1 and #3", [A, C]),
        ("1 vs 2", [A, B]),
        ("compare 2, 3 and 5", [B, C, E]),
        ("compare the second and the fourth", [B, D]),
        ("compare all of them", STATE_LIBS),
        ("compare them", STATE_LIBS),
        ("which one should I pick?", STATE_LIBS),
        ("how does zustand compare to the others?", [A, B, C, D, E]),
        ("redux vs the first one", [B, A]),
        ("jotai vs zustand", [D, A]),
    ],
)
def test_plural_references_after_a_list(resolver, message, expected):
    result = resolve(resolver, message, listed(STATE_LIBS), Intent.COMPARE)
    assert result.problem is None, result.detail
    assert result.repos == expected


def test_both_means_the_two_listed(resolver):
    assert resolve(resolver, "compare both", compared([A, B]), Intent.COMPARE).repos == [A, B]
    assert resolve(resolver, "compare both", listed(STATE_LIBS), Intent.COMPARE).problem is Problem.AMBIGUOUS


@pytest.mark.parametrize("message", ["is it maintained?", "analyze that one", "tell me more about this repo", "tell me more"])
def test_pronouns_and_implicit_targets_follow_the_repository_in_focus(resolver, message):
    assert resolve(resolver, message, detailed(A)).repos == [A]


def test_a_pronoun_is_ambiguous_after_a_list(resolver):
    result = resolve(resolver, "is it maintained?", listed(STATE_LIBS))
    assert result.problem is Problem.AMBIGUOUS


def test_out_of_range(resolver):
    result = resolve(resolver, "the sixth one", listed(STATE_LIBS))
    assert result.problem is Problem.OUT_OF_RANGE
    assert "5" in result.detail
    assert resolve(resolver, "compare the first three", listed([A, B]), Intent.COMPARE).problem is Problem.OUT_OF_RANGE


@pytest.mark.parametrize("message", ["the second one", "analyze it", "compare the first two", "all of them"])
def test_no_referent(resolver, message):
    assert resolve(resolver, message, []).problem is Problem.NO_REFERENT


def test_bare_names_come_from_the_last_results_first_then_the_index(resolver):
    # the index ranks pmndrs/zustand first; a listed someone/zustand wins in that thread
    assert resolve(resolver, "analyze zustand", listed(["someone/zustand"])).repos == ["someone/zustand"]
    assert resolve(resolver, "analyze zustand", []).repos == [A]
    assert resolve(resolver, "is next.js healthy?", []).repos == ["vercel/next.js"]
    assert resolve(resolver, "moment.js any good?", []).repos == ["moment/moment"]


def test_compare_with_one_name_uses_the_repository_in_focus(resolver):
    assert resolve(resolver, "compare it with redux", detailed(A), Intent.COMPARE).repos == [A, B]
    assert resolve(resolver, "vs jotai?", detailed(A), Intent.COMPARE).repos == [A, D]


def test_compare_with_too_few(resolver):
    assert resolve(resolver, "compare redux", listed(STATE_LIBS), Intent.COMPARE).problem is Problem.TOO_FEW
    assert resolve(resolver, "compare stuff", [], Intent.COMPARE).problem is Problem.TOO_FEW


def test_adding_to_a_comparison(resolver):
    assert resolve(resolver, "add jotai to the comparison", compared([A, B]), Intent.COMPARE).repos == [A, B, D]


def test_analyze_without_target(resolver):
    assert resolve(resolver, "analyze", []).problem is Problem.NO_TARGET
    assert resolve(resolver, "analyze", listed(STATE_LIBS)).problem is Problem.AMBIGUOUS


def test_answers_to_a_clarifying_question_count_over_the_results_before_it(resolver):
    history = [*listed(STATE_LIBS), asked("Which one should I analyze?")]
    assert resolve(resolver, "the third", history).repos == [C]
    with_options = [*listed(STATE_LIBS), asked("Which one?", ["mobxjs/mobx", "pmndrs/jotai"])]
    assert resolve(resolver, "the second one", with_options).repos == [D]


def test_searches_keep_only_explicit_names(resolver):
    result = resolve(resolver, "alternatives to pmndrs/zustand like jotai", [], Intent.SEARCH)
    assert result.repos == [A]


# -- through the classifier: the user-facing clarification ---------------------------------------


def test_out_of_range_becomes_a_helpful_clarification(classifier):
    result = classifier.classify_sync("the sixth one", listed(STATE_LIBS))
    assert result.intent is Intent.CLARIFY
    assert result.original_intent is Intent.ANALYZE
    assert "5" in result.clarify_question
    assert result.clarify_options == [f"Analyze {name}" for name in STATE_LIBS]


def test_no_referent_becomes_a_clarification(classifier):
    result = classifier.classify_sync("analyze the 2nd", [])
    assert result.intent is Intent.CLARIFY
    assert result.original_intent is Intent.ANALYZE
    assert result.repos == []
    assert result.clarify_question


def test_analyze_with_no_target_asks_which_repository(classifier):
    result = classifier.classify_sync("analyze", [])
    assert result.intent is Intent.CLARIFY
    assert "Which repository" in (result.clarify_question or "") or result.clarify_options


@pytest.mark.parametrize(
    ("message", "intent", "repos"),
    [
        ("the second one", Intent.ANALYZE, [B]),
        ("analyze the 2nd", Intent.ANALYZE, [B]),
        ("#3", Intent.ANALYZE, [C]),
        ("number 4", Intent.ANALYZE, [D]),
        ("the last one", Intent.ANALYZE, [E]),
        ("compare the first two", Intent.COMPARE, [A, B]),
        ("compare all of them", Intent.COMPARE, STATE_LIBS),
    ],
)
def test_references_through_the_classifier(classifier, message, intent, repos):
    result = classifier.classify_sync(message, listed(STATE_LIBS))
    assert (result.intent, result.repos) == (intent, repos)


def test_after_analyzing_one_result_ordinals_still_count_over_the_search(classifier, resolver):
    history = [*listed(STATE_LIBS), *detailed(B)][-3:]  # list, "analyze reduxjs/redux", the analysis
    assert resolve(resolver, "compare the first two", history, Intent.COMPARE).repos == [A, B]
    assert resolve(resolver, "the third one", history).repos == [C]
    assert resolve(resolver, "tell me more", history).repos == [B]
    assert resolve(resolver, "compare it with the first", history, Intent.COMPARE).repos == [B, A]
    result = classifier.classify_sync("compare the first two", history)
    assert (result.intent, result.repos) == (Intent.COMPARE, [A, B])


def test_every_clarification_option_works_when_sent_back(classifier):
    from core.models import Clarification, Message

    history = listed(STATE_LIBS)
    for message, intent in (("tell me more", Intent.ANALYZE), ("compare both", Intent.COMPARE)):
        question = classifier.classify_sync(message, history)
        assert question.intent is Intent.CLARIFY and question.clarify_options
        asked_back = [*history, Message(role="user", content=message), Message(
            role="assistant", content=question.clarify_question or "",
            structured_data=Clarification(question=question.clarify_question or "", options=question.clarify_options))]
        for option in question.clarify_options:
            answer = classifier.classify_sync(option, asked_back)
            assert answer.intent is intent, (option, answer.reasoning)
            assert answer.repos and all(r in STATE_LIBS for r in answer.repos)
