"""How much of a request the closest candidates' texts speak of: the gate's ``covered`` reading.

A request next to what the catalog has ("picks a ski wax from the snow temperature", beside
weather tools) can be close in meaning to its closest candidates while its rarest words ("wax")
are in none of their texts, nor in the requests people ask of them. Each of the request's telling
words (``core.search.need.telling_words``) weighs by how rare it is among the catalog's
repositories, ``log(records / (1 + records using it))``, so "wax" weighs much more than "tool";
the reading is the share of that weight that the closest candidates' words hold, from 0 (none of
the request's words) to 1 (all of them). Each candidate's own share counts in its fit too
(``core.search.fit.COVERED_WEIGHT``): of two close candidates, the one whose texts and example
requests use the request's rare words leads.

The words a request writes as names (``core.search.need.named_words``: "PASETO", "Kindle") are read
apart too (the gate's ``named_covered``): a paraphrase may find other words for a need, but a
product, format or standard keeps its name, so a fitting answer's texts name it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence

from core.search.relevance import stemmed

_WORD = re.compile(r"[a-z][a-z0-9+#]*")


def text_words(texts: Iterable[str]) -> frozenset[str]:
    """The words the texts use, lower-cased and stemmed (``core.search.relevance.stemmed``)."""
    return frozenset(stemmed(word) for text in texts for word in _WORD.findall(text.lower()))


def rarities(telling: Sequence[str], records_using: Callable[[str], int], records: int) -> dict[str, float]:
    """Each telling word, stemmed, and its weight: how rare it is among the ``records``
    repositories, of which ``records_using`` says how many use a word."""
    weights: dict[str, float] = {}
    for word in telling:
        rarity = max(0.0, math.log(records / (1 + records_using(word))))
        key = stemmed(word.lower())
        weights[key] = max(weights.get(key, 0.0), rarity)
    return weights


def share(weights: dict[str, float], used: frozenset[str]) -> float:
    """The share of the ``weights`` (``rarities``) that the words ``used`` hold; 1 when they weigh nothing."""
    total = sum(weights.values())
    return sum(weight for word, weight in weights.items() if word in used) / total if total > 0.0 else 1.0


def restricted(weights: dict[str, float], words: Iterable[str]) -> dict[str, float]:
    """The ``weights`` (``rarities``) of those of ``words`` among them, stemmed as they are."""
    wanted = {stemmed(word.lower()) for word in words}
    return {word: weight for word, weight in weights.items() if word in wanted}
