"""The Clarifier: one question plus options, from the classifier or from the context."""

from __future__ import annotations

from core.agents.clarifier import FALLBACK_QUESTION, Clarifier
from core.models import Clarification, Intent
from tests.synth.contexts import agent_context
from tests.synth.factories import repo_list


async def clarify(message: str, **kwargs: object) -> Clarification:
    result = await Clarifier().run(agent_context(message, intent=Intent.CLARIFY, **kwargs))
    assert isinstance(result.data, Clarification)
    return result.data


async def test_classifier_question_and_options_win() -> None:
    names = ["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai", "mobxjs/mobx", "vuejs/pinia"]
    data = await clarify("the sixth one", previous=repo_list(5), original_intent=Intent.ANALYZE,
                         clarify_question="I only found 5 repositories. Which one do you mean?",
                         clarify_options=names)
    assert data.question == "I only found 5 repositories. Which one do you mean?"
    assert data.options == names


async def test_llm_timeout_fallback_question_is_exact() -> None:
    data = await clarify("qwerty asdf", source="fallback", original_intent=Intent.SEARCH)
    assert data.question == FALLBACK_QUESTION == "I'm having trouble understanding. Could you rephrase?"
    assert "What can you do?" in data.options


async def test_low_confidence_search() -> None:
    data = await clarify("stuff for my app", original_intent=Intent.SEARCH)
    assert data.question == "What kind of repositories are you looking for?"
    assert data.options[0] == "Find React state management libraries" and len(data.options) == 3


async def test_low_confidence_search_after_results() -> None:
    data = await clarify("something else", original_intent=Intent.SEARCH, previous=repo_list(3))
    assert data.options[:2] == ["Show me more results", "Refine search: TypeScript"]


async def test_tell_me_more_without_context() -> None:
    data = await clarify("tell me more")
    assert data.question == "I'm not sure what you'd like to know more about. What are you looking for?"
    assert data.options == ["Find React state management libraries", "What can you do?"]


async def test_tell_me_more_after_results_offers_the_results() -> None:
    data = await clarify("tell me more", previous=repo_list(5))
    assert data.question == "Which of these would you like to know more about?"
    assert data.options == ["Analyze pmndrs/zustand", "Analyze reduxjs/redux", "Analyze pmndrs/jotai",
                            "Show me more results"]


async def test_out_of_range_reference_without_classifier_options() -> None:
    data = await clarify("analyze the ninth one", previous=repo_list(3), original_intent=Intent.ANALYZE)
    assert data.question.startswith("I showed 3 results last time, so I'm not sure which one you mean.")
    assert data.options == ["Analyze pmndrs/zustand", "Analyze reduxjs/redux", "Analyze pmndrs/jotai"]


async def test_unsure_analyze_without_context() -> None:
    data = await clarify("look at it", original_intent=Intent.ANALYZE)
    assert "owner/name" in data.question and data.options[0] == "Analyze pmndrs/zustand"


async def test_ambiguous_name_lists_the_candidates() -> None:
    data = await clarify("analyze react", original_intent=Intent.ANALYZE,
                         repos=["facebook/react", "reactjs/react.dev"])
    assert data.question == "Several repositories match that name. Which one do you mean?"
    assert data.options == ["Analyze facebook/react", "Analyze reactjs/react.dev"]


async def test_unsure_compare_offers_pairs_from_the_results() -> None:
    data = await clarify("compare them", original_intent=Intent.COMPARE, previous=repo_list(3))
    assert data.question == "Which repositories would you like me to compare?"
    assert data.options == ["Compare pmndrs/zustand vs reduxjs/redux", "Compare pmndrs/zustand vs pmndrs/jotai",
                            "Compare reduxjs/redux vs pmndrs/jotai"]


async def test_unsure_chat() -> None:
    data = await clarify("hmm well", original_intent=Intent.CHAT)
    assert data.question == "Could you tell me a bit more about what you need?"
