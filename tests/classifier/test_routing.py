"""Confidence routing: threshold and ambiguity margin, both adjustable at run time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.classifier import build_classifier
from core.config import CoreSettings
from core.models import Intent


def test_below_the_threshold_routes_to_clarify_keeping_the_original_intent(fresh_classifier):
    verdict = fresh_classifier.predict("is zustand any good?", [])
    assert verdict.intent is Intent.ANALYZE

    fresh_classifier.confidence_threshold = min(1.0, verdict.confidence + 0.001)
    low = fresh_classifier.decide("is zustand any good?", [], verdict)
    assert low.intent is Intent.CLARIFY
    assert low.original_intent is Intent.ANALYZE
    assert low.confidence == pytest.approx(verdict.confidence, abs=1e-3)
    assert "threshold" in low.reasoning
    assert low.clarify_question

    fresh_classifier.confidence_threshold = verdict.confidence - 0.001  # adjusted at run time
    ok = fresh_classifier.decide("is zustand any good?", [], verdict)
    assert ok.intent is Intent.ANALYZE
    assert ok.original_intent is None


def test_close_top_two_route_to_clarify(fresh_classifier):
    verdict = fresh_classifier.predict("is zustand any good?", [])
    close = replace(verdict, confidence=0.55, margin=0.05)
    fresh_classifier.confidence_threshold = 0.5
    fresh_classifier.ambiguity_margin = 0.12
    result = fresh_classifier.decide("is zustand any good?", [], close)
    assert result.intent is Intent.CLARIFY
    assert result.original_intent is Intent.ANALYZE
    assert "too close" in result.reasoning

    fresh_classifier.ambiguity_margin = 0.0
    assert fresh_classifier.decide("is zustand any good?", [], close).intent is Intent.ANALYZE


def test_an_intent_from_elsewhere_goes_through_the_same_routing(fresh_classifier):
    unsure = fresh_classifier.decide("hmm zustand", [], intent=Intent.ANALYZE, confidence=0.4, source="llm")
    assert (unsure.intent, unsure.original_intent, unsure.source) == (Intent.CLARIFY, Intent.ANALYZE, "llm")
    sure = fresh_classifier.decide("hmm zustand", [], intent=Intent.ANALYZE, confidence=0.9, source="llm")
    assert (sure.intent, sure.repos) == (Intent.ANALYZE, ["pmndrs/zustand"])


def test_the_verdict_carries_the_full_distribution(classifier):
    verdict = classifier.predict("redux or zustand for a small app?", [])
    assert set(verdict.probabilities) == set(Intent)
    assert sum(verdict.probabilities.values()) == pytest.approx(1.0)
    assert verdict.intent is Intent.COMPARE
    assert verdict.margin == pytest.approx(verdict.confidence - verdict.probabilities[verdict.runner_up])
    assert not verdict.unsure(0.7, 0.12)


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_thresholds_must_be_probabilities(fresh_classifier, bad):
    with pytest.raises(ValueError):
        fresh_classifier.confidence_threshold = bad
    with pytest.raises(ValueError):
        fresh_classifier.ambiguity_margin = bad


def test_settings_come_from_the_environment():
    settings = CoreSettings.from_env({"OMG_CONFIDENCE_THRESHOLD": "0.9", "OMG_AMBIGUITY_MARGIN": "0.3"})
    classifier = build_classifier(settings, None)
    assert (classifier.confidence_threshold, classifier.ambiguity_margin) == (0.9, 0.3)
