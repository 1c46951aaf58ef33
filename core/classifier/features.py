"""Turn (message, context, mentions) into model input: normalised text + context features.

The same function feeds training and inference, so what the model learned from the utterance
set is exactly what it sees at run time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.classifier.context import ThreadContext, build_context
from core.classifier.mentions import Mention, MentionFinder, MentionKind
from core.classifier.vocabulary import Vocabulary
from core.models import Message

# Names become "zzrepo", "zzitem" when they are one of the last results ("what about jotai?"
# after a list containing jotai is about that item), or "zzplatform" for frameworks people
# search within ("what about vue?" after a search is the same search for vue).
PLACEHOLDERS = {
    MentionKind.POSITION: "zzpos",
    MentionKind.RANGE: "zzrange",
    MentionKind.BOTH: "zzall",
    MentionKind.ALL: "zzall",
    MentionKind.OTHERS: "zzothers",
}
_FOLLOW_UP = re.compile(
    r"^(?:and|ok(?:ay)?|so|but|now|hmm+|cool|nice|great|thanks|thx)?[\s,]*"
    r"(?:(?:what|how)\s+about\b|(?:and|now|but)\s+(?:for|in|with|only|just)\b|same\s+(?:but|for|in|thing)\b|"
    r"(?:only|just)\s+(?:the\s+)?\w+\s+ones\b|in\s+\w+\s*\??$|(?:any|anything)\s+(?:in|for|with)\b|"
    r"(?:with|without)\s+\w+|more\s+like\s+(?:this|these|that)|(?:show|give)\s+(?:me\s+)?more\b)",
    re.IGNORECASE,
)
_REPEATS = re.compile(r"(.)\1{2,}")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class ModelInput:
    text: str  # lower-cased, references replaced by placeholders
    features: dict[str, float]


def normalise(message: str, mentions: Sequence[Mention], vocabulary: Vocabulary | None = None) -> str:
    parts: list[str] = []
    cursor = 0
    for m in sorted(mentions, key=lambda m: m.start):
        if m.kind in (MentionKind.EXPLICIT, MentionKind.NAME):
            placeholder: str | None = "zzitem" if m.in_context else "zzrepo"
            if not m.in_context and m.kind is MentionKind.NAME and vocabulary and vocabulary.is_platform(m.text):
                placeholder = "zzplatform"
        else:
            placeholder = PLACEHOLDERS.get(m.kind)
        if placeholder is None or m.start < cursor:
            continue
        parts.append(message[cursor : m.start])
        parts.append(f" {placeholder} ")
        cursor = m.end
    parts.append(message[cursor:])
    text = "".join(parts).lower().replace("\u2019", "'").replace("'", "")
    text = _REPEATS.sub(r"\1\1", text)
    return _SPACES.sub(" ", text).strip()


def _bucket(n: int, edges: Sequence[int]) -> str:
    for edge in edges:
        if n <= edge:
            return str(edge)
    return f"{edges[-1]}+"


def model_input(
    message: str,
    context: ThreadContext,
    mentions: Sequence[Mention],
    previous_named: bool = False,
    vocabulary: Vocabulary | None = None,
) -> ModelInput:
    text = normalise(message, mentions, vocabulary)
    ctx = context.data_type
    words = len(text.split())
    named = sum(1 for m in mentions if m.kind in (MentionKind.EXPLICIT, MentionKind.NAME))
    new_names = sum(1 for m in mentions if m.kind in (MentionKind.EXPLICIT, MentionKind.NAME) and not m.in_context)
    kinds = {m.kind.value for m in mentions if m.kind not in (MentionKind.EXPLICIT, MentionKind.NAME)}
    feats: dict[str, float] = {
        f"ctx={ctx}": 1.0,
        f"refs={_bucket(context.n_referents, (0, 1, 2))}": 1.0,
        f"named={_bucket(named, (0, 1))}": 1.0,
        f"len={_bucket(words, (1, 2, 3, 5, 8, 14))}": 1.0,
        f"{ctx}&named={_bucket(named, (0, 1))}": 1.0,
    }
    if context.focus:
        feats["focus"] = 1.0
    if context.asked:
        feats[f"asked={context.asked}"] = 1.0
        for kind in kinds:
            feats[f"asked={context.asked}&{kind}"] = 1.0
    for kind in kinds:
        feats[f"m_{kind}"] = 1.0
        feats[f"{ctx}&m_{kind}"] = 1.0
    if not kinds and not named:
        feats[f"{ctx}&bare"] = 1.0
    if new_names and named > new_names:
        feats[f"{ctx}&mixed_names"] = 1.0
    elif named:
        feats[f"{ctx}&{'new' if new_names else 'listed'}_names"] = 1.0
    if previous_named:
        feats[f"{ctx}&prev_named"] = 1.0
    if _FOLLOW_UP.search(text):
        feats["follow_up"] = 1.0
        feats[f"{ctx}&follow_up"] = 1.0
        feats[f"{ctx}&follow_up&named={_bucket(named, (0, 1))}"] = 1.0
        if new_names:
            feats[f"{ctx}&follow_up&new_name&prev_named={previous_named}"] = 1.0
    if words <= 3:
        feats[f"{ctx}&short"] = 1.0
    if "?" in message:
        feats["question"] = 1.0
    return ModelInput(text=text, features=feats)


@dataclass(frozen=True)
class Prepared:
    context: ThreadContext
    mentions: tuple[Mention, ...]
    input: ModelInput


class Featurizer:
    """message + history -> context, mentions and model input (training and inference alike)."""

    def __init__(self, finder: MentionFinder) -> None:
        self.finder = finder

    def prepare(self, message: str, history: Sequence[Message]) -> Prepared:
        context = build_context(history)
        mentions = self.finder.find(message, context.known_names)
        previous_named = bool(context.previous_user) and any(
            m.kind in (MentionKind.EXPLICIT, MentionKind.NAME) for m in self.finder.find(context.previous_user or "")
        )
        return Prepared(context, tuple(mentions),
                        model_input(message, context, mentions, previous_named, self.finder.vocabulary))
