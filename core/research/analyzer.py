"""The analyzer: Quick Scan or Deep Probe, with a one-sentence rationale.

``LocalModeAnalyzer`` is a small model (word and character TF-IDF plus cue features, logistic
regression) fitted with scikit-learn on ``data/mode_train.jsonl`` and shipped as arrays that numpy
computes with (``core.research.mode_model``); ``data/mode_eval.jsonl`` is kept apart for measuring
it. ``LLMModeAnalyzer`` asks the configured model and falls back to the local one on any LLM error.
"""

from __future__ import annotations

import json
import logging
import re
from importlib import resources
from typing import Literal, Protocol

from pydantic import BaseModel

from core.errors import LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.research.settings import LLM_MAX_OUTPUT_TOKENS
from core.research.cues import matched
from core.models.research import ModeDecision, ResearchMode
from core.research.mode_model import mode_model

log = logging.getLogger("omg.research.analyzer")

QUICK, DEEP = ResearchMode.QUICK_SCAN, ResearchMode.DEEP_PROBE


class ModeAnalyzer(Protocol):
    async def analyze(self, goal: str, *, timeout: float | None = None) -> ModeDecision: ...


def load_labelled(name: str) -> list[tuple[str, ResearchMode]]:
    """``mode_train.jsonl`` / ``mode_eval.jsonl`` shipped with the package."""
    text = resources.files("core.research").joinpath("data", name).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [(row["query"], ResearchMode(row["mode"])) for row in rows]


def _rationale(goal: str, mode: ResearchMode) -> str:
    deep, quick = matched(goal)
    if mode is DEEP:
        asks = " and ".join(deep[:2]) if deep else "an open-ended judgement"
        return (
            f"The goal asks for {asks}, which needs several sources, opposing views and "
            "cross-checking, so a Deep Probe fits."
        )
    what = quick[0] if quick else "a short, specific question"
    return f"This is {what} that a couple of targeted searches over recent data can answer, so a Quick Scan fits."


def first_sentence(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(\s|$)", text)
    sentence = match.group(1) if match else text
    if len(sentence) > limit:
        sentence = sentence[: limit - 1].rsplit(" ", 1)[0] + "…"
    return sentence


def override_rationale(requested: ResearchMode, auto: ModeDecision | None) -> str:
    if auto is None:
        return f"{requested.label} was requested explicitly."
    if auto.mode is requested:
        return f"{requested.label} was requested explicitly, and the analyzer agrees."
    return f"{requested.label} was requested explicitly; on its own the analyzer would have chosen {auto.mode.label}."


class LocalModeAnalyzer:
    """Offline, deterministic, well under 1 ms a goal; the shipped model is loaded at first use."""

    def warm(self) -> None:
        mode_model()

    def decide(self, goal: str) -> ModeDecision:
        model = mode_model()
        probabilities = model.probabilities([goal])[0]
        classes = list(model.classes)
        best = int(probabilities.argmax())
        mode = ResearchMode(classes[best])
        return ModeDecision(
            mode=mode,
            rationale=_rationale(goal, mode),
            confidence=round(float(probabilities[best]), 3),
            source="local",
        )

    async def analyze(self, goal: str, *, timeout: float | None = None) -> ModeDecision:
        return self.decide(goal)


class _Verdict(BaseModel):
    mode: Literal["quick_scan", "deep_probe"]
    rationale: str


SYSTEM_PROMPT = """You choose the depth of a research task about software and open source.
- quick_scan: a simple factual lookup or a list (a version, a date, a number, a link, a licence,
  "find X libraries", "latest release of Y", "weather in Seoul"). A few searches answer it.
- deep_probe: an analytical, multi-sided or evaluative question (impact, trade-offs, should we,
  compare, why, risks, long-term outlook, ethics). It needs several sources, opposing views and
  cross-verification.
Answer JSON {"mode": "quick_scan" | "deep_probe", "rationale": "<one sentence>"}."""

class LLMModeAnalyzer:
    """The configured LLM (Gemini Flash by default) with the local model as its fallback."""

    def __init__(self, llm: LLMClient, fallback: LocalModeAnalyzer, *, timeout: float = 2.5):
        self.llm = llm
        self.fallback = fallback
        self.timeout = timeout

    async def analyze(self, goal: str, *, timeout: float | None = None) -> ModeDecision:
        budget = min(self.timeout, timeout) if timeout is not None else self.timeout
        if budget <= 0.05:
            return self.fallback.decide(goal)
        request = StructuredRequest(
            task="research_analyze", messages=[system(SYSTEM_PROMPT), user(f"Research goal: {goal}")],
            schema=_Verdict, timeout=budget, max_output_tokens=LLM_MAX_OUTPUT_TOKENS,
        )
        try:
            verdict = (await self.llm.run(request)).output
        except Exception as exc:  # LLMError by contract; anything else must not break research either
            log.warning("llm analysis failed, using the local model", extra={"error": repr(exc)},
                        exc_info=not isinstance(exc, LLMError))
            return self.fallback.decide(goal)
        mode = ResearchMode(verdict.mode)
        rationale = first_sentence(verdict.rationale) or _rationale(goal, mode)
        return ModeDecision(mode=mode, rationale=rationale, confidence=0.9, source="llm")
