"""The user's stated need in a comparison ("for a small team", "for production", "lightweight").

A need is recognised by keyword profiles; each profile multiplies the weight of the dimensions
that matter for it, and the weights are renormalized to sum to 1.0. The user's own phrase is
kept for display ("for a small team"); a "for ..." phrase that matches no profile is still
shown, with the default weights.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.search.scoring import WEIGHTS

COMPARE_DIMENSIONS: tuple[str, ...] = (
    "maturity", "activity", "documentation", "community", "ease_of_use", "maintenance",
)
# The search scoring weights without relevance (a comparison has no query to be relevant to).
BASE_WEIGHTS: dict[str, float] = {d: WEIGHTS[d] for d in COMPARE_DIMENSIONS}


@dataclass(frozen=True, slots=True)
class NeedProfile:
    key: str
    label: str
    patterns: tuple[str, ...]
    emphasis: dict[str, float]
    why: str


PROFILES: tuple[NeedProfile, ...] = (
    NeedProfile(
        "small_team", "a small team",
        (r"small (?:dev )?teams?", r"startups?", r"side projects?", r"solo", r"just me",
         r"few (?:devs|developers|people)", r"small (?:company|companies|shop)", r"indie"),
        {"ease_of_use": 2.0, "documentation": 1.6, "maintenance": 1.4, "community": 0.7},
        "easy adoption, clear docs and dependable maintenance matter more than community size",
    ),
    NeedProfile(
        "production", "production",
        (r"production", r"\bprod\b", r"enterprise", r"mission[- ]critical",
         r"stab(?:le|ility)(?! diffusion)", r"reliab(?:le|ility)", r"battle[- ]tested",
         r"at scale", r"large[- ]scale"),
        {"maturity": 2.0, "maintenance": 2.0, "activity": 1.4},
        "maturity and steady maintenance matter most when other things depend on it",
    ),
    NeedProfile(
        "beginners", "beginners",
        (r"beginners?", r"newbies?", r"new to", r"novices?", r"juniors?", r"students?",
         r"(?<!machine )(?<!deep )(?<!reinforcement )learn(?:ing)?",
         r"easy to (?:learn|start|pick up)", r"first[- ]timers?"),
        {"ease_of_use": 2.0, "documentation": 2.0, "community": 1.5},
        "good docs, an easy start and a community to ask for help matter most",
    ),
    NeedProfile(
        "lightweight", "something lightweight",
        (r"light[- ]?weight", r"minimal(?:ist)?", r"tiny", r"small (?:bundle|footprint|size)",
         r"simple", r"simplicity", r"no bloat", r"bloat[- ]?free", r"small and fast"),
        {"ease_of_use": 2.5, "documentation": 1.2, "maturity": 0.7, "community": 0.7},
        "size isn't measured directly, so ease of use (a small, quick-to-learn API) stands in for it",
    ),
    NeedProfile(
        "contributing", "contributing",
        (r"contribut(?:e|ing|ions?|ors?)", r"first (?:pr|pull request)", r"get involved"),
        {"community": 2.0, "maintenance": 2.0, "activity": 1.5},
        "an active, responsive and welcoming community matters most for contributors",
    ),
    NeedProfile(
        "long_term", "long-term use",
        (r"long[- ]term", r"long[- ]lived", r"longevity", r"future[- ]proof", r"for years",
         r"well[- ]maintained", r"(?:lts|long[- ]term support)"),
        {"maintenance": 2.0, "activity": 1.5, "maturity": 1.5},
        "steady maintenance and ongoing activity matter most for something you'll keep for years",
    ),
)

_FOR_PHRASE = re.compile(
    r"\b(?:for|suited to|suitable for|best for|good for)\s+((?:an?|the|my|our|a\s+)?\s*"
    r"[a-z0-9][a-z0-9 '\-/+.]{1,50}?)\s*(?:[?!.,;]|$|\bwhich\b|\bthat\b)",
    re.I,
)
_NOT_A_NEED = re.compile(
    r"^(?:(?:me|us|you|now|today|this|that|it|them|these|those|a bit|a moment|real|sure|free|"
    r"now on|fun|comparison)$|(?:example|instance|the (?:first|second|third|last|top))\b)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Need:
    text: str  # what to show: the user's phrase, or the profile's label
    profiles: tuple[NeedProfile, ...] = ()
    weights: dict[str, float] = field(default_factory=lambda: need_weights(()))

    @property
    def why(self) -> str:
        return "; ".join(p.why for p in self.profiles)


def extract_need(message: str) -> Need | None:
    """The need stated in ``message``, or None when there is none."""
    text = message.strip()
    profiles = tuple(p for p in PROFILES if any(re.search(rf"\b(?:{pat})\b", text, re.I)
                                                for pat in p.patterns))
    phrase = _for_phrase(text)
    if not profiles and phrase is None:
        return None
    shown = phrase or " and ".join(p.label for p in profiles)
    return Need(text=shown, profiles=profiles, weights=need_weights(profiles))


def need_weights(profiles: tuple[NeedProfile, ...] | list[NeedProfile]) -> dict[str, float]:
    raw = dict(BASE_WEIGHTS)
    for profile in profiles:
        for dimension, factor in profile.emphasis.items():
            raw[dimension] *= factor
    total = sum(raw.values())
    return {d: w / total for d, w in raw.items()}


DEFAULT_WEIGHTS: dict[str, float] = need_weights(())


def _for_phrase(text: str) -> str | None:
    for match in _FOR_PHRASE.finditer(text):
        phrase = re.sub(r"\s+", " ", match.group(1)).strip(" .'-")
        if "/" in phrase and " " not in phrase:  # "for owner/name" is a target, not a need
            continue
        if phrase and not _NOT_A_NEED.match(phrase):
            return phrase
    return None
