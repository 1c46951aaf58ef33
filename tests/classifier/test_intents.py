"""The local model on typical messages, with and without a thread before them."""

from __future__ import annotations

import pytest

from core.models import Intent

from .conftest import STATE_LIBS, compared, detailed, listed

FRESH = [
    ("find react state management libraries", Intent.SEARCH),
    ("whats the best rust web framework", Intent.SEARCH),
    ("any alternatives to moment.js?", Intent.SEARCH),
    ("show me Python ML tools", Intent.SEARCH),
    ("i need a good orm for node", Intent.SEARCH),
    ("is zustand any good?", Intent.ANALYZE),
    ("how healthy is fastapi", Intent.ANALYZE),
    ("analyze facebook/react", Intent.ANALYZE),
    ("deep dive into next.js", Intent.ANALYZE),
    ("redux or zustand for a small app?", Intent.COMPARE),
    ("compare Redux vs Zustand", Intent.COMPARE),
    ("differences between flask and django", Intent.COMPARE),
    ("thx!", Intent.CHAT),
    ("thanks, that's helpful", Intent.CHAT),
    ("hello", Intent.CHAT),
    ("what can you do?", Intent.CHAT),
    ("tell me more", Intent.CLARIFY),
    ("something else", Intent.CLARIFY),
    ("hmm", Intent.CLARIFY),
    ("what about Python?", Intent.CLARIFY),
    ("the second one", Intent.CLARIFY),
]


@pytest.mark.parametrize(("message", "expected"), FRESH)
def test_first_message(classifier, message, expected):
    assert classifier.classify_sync(message, []).intent is expected


def test_a_search_follow_up_stays_a_search(classifier):
    result = classifier.classify_sync("what about Python?", listed(STATE_LIBS))
    assert result.intent is Intent.SEARCH
    assert result.repos == []


def test_a_new_platform_after_a_search_is_the_same_search_there(classifier):
    assert classifier.classify_sync("what about vue instead?", listed(STATE_LIBS)).intent is Intent.SEARCH


def test_a_listed_name_after_a_search_is_that_repository(classifier):
    result = classifier.classify_sync("what about jotai?", listed(STATE_LIBS))
    assert (result.intent, result.repos) == (Intent.ANALYZE, ["pmndrs/jotai"])


@pytest.mark.parametrize("history", [[], listed(STATE_LIBS), detailed("pmndrs/zustand"), compared(STATE_LIBS[:2])])
def test_thanks_is_chat_in_any_context(classifier, history):
    assert classifier.classify_sync("thanks!", history).intent is Intent.CHAT


def test_tell_me_more_after_an_analysis_continues_it(classifier):
    result = classifier.classify_sync("tell me more", detailed("pmndrs/zustand"))
    assert (result.intent, result.repos) == (Intent.ANALYZE, ["pmndrs/zustand"])


def test_tell_me_more_after_a_list_asks_which_one(classifier):
    result = classifier.classify_sync("tell me more", listed(STATE_LIBS))
    assert result.intent is Intent.CLARIFY
    assert result.original_intent is Intent.ANALYZE
    assert result.clarify_options == [f"Analyze {name}" for name in STATE_LIBS]


def test_tell_me_more_without_context_asks_for_details(classifier):
    result = classifier.classify_sync("tell me more", [])
    assert result.intent is Intent.CLARIFY
    assert result.clarify_question and result.clarify_options


def test_something_else_after_results_is_clarify(classifier):
    assert classifier.classify_sync("something else", listed(STATE_LIBS)).intent is Intent.CLARIFY


def test_which_is_better_after_a_comparison_stays_a_comparison(classifier):
    result = classifier.classify_sync("which one wins?", compared(["reduxjs/redux", "pmndrs/zustand"]))
    assert (result.intent, result.repos) == (Intent.COMPARE, ["reduxjs/redux", "pmndrs/zustand"])


async def test_classify_is_the_async_contract(classifier):
    result = await classifier.classify("is zustand any good?", [])
    assert result.intent is Intent.ANALYZE
    assert result.repos == ["pmndrs/zustand"]
    assert result.source == "local"
    assert "zustand" in result.reasoning


def test_only_the_last_three_messages_count(classifier):
    old = listed(STATE_LIBS)
    history = old + [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "Hi!"},
        {"role": "user", "content": "how are you"},
    ]
    from core.models import Message

    history = [m if isinstance(m, Message) else Message(**m) for m in history]
    result = classifier.classify_sync("the second one", history)
    assert result.intent is Intent.CLARIFY  # the list is 4 messages back: out of the window


KINDS_OF_SOFTWARE = [
    "S3 compatible object storage server",
    "single sign-on and OAuth identity server",
    "host my own git server with code review",
    "a wiki I can run on my own box",
    "I need to self-host our password manager",
]


@pytest.mark.parametrize("message", KINDS_OF_SOFTWARE)
def test_a_kind_of_software_is_a_search_not_an_analysis(classifier, message):
    result = classifier.classify_sync(message, [])
    assert result.intent is Intent.SEARCH, result.reasoning
    assert result.repos == []  # "server" and "git" inside a description are not repository names


def test_a_description_without_a_target_cannot_be_an_analysis(classifier):
    verdict = classifier.predict("email server with spam filtering and webmail")
    assert verdict.probabilities[Intent.ANALYZE] == 0.0 and verdict.probabilities[Intent.COMPARE] == 0.0
    assert verdict.intent is Intent.SEARCH


def test_names_that_are_also_words_still_resolve_when_asked_for(classifier):
    assert classifier.classify_sync("analyze nextcloud", []).repos == ["nextcloud/server"]
    assert classifier.classify_sync("analyze MariaDB/server", []).repos == ["MariaDB/server"]
    assert classifier.classify_sync("analyze rich", []).repos == ["Textualize/rich"]


# Requests for software worded the way people talk: a wish, a problem, "like X but ...".
CONVERSATIONAL_NEEDS = [
    "I need something that tells me when my website goes down",
    "how do I get a nice git in the terminal without memorising all the commands",
    "help me replace heroku with something I can run on a cheap VPS",
    "our logs are all over the place, I want one spot to search them",
    "what do people use to keep their laptops backed up?",
    # "anyone know a ..." with a hedge on quality
    "anyone know a nes emulator that's actually usable?",
    "a gameboy emulator that's actually accurate",
]
# ... where a repository's name stands for the kind of software wanted, not the target
NEEDS_NAMING_A_YARDSTICK = [
    "I want google analytics without all the creepy tracking",
    "I want a nicer htop",
    "redux feels way too heavy for my react app, what else is there",
]


@pytest.mark.parametrize("message", CONVERSATIONAL_NEEDS + NEEDS_NAMING_A_YARDSTICK)
def test_a_conversational_request_for_software_is_a_search(classifier, message):
    result = classifier.classify_sync(message, [])
    assert result.intent is Intent.SEARCH, result.reasoning
    assert result.repos == []  # "analytics", "htop", "redux" here are no repository to analyse


@pytest.mark.parametrize(
    ("message", "intent", "repos"),
    [
        ("is htop any good?", Intent.ANALYZE, ["htop-dev/htop"]),
        ("analyze redux", Intent.ANALYZE, ["reduxjs/redux"]),
        ("why do people like tmux so much?", Intent.ANALYZE, ["tmux/tmux"]),
        ("is plausible actively maintained?", Intent.ANALYZE, ["plausible/analytics"]),
        ("redux vs zustand", Intent.COMPARE, ["reduxjs/redux", "pmndrs/zustand"]),
        ("tell me more", Intent.CLARIFY, []),
        ("is there a tool for it?", Intent.CLARIFY, []),
        ("hi there", Intent.CHAT, []),
    ],
)
def test_asking_about_a_named_repository_is_not_a_search(classifier, message, intent, repos):
    result = classifier.classify_sync(message, [])
    assert (result.intent, result.repos) == (intent, repos), result.reasoning


def test_a_platform_after_with_is_the_setting_of_an_analysis_not_a_second_target(classifier):
    history = detailed("pmndrs/zustand")
    for message in ("does it work with react native?", "is it any good for next.js?", "does it support svelte?"):
        result = classifier.classify_sync(message, history)
        assert (result.intent, result.repos) == (Intent.ANALYZE, ["pmndrs/zustand"]), message
    assert classifier.classify_sync("analyze vue", history).repos == ["vuejs/vue"]
