"""Cue phrases that signal a lookup or an evaluation; features for the model and words for rationales."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

# Each cue: (pattern, the phrase a rationale quotes). Analytical, multi-sided, evaluative goals.
DEEP_CUES: tuple[tuple[str, str], ...] = (
    (r"\bimpacts?\b|\baffect(s|ed|ing)?\b|\beffects? (of|on)\b|\binfluence\b", "impact"),
    (r"\bimplications?\b|\bconsequences?\b", "implications"),
    (r"\bethic(s|al)\b|\bprivacy\b|\bfair(ness)?\b", "ethics"),
    (r"\bshould (we|i|our|a|teams?|the|companies|you)\b|\bworth\b", "a recommendation"),
    (r"\bpros and cons\b|\btrade-?\s?offs?\b|\badvantages\b|\bdrawbacks\b|\bbenefits\b"
     r"|\bstrengths\b|\bweaknesses\b|\bfor and against\b|\bweigh\b", "trade-offs"),
    (r"\bcompar(e|ed|ing|ison)\b|\bversus\b|\bvs\.?\b", "a comparison"),
    (r"\bevaluat\w*|\bassess\w*|\banaly[sz]\w*|\bcritically\b|\bexamine\b|\binvestigate\b"
     r"|\bin-depth\b|\bdeep dive\b|\bthorough\b", "an evaluation"),
    (r"^why\b|\bwhy (did|do|does|is|are|has|have)\b|\band why\b", "a why question"),
    (r"\bhow (does|do|did|will|would|has|have|should|can|might|mature|reliable|resilient|fair"
     r"|effective|sustainable)\b", "a how question"),
    (r"\blong[- ]term\b|\bviab\w*|\bsustainab\w*|\bfuture\b|\broadmap\b|\bheading\b", "long-term outlook"),
    (r"\brisks?\b|\bsecurity\b|\bthreats?\b|\bvulnerab\w*", "risks"),
    (r"\bcontrovers\w*|\bdebate\b|\bopposing\b|\barguments?\b|\bclaims?\b|\bperspectives\b"
     r"|\bevidence\b|\bhype\b", "competing views"),
    (r"\bstrateg\w*|\bapproach\b|\bdecid\w*|\bdecision\b|\bchoos\w*|\bmigrat\w*|\brewrit\w*"
     r"|\badopt\w*", "a decision"),
    (r"\brole of\b|\blessons\b|\bfactors\b|\bchallenges\b|\bbarriers\b|\bgovernance\b"
     r"|\blandscape\b|\becosystem\b", "a broad question"),
    (r"영향|장단점|분석|비교|윤리|전략", "an evaluation"),
)

# Simple factual lookups and discovery lists.
QUICK_CUES: tuple[tuple[str, str], ...] = (
    (r"\b(latest|newest|current|stable|recent|last)\b.*\b(version|release|tag|commits?|issues)\b"
     r"|\bversion (of|number)\b|\brelease (date|notes)\b|\bchangelog\b", "a version lookup"),
    (r"^(who|when|where)\b|\bwho (created|maintains|wrote|founded|is|sponsors)\b"
     r"|\bwhen (was|did|is)\b", "a who/when question"),
    (r"\bhow many\b|\bhow much\b|\bcount\b|\bnumber of\b|\bdownloads?\b|\bstars? count\b", "a number"),
    (r"\bweather\b|\btemperature\b|\bprice\b|\bexchange rate\b|\bpopulation\b|\bcapital of\b"
     r"|\btime in\b|\bheight of\b|\bdistance\b", "a fact"),
    (r"\blicen[cs]e (of|used|does)\b|\bwhat license\b|\blicensed\b", "a licence lookup"),
    (r"\b(link|url|homepage|docs|documentation|repo|repository) (to|for|of)\b|\bgithub repo\b"
     r"|\bsource code of\b", "a link"),
    (r"^(find|list|show|search)\b|\blist of\b|\btop \d+\b|\btop\b|\btrending\b|\bmost (starred|popular)\b"
     r"|\bpopular\b|\bawesome\b", "a list"),
    (r"\b(libraries|library|crates|packages|gems|tools|frameworks|plugins|extensions|templates"
     r"|kits|boilerplate|examples|projects|repos|repositories|alternatives)\b( for| to| on| in)?",
     "a catalogue of projects"),
    (r"\bhow to\b|\bcommand\b|\binstall\b|\bdefault\b|\bport\b|\bshortcut\b|\bsyntax\b", "a how-to"),
    (r"^(what is|what's|what does|definition|meaning)\b|\bwhat language\b|\bwritten in\b"
     r"|^(does|is|can) \S+ (support|still|written|deprecated|archived|mit|work)", "a fact"),
    (r"날씨|최신|버전|목록", "a lookup"),
)

_DEEP = [(re.compile(p, re.IGNORECASE), label) for p, label in DEEP_CUES]
_QUICK = [(re.compile(p, re.IGNORECASE), label) for p, label in QUICK_CUES]


def matched(text: str) -> tuple[list[str], list[str]]:
    """(deep cue labels, quick cue labels) found in ``text``, without repeats."""
    deep = list(dict.fromkeys(label for rx, label in _DEEP if rx.search(text)))
    quick = list(dict.fromkeys(label for rx, label in _QUICK if rx.search(text)))
    return deep, quick


def cue_vector(text: str) -> list[float]:
    words = len(text.split())
    row = [1.0 if rx.search(text) else 0.0 for rx, _ in _DEEP]
    row += [1.0 if rx.search(text) else 0.0 for rx, _ in _QUICK]
    row += [min(words, 30) / 30.0, 1.0 if "," in text or " and " in text.lower() else 0.0]
    return row


class CueFeatures:
    """A scikit-learn transformer: one column per cue plus length and conjunction signals."""

    def fit(self, texts: Iterable[str], y: object = None) -> "CueFeatures":
        return self

    def transform(self, texts: Iterable[str]) -> np.ndarray:
        return np.array([cue_vector(t) for t in texts], dtype=float)

    def get_params(self, deep: bool = True) -> dict:
        return {}

    def set_params(self, **params: object) -> "CueFeatures":
        return self
