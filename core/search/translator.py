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
from core.search.vocabulary import FILLER, LANGUAGES, SYNONYMS


class QueryTranslator(Protocol):
    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        """Parameters for ``text``; ``previous`` is the thread's last search, for follow-ups."""
        ...


# a rambling message must not become a 40-term query (GitHub refuses long queries)
MAX_KEYWORDS, MAX_GROUPS, MAX_PHRASES, MAX_TOPICS = 8, 4, 3, 4

_QUOTED = re.compile(r"[\"“”„]([^\"“”„]{1,80})[\"“”„]")
_TOPIC = re.compile(r"(?:\btopic:|(?<![\w#])#)([a-z0-9][a-z0-9\-]{0,49})")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#.\-_]*")
_LEAD = r"^\s*(?:(?:ok|okay|great|thanks|cool|hmm|and|but|now|so|then|alright)[,!.]?\s+)*"
# follow-ups that swap part of the previous search: "what about vue?", "in rust instead"
_REPLACE = re.compile(_LEAD + r"(what about|how about|and for|and in|what if|try|maybe|rather)\b|\binstead\b|\brather than\b")
# follow-ups that narrow it: "only popular ones", "any async ones?", "Refine search: hooks"
_ADD = re.compile(
    _LEAD + r"(refine|narrow|filter|only|just|also|ones?|those|these)\b"
    r"|\b(ones|those|these|them|also|as well|plus)\b"
)
_NEW_QUERY_START = re.compile(
    _LEAD + r"(find|search|look for|looking for|show me|list|give me|get me|recommend|suggest|what are|"
    r"which are|i need|i want|i'm looking|im looking|top \d|the most|most)\b"
)
_CONTRACTION = re.compile(r"[’'](?:s|re|m|ll|ve|d)\b")
_EXCLUDE = re.compile(
    r"\b(?:other than|besides|except(?: for)?|excluding|apart from|but not|not including)\s+"
    r"((?:[\w.\-]+/)?[\w.\-]+)(?:\s*(?:,|and|or)\s*((?:[\w.\-]+/)?[\w.\-]+))?"
)

def _plural(trigger: str) -> str:
    """A trigger's pattern, also matching its plural ("component library" -> "...libraries")."""
    if trigger.endswith("y") and not trigger.endswith(("ay", "ey", "oy", "uy")):
        return re.escape(trigger[:-1]) + "(?:y|ies)"
    return re.escape(trigger) + "(?:s|es)?"


_TRIGGERS: list[tuple[re.Pattern[str], list[str]]] = sorted(
    (
        (re.compile(r"(?<![\w\-])" + _plural(trigger) + r"(?![\w\-])"), [trigger, *triggers, *equivalents, *related])
        for triggers, equivalents, related in SYNONYMS
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
        lowered = " ".join(_CONTRACTION.sub("", text.lower().replace("n't", " not")).split())
        phrases = [p.strip() for p in _QUOTED.findall(lowered) if p.strip()]
        rest = _QUOTED.sub(" ", lowered)
        excluded = [w.strip(".") for m in _EXCLUDE.finditer(rest) for w in m.groups() if w]
        rest = _EXCLUDE.sub(" ", rest)
        topics = _TOPIC.findall(rest)
        rest = _TOPIC.sub(" ", rest)
        extraction = extract_modifiers(rest, self._today())
        groups, rest = _synonym_groups(extraction.text)
        keywords = _keywords(rest)
        if (language := extraction.changes.get("language")) is not None:
            # a language left behind, or taken as well where the filter's words do not say it ("zig would also be ok")
            left, also = _swapped_languages(rest, language), extraction.changes.get("also_languages", ())
            keywords = [w for w in keywords if w not in left and LANGUAGES.get(w) not in also]
        content = {
            "phrases": phrases[:MAX_PHRASES],
            "synonym_groups": groups[:MAX_GROUPS],
            "keywords": keywords[:MAX_KEYWORDS],
            "topics": topics[:MAX_TOPICS],
        }
        changes = dict(extraction.changes)
        if excluded:
            changes["exclude"] = excluded
        mode = _follow_up_mode(lowered, content) if previous is not None else None
        if previous is not None and mode is not None:
            return _refine(previous, content, changes, text, additive=mode == "add")
        params = SearchParams(text=text.strip(), **content)
        return params.model_copy(update=changes)


# "scripts in scala instead of bash": the language left behind is no word to search for
_SWAPPED = re.compile(r"\b(?:instead\s+of|rather\s+than)\s+([\w.+#-]+)")


def _swapped_languages(text: str, language: str) -> set[str]:
    """The words of ``text`` naming a language other than ``language`` after "instead of"."""
    return {word for match in _SWAPPED.finditer(text)
            if LANGUAGES.get(word := match.group(1).strip(".-_")) not in (None, language)}


def _synonym_groups(text: str) -> tuple[list[list[str]], str]:
    groups: list[list[str]] = []
    for pattern, group in _TRIGGERS:
        if pattern.search(text):
            text = pattern.sub(" ", text)
            members = list(dict.fromkeys(group))
            if members not in groups:
                groups.append(members)
    return groups, text


# "search" asks for something ("search for a markdown editor") unless it is the thing asked for
_SEARCH_THE_THING = re.compile(
    r"\b(?:full[- ]?text|semantic|vector|fuzzy|code|site|product|enterprise|desktop|local|web|image|log|faceted|"
    r"hybrid|instant)\s+search\b|\bsearch\s+(?:engines?|servers?|index(?:es|ing)?|librar(?:y|ies)|bars?|apis?|ui)\b"
)


def _keywords(text: str) -> list[str]:
    words = (w.strip(".-_") for w in _WORD.findall(text))
    wanted = {"search"} if _SEARCH_THE_THING.search(text) else set()
    kept = [w for w in words
            if w and (w not in FILLER or w in wanted) and not w.isdigit() and (len(w) > 1 or w in "rc")]
    return list(dict.fromkeys(kept))


def _follow_up_mode(lowered: str, content: dict[str, list]) -> str | None:
    """"replace" or "add" when the message refines the previous search; None for a new search."""
    if _REPLACE.search(lowered):
        return "replace"
    if _ADD.search(lowered):
        return "add"
    if not any(content.values()) and not _NEW_QUERY_START.search(lowered):
        return "replace"  # only modifiers: "python?", "over 1k stars"
    return None


def _refine(
    previous: SearchParams, content: dict[str, list], changes: dict, text: str, *, additive: bool = False
) -> SearchParams:
    """Keep what the follow-up does not mention; replace what it does, part by part.

    ``additive`` ("refine search: hooks", "any async ones?") adds the new words to the old ones.
    """
    update: dict = {k: v for k, v in content.items() if v}
    if changes.get("exclude"):
        changes = changes | {"exclude": previous.exclude + changes["exclude"]}
    if additive:
        for key, value in list(update.items()):
            old = getattr(previous, key)
            update[key] = old + [v for v in value if v not in old]
    update.update(changes)
    if update.get("min_stars") is None and "min_stars" in update and "max_stars" not in update:
        update["max_stars"] = previous.max_stars
    update["text"] = f"{previous.text} -> {text.strip()}" if previous.text else text.strip()
    return previous.model_copy(update=update)
