"""Need extraction: the user's stated purpose and the weights it implies."""

from __future__ import annotations

import pytest

from core.analysis.need import DEFAULT_WEIGHTS, extract_need, need_weights, PROFILES


@pytest.mark.parametrize(
    ("message", "text", "profile"),
    [
        ("compare zustand vs redux for a small team", "a small team", "small_team"),
        ("which is better for production?", "production", "production"),
        ("compare the first two for beginners", "beginners", "beginners"),
        ("which one is more lightweight", "something lightweight", "lightweight"),
        ("compare them, I need something for our startup", "our startup", "small_team"),
        ("which is best for long-term maintenance", "long-term maintenance", "long_term"),
        ("which of these should I contribute to", "contributing", "contributing"),
        ("compare a/b vs c/d for my side project", "my side project", "small_team"),
        ("best for enterprise use?", "enterprise use", "production"),
    ],
)
def test_needs_are_recognised(message: str, text: str, profile: str) -> None:
    need = extract_need(message)
    assert need is not None
    assert need.text == text
    assert profile in [p.key for p in need.profiles]
    assert sum(need.weights.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "message",
    [
        "compare the first two",
        "compare them for me",
        "compare pmndrs/zustand vs reduxjs/redux",
        "compare stable diffusion webui and comfyui",
        "all of them",
        "compare it for example with redux",
    ],
)
def test_no_need_stated(message: str) -> None:
    assert extract_need(message) is None


def test_unknown_purpose_is_kept_with_default_weights() -> None:
    need = extract_need("compare tensorflow vs pytorch for machine learning")
    assert need is not None and need.text == "machine learning"
    assert need.profiles == ()  # "machine learning" is not the beginners' "learning"
    assert need.weights == DEFAULT_WEIGHTS


def test_a_target_after_for_is_not_a_need() -> None:
    assert extract_need("compare redux for pmndrs/zustand") is None


def test_weights_shift_towards_the_need() -> None:
    small = extract_need("for a small team").weights
    prod = extract_need("for production").weights
    assert small["ease_of_use"] > DEFAULT_WEIGHTS["ease_of_use"]
    assert small["community"] < DEFAULT_WEIGHTS["community"]
    assert prod["maturity"] > DEFAULT_WEIGHTS["maturity"]
    assert prod["maintenance"] > DEFAULT_WEIGHTS["maintenance"]


def test_every_weight_set_sums_to_one() -> None:
    assert sum(DEFAULT_WEIGHTS.values()) == pytest.approx(1.0)
    assert "relevance" not in DEFAULT_WEIGHTS
    for profile in PROFILES:
        assert sum(need_weights((profile,)).values()) == pytest.approx(1.0)
    assert sum(need_weights(PROFILES).values()) == pytest.approx(1.0)


def test_combined_needs() -> None:
    need = extract_need("for a small team, but it goes to production")
    assert {p.key for p in need.profiles} == {"small_team", "production"}
