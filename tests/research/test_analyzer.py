"""The analyzer: accuracy on the held-out labelled set, rationales, overrides, the LLM path."""

from __future__ import annotations

import pytest

from core.errors import LLMRateLimited
from core.research.analyzer import LLMModeAnalyzer, LocalModeAnalyzer, load_labelled
from tests.fakes.scripted_llm import calls_with, scripted_llm
from core.models.research import ResearchMode

QUICK, DEEP = ResearchMode.QUICK_SCAN, ResearchMode.DEEP_PROBE


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).strip("?.! ")


def test_the_evaluation_set_is_big_balanced_and_kept_apart_from_training() -> None:
    train, held_out = load_labelled("mode_train.jsonl"), load_labelled("mode_eval.jsonl")
    assert len(held_out) >= 50
    assert {m for _, m in held_out} == {QUICK, DEEP}
    assert not {_norm(q) for q, _ in train} & {_norm(q) for q, _ in held_out}


def test_accuracy_on_the_held_out_set_is_at_least_95_percent() -> None:
    analyzer = LocalModeAnalyzer()
    rows = load_labelled("mode_eval.jsonl")
    wrong = [(q, m) for q, m in rows if analyzer.decide(q).mode is not m]
    assert 1 - len(wrong) / len(rows) >= 0.95, wrong


@pytest.mark.parametrize(("goal", "mode"), [("Weather in Seoul", QUICK), ("latest version of React", QUICK),
                                            ("Impact of AI on medical ethics", DEEP)])
def test_the_spec_examples(goal: str, mode: ResearchMode) -> None:
    decision = LocalModeAnalyzer().decide(goal)
    assert decision.mode is mode and decision.source == "local"
    assert decision.rationale.count(".") == 1 and decision.rationale.endswith(".")  # one sentence


async def test_llm_verdict_is_used_and_trimmed_to_one_sentence() -> None:
    llm = scripted_llm({"mode": "deep_probe", "rationale": "It is evaluative. More text."})
    decision = await LLMModeAnalyzer(llm, LocalModeAnalyzer()).analyze("Weather in Seoul")
    assert decision.mode is DEEP and decision.source == "llm" and decision.rationale == "It is evaluative."
    assert len(calls_with(llm, "mode")) == 1


@pytest.mark.parametrize("answer", [LLMRateLimited(), {"mode": "sideways", "rationale": "x"}, "not json"])
async def test_llm_failures_fall_back_to_the_local_model(answer: object) -> None:
    llm = scripted_llm(answer)  # type: ignore[arg-type]
    decision = await LLMModeAnalyzer(llm, LocalModeAnalyzer()).analyze("Impact of AI on medical ethics")
    assert decision.mode is DEEP and decision.source == "local"


async def test_a_slow_llm_times_out_within_the_budget() -> None:
    llm = scripted_llm({"mode": "deep_probe", "rationale": "r."}, latency=5)
    decision = await LLMModeAnalyzer(llm, LocalModeAnalyzer(), timeout=0.1).analyze("Weather in Seoul")
    assert decision.source == "local" and decision.mode is QUICK


def test_the_shipped_mode_model_matches_the_code_and_data() -> None:
    """Fails when the labelled goals or the cues changed without `python -m core.research.mode_fitting`."""
    from core.research.mode_model import load_shipped

    assert load_shipped() is not None, "stale mode model: run `python -m core.research.mode_fitting` and commit it"


def test_the_shipped_mode_model_gives_the_probabilities_of_a_fresh_fit() -> None:
    import numpy as np

    from core.research.mode_fitting import mode_pipeline
    from core.research.mode_model import load_shipped

    rows = load_labelled("mode_train.jsonl")
    fitted = mode_pipeline().fit([q for q, _ in rows], [m.value for _, m in rows])
    goals = [q for q, _ in load_labelled("mode_eval.jsonl")] + ["", "Weather in Seoul", "영향 분석"]
    shipped = load_shipped()
    assert shipped is not None and shipped.classes == tuple(fitted.classes_)
    assert np.allclose(shipped.probabilities(goals), fitted.predict_proba(goals), rtol=0, atol=1e-9)


def test_deciding_a_mode_imports_no_scikit_learn() -> None:
    import subprocess
    import sys

    script = ("import sys\n"
              "from core.research.analyzer import LocalModeAnalyzer\n"
              "LocalModeAnalyzer().decide('Should we migrate from Redux to Zustand?')\n"
              "print(' '.join(m for m in ('sklearn', 'scipy') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
