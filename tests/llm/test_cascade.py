"""The classifier cascade: local when confident, the LLM when not, cache, and every fallback."""

from __future__ import annotations

import json

import pytest
from collections.abc import Sequence

from core.errors import LLMUnavailable
from core.llm import Delay, FunctionModel
from core.llm.openai_compat import OpenAICompatModel
from core.classifier import LocalVerdict, build_context
from core.classifier.cascade import FALLBACK_QUESTION, CascadeClassifier, cache_key, render_context
from core.models import Classification, Intent, Message, RepoList, ScoredRepository
from tests.fakes.openai_server import FakeOpenAIServer
from tests.llm.conftest import Sleeps, make_client


class FakeLocal:
    """The local classifier's two seams (predict / decide), scripted per message."""

    def __init__(self, verdicts: dict[str, tuple[Intent, float, float]]) -> None:
        self.verdicts = verdicts

    def predict(self, message: str, history: Sequence[Message] = ()) -> LocalVerdict:
        intent, confidence, margin = self.verdicts[" ".join(message.lower().split())]
        return LocalVerdict({intent: confidence}, intent, confidence, Intent.CLARIFY, margin,
                            build_context(history), (), 0.1)

    def decide(self, message: str, history: Sequence[Message] = (), verdict: LocalVerdict | None = None,
               *, intent: Intent | None = None, confidence: float | None = None,
               runner_up: Intent | None = None, source: str = "local") -> Classification:
        if intent is None:
            intent, confidence = verdict.intent, verdict.confidence
            if verdict.margin < 0.12:
                confidence = min(confidence, 0.5)
        if confidence < 0.7:
            return Classification(intent=Intent.CLARIFY, confidence=confidence, source=source,
                                  original_intent=intent, reasoning=f"{source}: unsure")
        repos = ["pmndrs/zustand"] if intent is Intent.ANALYZE else []
        return Classification(intent=intent, confidence=confidence, repos=repos, source=source,
                              reasoning=f"{source}: {intent.value} {confidence:.2f}")


LOCAL = FakeLocal({"find react state libraries": (Intent.SEARCH, 0.95, 0.9),
                   "hmm that one maybe": (Intent.ANALYZE, 0.55, 0.1)})
UNSURE = Classification(intent=Intent.CLARIFY, confidence=0.5, original_intent=Intent.ANALYZE,
                        reasoning="local: unsure")

RESULTS = RepoList(items=[ScoredRepository(full_name="pmndrs/zustand"),
                          ScoredRepository(full_name="reduxjs/redux")])
HISTORY = [
    Message(role="user", content="find react state libraries", intent=Intent.SEARCH),
    Message(role="assistant", content="Here are 2 repositories.", structured_data=RESULTS),
]


def cascade(*steps, timeout: float = 5.0) -> tuple[CascadeClassifier, FunctionModel]:
    model = FunctionModel.script(*steps)
    return CascadeClassifier(LOCAL, make_client(model, sleeps=Sleeps()), timeout=timeout), model


async def test_confident_local_verdict_never_calls_the_llm() -> None:
    classifier, model = cascade()
    verdict = await classifier.classify("find react state libraries", [])
    assert verdict.source == "local" and verdict.intent is Intent.SEARCH
    assert model.calls == [] and classifier.llm_share == 0.0


async def test_unsure_local_verdict_goes_to_deepseek_with_the_seed_prompt_shape() -> None:
    async with FakeOpenAIServer() as server:
        server.push_json({"intent": "analyze", "confidence": 0.88, "reasoning": "refers to #1"},
                         input_tokens=400, output_tokens=30)
        client = make_client(OpenAICompatModel(api_key="k-test", base_url=server.base_url),
                             sleeps=Sleeps())
        verdict = await CascadeClassifier(LOCAL, client).classify("hmm that one maybe", HISTORY)
        await client.aclose()
    assert (verdict.intent, verdict.confidence, verdict.source) == (Intent.ANALYZE, 0.88, "llm")
    assert verdict.repos == ["pmndrs/zustand"]  # reference resolution stays local
    assert verdict.original_intent is None and verdict.reasoning.endswith("; refers to #1")
    messages = server.requests[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "intent classifier for a GitHub repository discovery system" in messages[0]["content"]
    prompt = messages[1]["content"]
    assert prompt.startswith("User message: hmm that one maybe")
    assert "Last 3 messages:\n1. user [intent: search]: find react state libraries" in prompt
    assert "Previous structured results:\nrepo_list: 1. pmndrs/zustand; 2. reduxjs/redux" in prompt


async def test_llm_low_confidence_still_routes_to_clarify() -> None:
    classifier, _ = cascade({"intent": "compare", "confidence": 0.5, "reasoning": "?"})
    verdict = await classifier.classify("hmm that one maybe", HISTORY)
    assert verdict.intent is Intent.CLARIFY and verdict.original_intent is Intent.COMPARE


async def test_identical_message_and_context_answered_from_cache() -> None:
    classifier, model = cascade({"intent": "analyze", "confidence": 0.9, "reasoning": "r"})
    first = await classifier.classify("hmm that one maybe", HISTORY)
    second = await classifier.classify("  Hmm that ONE maybe ", HISTORY)
    assert len(model.calls) == 1 and second.source == "cache" and second.intent is first.intent
    model.push({"intent": "clarify", "confidence": 0.9, "reasoning": "no context"})
    other_context = await classifier.classify("hmm that one maybe", [])
    assert len(model.calls) == 2 and other_context.intent is Intent.CLARIFY
    assert classifier.client.metrics.count("classify", "cache_hit") == 1


async def test_bounded_cache() -> None:
    classifier, model = cascade(*[{"intent": "chat", "confidence": 0.9}] * 3)
    classifier._cache_size = 1
    await classifier.classify("hmm that one maybe", HISTORY)
    await classifier.classify("hmm that one maybe", [])
    await classifier.classify("hmm that one maybe", HISTORY)  # evicted: asked again
    assert len(model.calls) == 3 and len(classifier._cache) == 1


async def test_timeout_gives_the_rephrase_fallback() -> None:
    classifier, _ = cascade(Delay(1.0), {"intent": "analyze", "confidence": 0.9}, timeout=0.1)
    verdict = await classifier.classify("hmm that one maybe", HISTORY)
    assert verdict.intent is Intent.CLARIFY and verdict.source == "fallback"
    assert verdict.clarify_question == FALLBACK_QUESTION
    assert verdict.original_intent is Intent.ANALYZE


async def test_errors_and_bad_json_give_the_local_verdict() -> None:
    classifier, _ = cascade(*[LLMUnavailable(500)] * 3, "nope", "still nope")
    assert await classifier.classify("hmm that one maybe", HISTORY) == UNSURE
    assert await classifier.classify("hmm that one maybe", HISTORY) == UNSURE
    assert classifier.client.metrics.count("classify", "invalid_output") == 1


async def test_no_client_is_the_local_classifier() -> None:
    classifier = CascadeClassifier(LOCAL, None)
    assert await classifier.classify("hmm that one maybe", HISTORY) == UNSURE


def test_render_context_without_history_and_cache_key_sensitivity() -> None:
    text = render_context("hello", [])
    assert "(none: this is the first message)" in text and "Previous structured results:\n(none)" in text
    assert cache_key("Hello  there", HISTORY) == cache_key("hello there", HISTORY)
    assert cache_key("hello there", HISTORY) != cache_key("hello there", HISTORY[:1])
    assert json.loads(json.dumps(text))  # plain text, no odd characters


@pytest.fixture(scope="module")
def real_local():
    from core.classifier import LocalIntentClassifier

    return LocalIntentClassifier()


async def test_real_local_classifier_cascade_resolves_the_reference_locally(real_local) -> None:
    model = FunctionModel.script({"intent": "analyze", "confidence": 0.9, "reasoning": "2nd item"})
    classifier = CascadeClassifier(real_local, make_client(model, sleeps=Sleeps()))
    sure = await classifier.classify("find react state libraries", [])
    assert sure.intent is Intent.SEARCH and sure.source == "local" and model.calls == []
    unsure = "hmm the second one or something?"
    assert real_local.predict(unsure, HISTORY).confidence < 0.75, "pick a message the model doubts"
    verdict = await classifier.classify(unsure, HISTORY)
    assert len(model.calls) == 1
    assert (verdict.intent, verdict.source, verdict.repos) == (Intent.ANALYZE, "llm", ["reduxjs/redux"])
    assert classifier.llm_share == 0.5
