"""How much of a request the closest candidates' texts speak of: the gate's ``covered`` reading.

A request next to what the catalog has ("picks a ski wax from the snow temperature", beside
weather tools) can be close in meaning to its closest candidates while its rarest words ("wax")
are in none of their texts, nor in the requests people ask of them. Each of the request's telling
words (``core.search.need.telling_words``) weighs by how rare it is among the catalog's
repositories, ``log(records / (1 + records using it))``, so "wax" weighs much more than "tool";
the reading is the share of that weight that the closest candidates' words hold, from 0 (none of
the request's words) to 1 (all of them).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence

from core.search.relevance import stem

_WORD = re.compile(r"[a-z][a-z0-9+#]*")


def text_words(texts: Iterable[str]) -> frozenset[str]:
    """The words the texts use, lower-cased and stemmed (``core.search.relevance.stem``)."""
    return frozenset(stem(word) for text in texts for word in _WORD.findall(text.lower()))


def covered(telling: Sequence[str], spoken_of: Iterable[frozenset[str]],
            records_using: Callable[[str], int], records: int) -> float:
    """The rarity-weighted share of the ``telling`` words that the words of ``spoken_of`` use;
    ``records_using`` says how many of the ``records`` repositories use a word."""
    weights: dict[str, float] = {}
    for word in telling:
        rarity = max(0.0, math.log(records / (1 + records_using(word))))
        weights[stem(word)] = max(weights.get(stem(word), 0.0), rarity)
    total = sum(weights.values())
    if total <= 0.0:
        return 1.0
    used = frozenset().union(*spoken_of)
    return sum(weight for word, weight in weights.items() if word in used) / total
