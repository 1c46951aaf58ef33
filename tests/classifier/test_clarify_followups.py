"""After clarifications: lists known only through a question's options, 0th/out of range,
original_intent on referent problems, numbered side-by-side, comparison lists, other code hosts."""

from __future__ import annotations

from core.models import Intent, Message

from .conftest import STATE_LIBS, asked, listed

A, B, C, D, E = STATE_LIBS
OPTIONS = [f"Analyze {name}" for name in STATE_LIBS]


def _two_clarifications() -> list[Message]:
    """find ..., "the sixth one" -> question, "analyze the sixth one" -> question: the list itself
    is out of the 3-message window, the questions' options still name it."""
    return [
        *listed(STATE_LIBS),
        Message(role="user", content="the sixth one"),
        asked("There is no such item: the list has only 5 repositories.", OPTIONS),
        Message(role="user", content="analyze the sixth one"),
        asked("There is no such item: the list has only 5 repositories.", OPTIONS),
    ]


def test_a_list_seen_only_through_a_questions_options_still_resolves(classifier):
    result = classifier.classify_sync("compare all of them", _two_clarifications())
    assert (result.intent, result.repos) == (Intent.COMPARE, STATE_LIBS)
    assert classifier.classify_sync("analyze the second one", _two_clarifications()).repos == [B]


def test_compare_options_name_their_repositories(classifier):
    history = [Message(role="user", content="compare zustand"),
               asked("What should I compare pmndrs/zustand with?",
                     [f"Compare {A} vs {B}", f"Compare {A} vs {C}"])]
    result = classifier.classify_sync("compare the first two", history)
    assert (result.intent, result.repos) == (Intent.COMPARE, [A, B])


def test_without_a_visible_list_the_question_does_not_claim_there_are_no_results(classifier):
    history = [Message(role="user", content="hmm"), asked("Could you tell me a bit more?", []),
               Message(role="user", content="something fast")]
    for message in ("compare all of them", "analyze the second one"):
        question = classifier.classify_sync(message, history).clarify_question or ""
        assert "no earlier results" not in question
        assert "I can't see a list in our last few messages" in question


def test_example_options_are_not_a_list(classifier):
    first = classifier.classify_sync("analyze the second one", [])
    history = [Message(role="user", content="analyze the second one"),
               asked(first.clarify_question or "", first.clarify_options)]
    result = classifier.classify_sync("analyze it", history)
    assert result.intent is Intent.CLARIFY and result.repos == []


def test_the_zeroth_one_is_out_of_range(classifier):
    result = classifier.classify_sync("analyze the 0th one", listed(STATE_LIBS))
    assert (result.intent, result.original_intent) == (Intent.CLARIFY, Intent.ANALYZE)
    assert "start at 1" in (result.clarify_question or "") and "#1 to #5" in (result.clarify_question or "")
    assert result.clarify_options == OPTIONS
    alone = classifier.classify_sync("analyze the 0th one", [])
    assert (alone.intent, alone.original_intent) == (Intent.CLARIFY, Intent.ANALYZE)
    assert "start at 1" in (alone.clarify_question or "")


def test_sixth_of_five_is_a_clear_out_of_range_question(classifier):
    result = classifier.classify_sync("analyze the sixth one", listed(STATE_LIBS))
    assert "only 5" in (result.clarify_question or "") and result.clarify_options == OPTIONS


def test_original_intent_is_the_request_behind_a_missing_referent(classifier):
    for message, intent in (("analyze it", Intent.ANALYZE), ("analyze the second one", Intent.ANALYZE),
                            ("the second one", Intent.ANALYZE), ("compare them", Intent.COMPARE),
                            ("compare the first two", Intent.COMPARE)):
        result = classifier.classify_sync(message, [])
        assert (result.intent, result.original_intent) == (Intent.CLARIFY, intent), message
        assert result.repos == []


def test_an_llm_clarify_gets_the_same_original_intent(classifier):
    result = classifier.decide("analyze the second one", [], intent=Intent.CLARIFY, confidence=0.9, source="llm")
    assert (result.intent, result.original_intent) == (Intent.CLARIFY, Intent.ANALYZE)
    result = classifier.decide("analyze the second one", [], intent=Intent.ANALYZE, confidence=0.9, source="llm")
    assert (result.intent, result.original_intent) == (Intent.CLARIFY, Intent.ANALYZE)


def test_numbered_items_side_by_side(classifier):
    history = listed(STATE_LIBS[:3])
    for message in ("put 1 and 3 side by side", "compare 1 and 3 side by side", "1 and 3 side by side"):
        result = classifier.classify_sync(message, history)
        assert (result.intent, result.repos) == (Intent.COMPARE, [A, C]), message


def test_a_common_word_in_a_list_of_compared_names_is_a_name(classifier):
    for message in ("bun vs deno vs node", "compare bun, deno and node"):
        result = classifier.classify_sync(message, [])
        assert (result.intent, result.repos) == (Intent.COMPARE, ["oven-sh/bun", "denoland/deno", "nodejs/node"])


def test_a_common_word_outside_the_list_stays_a_word(classifier):
    result = classifier.classify_sync("compare bun vs deno for a node app", [])
    assert result.repos == ["oven-sh/bun", "denoland/deno"]


def test_other_code_hosts_get_a_github_only_answer(classifier):
    for message in ("analyze https://gitlab.com/foo/bar", "analyze gitlab.com/foo/bar",
                    "compare https://gitlab.com/a/b vs https://bitbucket.org/c/d"):
        result = classifier.classify_sync(message, [])
        assert result.intent is Intent.CLARIFY, message
        assert "only work with GitHub repositories" in (result.clarify_question or ""), message
        assert result.original_intent in (Intent.ANALYZE, Intent.COMPARE)


def test_a_github_repository_next_to_a_foreign_link_still_works(classifier):
    result = classifier.classify_sync("analyze pmndrs/zustand, not gitlab.com/foo/bar", [])
    assert (result.intent, result.repos) == (Intent.ANALYZE, [A])


def test_with_one_repository_in_view_a_comparison_offers_analysis_or_alternatives() -> None:
    from core.classifier.context import ThreadContext
    from core.classifier.questions import for_problem
    from core.classifier.references import Problem, Resolution

    alone = ThreadContext(data_type="repo_list", referents=("gohugoio/hugo",), focus="gohugoio/hugo")
    question = for_problem(Intent.COMPARE, Resolution(repos=["gohugoio/hugo"], problem=Problem.TOO_FEW), alone)
    assert "nothing to compare gohugoio/hugo with yet" in question.text
    assert question.options == ["Analyze gohugoio/hugo", "Search for alternatives to gohugoio/hugo"]
    two = ThreadContext(data_type="repo_list", referents=("gohugoio/hugo", "jekyll/jekyll"))
    question = for_problem(Intent.COMPARE, Resolution(repos=["gohugoio/hugo"], problem=Problem.TOO_FEW), two)
    assert question.text == "What should I compare gohugoio/hugo with?"
    assert question.options == ["Compare gohugoio/hugo vs jekyll/jekyll"]
