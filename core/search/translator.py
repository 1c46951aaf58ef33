"""Natural language -> ``SearchParams``: the translator contract and its rule-based implementation.

The rules: quoted phrases stay phrases; ``topic:x`` / ``#x`` become topics; star ranges, popularity
words, recency, sort words, a result count and the language are read by ``core.search.modifiers``;
known concepts become OR'd synonym groups (``core.search.vocabulary``); filler words are dropped
and what remains are keywords. A follow-up that only refines ("what about Python?", "only popular
ones", "newer ones?", "in rust instead") modifies the previous parameters instead of starting over.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Protocol

from core.models import SearchParams
from core.search.modifiers import extract_modifiers
from core.search.vocabulary import FILLER, SYNONYMS


class QueryTranslator(Protocol):
    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        """Parameters for ``text``; ``previous`` is the thread's last search, for follow-ups."""
        ...


# a rambling message must not become a 40-term query (GitHub refuses long queries)
MAX_KEYWORDS, MAX_GROUPS, MAX_PHRASES, MAX_TOPICS = 8, 4, 3, 4

_QUOTED = re.compile(r"[\"“”„]([^\"“”„]{1,80})[\"“”„]")
_TOPIC = re.compile(r"(?:\btopic:|(?<![\w#])#)([a-z0-9][a-z0-9\-]{0,49})")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#.\-_]*")
_REFINE_START = re.compile(
    r"^\s*(?:(?:ok|okay|great|thanks|cool|hmm|and|but|now|so)[,!.]?\s+)*"
    r"(what about|how about|and|but|now|only|just|instead|same|also|maybe|rather|actually|"
    r"newer|older|smaller|bigger|more|less|fewer|any|ones?)\b"
)
_REFINE_ANYWHERE = re.compile(r"\b(instead|ones|those|these|them|same search|same query|narrow|filter)\b")
_ADDITIVE = re.compile(r"^\s*(refine|narrow|filter)\b|\b(also|as well|too|plus|and also)\b")
_NEW_QUERY_START = re.compile(
    r"^\s*(find|search|look for|looking for|show me|list|give me|get me|recommend|suggest|what are|"
    r"which are|i need|i want|i'm looking|im looking|top \d|the most|most)\b"
)

_TRIGGERS: list[tuple[re.Pattern[str], list[str]]] = sorted(
    (
        (re.compile(r"(?<![\w\-])" + re.escape(trigger) + r"(?:s|es)?(?![\w\-])"), [trigger, *triggers, *expansions])
        for triggers, expansions in SYNONYMS
        for trigger in triggers
    ),
    key=lambda pair: -len(pair[0].pattern),
)


class RuleBasedTranslator:
    """The offline ``QueryTranslator``. ``today`` anchors words such as "active" or "this year"."""

    def __init__(self, today: Callable[[], date] = date.today) -> None:
        self._today = today

    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        return self.translate_sync(text, previous)

    def translate_sync(self, text: str, previous: SearchParams | None = None) -> SearchParams:
        lowered = " ".join(text.lower().split())
        phrases = [p.strip() for p in _QUOTED.findall(lowered) if p.strip()]
        rest = _QUOTED.sub(" ", lowered)
        topics = _TOPIC.findall(rest)
        rest = _TOPIC.sub(" ", rest)
        extraction = extract_modifiers(rest, self._today())
        groups, rest = _synonym_groups(extraction.text)
        keywords = _keywords(rest)
        content = {
            "phrases": phrases[:MAX_PHRASES],
            "synonym_groups": groups[:MAX_GROUPS],
            "keywords": keywords[:MAX_KEYWORDS],
            "topics": topics[:MAX_TOPICS],
        }
        if previous is not None and _is_refinement(lowered, content):
            return _refine(previous, content, extraction.changes, text, additive=bool(_ADDITIVE.search(lowered)))
        params = SearchParams(text=text.strip(), **content)
        return params.model_copy(update=extraction.changes)


def _synonym_groups(text: str) -> tuple[list[list[str]], str]:
    groups: list[list[str]] = []
    for pattern, group in _TRIGGERS:
        if pattern.search(text):
            text = pattern.sub(" ", text)
            members = list(dict.fromkeys(group))
            if members not in groups:
                groups.append(members)
    return groups, text


def _keywords(text: str) -> list[str]:
    words = (w.strip(".-_") for w in _WORD.findall(text))
    kept = [w for w in words if w and w not in FILLER and not w.isdigit() and (len(w) > 1 or w in "rc")]
    return list(dict.fromkeys(kept))


def _is_refinement(lowered: str, content: dict[str, list]) -> bool:
    cued = bool(_REFINE_START.search(lowered) or _REFINE_ANYWHERE.search(lowered) or _ADDITIVE.search(lowered))
    if not any(content.values()):
        # only modifiers: "python?", "only popular ones", "newer ones?" -- unless it reads as a new
        # request of its own ("show me the most starred javascript repos")
        return cued or not _NEW_QUERY_START.search(lowered)
    return cued


def _refine(
    previous: SearchParams, content: dict[str, list], changes: dict, text: str, *, additive: bool = False
) -> SearchParams:
    """Keep what the follow-up does not mention; replace what it does, part by part.

    ``additive`` ("refine search: hooks", "also with ssr") adds the new words to the old ones.
    """
    update: dict = {k: v for k, v in content.items() if v}
    if additive:
        for key, value in list(update.items()):
            old = getattr(previous, key)
            update[key] = old + [v for v in value if v not in old]
    update.update(changes)
    if update.get("min_stars") is None and "min_stars" in update and "max_stars" not in update:
        update["max_stars"] = previous.max_stars
    update["text"] = f"{previous.text} -> {text.strip()}" if previous.text else text.strip()
    return previous.model_copy(update=update)
