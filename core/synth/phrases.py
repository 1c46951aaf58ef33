"""The one place that builds phrases from the user's words, counts and articles.

Replies quote the user's request ("the React state management libraries we found"), count
things ("1 commit", "Only 3 of these 10 results") and put articles before words they did not
choose ("an HTML project"). Doing that in one module keeps the grammar right everywhere:

    >>> request_topic("find a static site generator written in Go")
    'the results for *static site generator written in Go*'
    >>> request_topic("show me a vector database")
    'the vector database repositories we found'
    >>> with_article("HTML project")
    'an HTML project'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# -- counts ------------------------------------------------------------------------------------------


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 commit', '3 commits', '1,204 stars'."""
    word = singular if count == 1 else (plural_form or f"{singular}s")
    return f"{count:,} {word}"


def join_words(words: Sequence[str], conjunction: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [w for w in words if w]
    if len(items) <= 1:
        return items[0] if items else ""
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def share_of(matching: int, total: int, what: str, condition: str) -> str:
    """'None of these 10 results are in Go', 'Only 3 of these 10 results are in Go',
    'The only one of these 10 results is in Go', 'All 10 results are in Go'."""
    if total <= 0:
        return f"There are no {what} to check"
    if matching <= 0:
        return f"None of these {total:,} {what} {_verb(condition, many=True)}"
    if matching >= total:
        return f"All {total:,} {what} {_verb(condition, many=True)}" if total > 1 \
            else f"The one result {_verb(condition, many=False)}"
    if matching == 1:
        return f"Only 1 of these {total:,} {what} {_verb(condition, many=False)}"
    return f"Only {matching:,} of these {total:,} {what} {_verb(condition, many=True)}"


def _verb(condition: str, *, many: bool) -> str:
    """``condition`` is written for many ("are in Go", "mention offline"); adjust it for one."""
    if many:
        return condition
    head, _, rest = condition.partition(" ")
    singular = {"are": "is", "have": "has", "were": "was", "do": "does"}.get(head)
    if singular is None:
        singular = head if head.endswith("s") else f"{head}s"
    return f"{singular} {rest}".strip()


# -- articles ----------------------------------------------------------------------------------------

_VOWEL_SOUND_LETTERS = set("AEFHILMNORSX")  # letters whose spoken name starts with a vowel sound
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")
_YOU_SOUND = re.compile(r"^(?:uni(?!nstall|nterest|mport|ntuit)|use|usa|usu|ute|uti|uro|eu|ewe|one\b|once\b)", re.I)


def article(word: str) -> str:
    """'a' or 'an' for how ``word`` is spoken: an HTML, a URL, an hour, a unicorn, an API."""
    token = word.strip().split(" ", 1)[0].strip("*_`'\"(")
    if not token:
        return "a"
    letters = re.sub(r"[^A-Za-z]", "", token)
    if len(letters) >= 2 and letters.isupper() or len(letters) == 1:  # an acronym: said by its letters
        return "an" if letters[0].upper() in _VOWEL_SOUND_LETTERS else "a"
    lower = token.lower()
    if token[0].isdigit():
        return "an" if re.match(r"(?:8|11|18)(?!\d{2})", token) else "a"
    if lower.startswith(_SILENT_H):
        return "an"
    if _YOU_SOUND.match(lower):
        return "a"
    return "an" if lower[0] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """'an HTML project', 'a Go project'."""
    return f"{article(phrase)} {phrase}"


# -- the user's request ------------------------------------------------------------------------------

_LEADING = re.compile(
    r"^\s*(?:(?:please|hey|hi|ok|okay|so|now)\b[\s,]*)*(?:(?:can|could|would|will) you\s+)?"
    r"(?:(?:find|search(?: for)?|look(?:ing)? for|show|list|get|give|recommend|suggest|i need|i want|"
    r"we need|we want|i'm looking for|we're looking for|what are|which are|are there|is there|"
    r"any|tell me about)\b\s*)+"
    r"(?:(?:me|us)\b\s*)?",
    re.I,
)
_DETERMINERS = re.compile(r"^(?:(?:a|an|the|some|any|few|a few|good|great|popular|best|top|me|us)\b\s*)+", re.I)
_PLURAL_NOUN = re.compile(
    r"(?:ies|[^s]s|alternatives|tools|apps|frameworks|libraries|projects|repos|repositories|options)$", re.I
)

_MODIFIER = re.compile(
    r"\b(?:in|for|with|without|written|that|which|who|to|on|by|from|under|over|like|than|and|or|but)\b", re.I
)


def request_words(request: str) -> str:
    """The subject of a request, in the user's words: 'show me a vector database' ->
    'vector database'; 'find React state management libraries' -> 'React state management
    libraries'. Empty when nothing is left."""
    text = " ".join(request.split()).strip(" ?.!")
    text = _LEADING.sub("", text)
    return _DETERMINERS.sub("", text).strip(" ?.!,")


def request_topic(request: str) -> str:
    """How a reply refers back to an earlier search: 'the React state management libraries we
    found', 'the vector database repositories we found' (for 'show me a vector database'), or
    'the results for *static site generator written in Go*' when the request is more than a noun
    phrase (never 'the a static site generator written in Go repositories')."""
    words = request_words(request)
    if not words:
        return "the results we found"
    if _PLURAL_NOUN.search(words.split()[-1]):
        return f"the {words} we found"
    if _MODIFIER.search(words):
        return f"the results for *{words}*"
    return f"the {words} repositories we found"
