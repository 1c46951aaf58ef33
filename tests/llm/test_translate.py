"""The LLM query translator, with the rule-based translator as its fallback."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import LLMBadOutput, LLMTimeout
from core.llm import FunctionModel
from core.llm.openai_compat import OpenAICompatModel
from core.search.llm_translator import LLMQueryTranslator, normalise_language
from core.models import SearchParams
from core.search.translator import RuleBasedTranslator
from tests.fakes.openai_server import FakeOpenAIServer
from tests.llm.conftest import Sleeps, make_client

TODAY = date(2026, 3, 1)


async def test_translation_through_deepseek_fake() -> None:
    answer = {"keywords": ["state", "React"], "synonym_groups": [["state management", "store"]],
              "language": "typescript", "min_stars": 1000, "sort": "stars", "limit": 5,
              "pushed_after": "2025-03-01", "refines_previous": False}
    async with FakeOpenAIServer() as server:
        server.push_json(answer, input_tokens=300, output_tokens=60)
        client = make_client(OpenAICompatModel(api_key="k-test", base_url=server.base_url),
                             sleeps=Sleeps())
        params = await LLMQueryTranslator(client, today=lambda: TODAY).translate(
            "popular typescript react state libraries, top 5", None)
        await client.aclose()
    assert params.keywords == ["state", "react"] and params.language == "TypeScript"
    assert (params.min_stars, params.sort, params.limit) == (1000, "stars", 5)
    assert params.pushed_after == date(2025, 3, 1)
    assert params.text == "popular typescript react state libraries, top 5"
    system_prompt = server.requests[0]["messages"][0]["content"]
    assert "Today is 2026-03-01" in system_prompt


async def test_follow_up_sees_previous_and_keeps_its_text() -> None:
    previous = SearchParams(text="react state libraries", keywords=["react", "state"], limit=7)
    model = FunctionModel.script({"keywords": ["react", "state"], "language": "Python",
                                  "refines_previous": True})
    translator = LLMQueryTranslator(make_client(model, sleeps=Sleeps()), today=lambda: TODAY)
    params = await translator.translate("what about Python?", previous)
    assert params.text == "react state libraries -> what about Python?"
    assert params.language == "Python" and params.limit == 7
    assert '"keywords":["react","state"]' in model.calls[0].messages[1].content


async def test_a_choice_of_languages_the_model_answers_with_one_of_keeps_the_other() -> None:
    model = FunctionModel.script({"keywords": ["rate", "limiter"], "language": "go", "refines_previous": False})
    translator = LLMQueryTranslator(make_client(model, sleeps=Sleeps()), today=lambda: TODAY)
    params = await translator.translate("a rate limiter library in go or rust", None)
    assert params.languages == ("Go", "Rust")


async def test_failure_and_empty_answers_use_the_rules() -> None:
    model = FunctionModel.script(LLMTimeout(), {"keywords": [], "refines_previous": False})
    translator = LLMQueryTranslator(make_client(model, sleeps=Sleeps()), today=lambda: TODAY,
                                    fallback=RuleBasedTranslator(lambda: TODAY))
    first = await translator.translate("find rust web frameworks", None)
    second = await translator.translate("find rust web frameworks", None)
    assert first.language == "Rust" and first == second
    assert translator.client.metrics.count("translate", "empty") == 1


async def test_without_a_fallback_the_error_reaches_the_search_team() -> None:
    model = FunctionModel.script({"keywords": []})
    translator = LLMQueryTranslator(make_client(model, sleeps=Sleeps()))
    with pytest.raises(LLMBadOutput):
        await translator.translate("find rust web frameworks", None)


def test_normalise_language() -> None:
    assert normalise_language("golang") == "Go"
    assert normalise_language("c++") in ("C++",)
    assert normalise_language("any") is None and normalise_language(None) is None
    assert normalise_language("Zig") == "Zig"


async def test_the_llm_rewrite_of_a_spoken_request_is_what_the_ranking_embeds() -> None:
    from core.agents.base import AgentContext
    from core.agents.search import SearchTeam
    from core.catalog import Catalog
    from core.models import Classification, Conversation, ConversationKey, Intent, RepoList
    from core.search.fit import semantic_query

    spoken = "the thing we pay for every month to talk to each other is too expensive, what could we run ourselves?"
    answer = {"need": "self-hosted team chat server", "keywords": ["team", "chat"], "refines_previous": False}
    model = FunctionModel.script(answer, answer)  # the translation here, then the Search Team's
    translator = LLMQueryTranslator(make_client(model, sleeps=Sleeps()), today=lambda: TODAY)
    params = await translator.translate(spoken, None)
    assert params.need == "self-hosted team chat server" and params.text == spoken
    assert semantic_query(params) == "self-hosted team chat server"

    team = SearchTeam(Catalog.load().source(), translator)
    ctx = AgentContext(message=spoken, classification=Classification(intent=Intent.SEARCH, confidence=1.0),
                       conversation=Conversation(id="c", key=ConversationKey(platform="t", channel="c", thread="1")))
    result = await team.run(ctx)
    assert isinstance(result.data, RepoList)
    names = [item.full_name for item in result.data.items]
    assert {"mattermost/mattermost", "RocketChat/Rocket.Chat", "zulip/zulip"} & set(names)
