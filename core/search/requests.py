"""Two search requests that are not plain queries: "show me more" and "alternatives to X".

- *More*: the previous parameters again, skipping the repositories already shown; also "show the
  closest matches anyway" after a search where nothing fitted. Either way the best matches are not
  what is asked for, so the rest are not held to the match gate.
- *Alternatives to X* (also "similar to X", "like X", "instead of X", "replacement for X"): the
  concepts of X's own description and topics, in X's language, without X itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.models import Repository, SearchParams
from core.search.translator import RuleBasedTranslator
from core.search.language import written_in
from core.search.vocabulary import DESCRIPTION_NOISE, KIND_OF_SOFTWARE_AFTER, LANGUAGES

_MORE = re.compile(
    r"^\s*(?:please\s+)?(?:show|give|find|get|list|any)?\s*(?:me\s+)?(?:some\s+)?"
    r"(?:more|other|next|additional|further)(?:\s+(?:results?|ones?|repos?|repositories|options|"
    r"libraries|projects|like (?:these|those|this|that)|please))*\s*[.!?]*\s*$"
)
CLOSEST_ANYWAY = "Show the closest matches anyway"
_CLOSEST = re.compile(
    r"^\s*(?:please\s+)?(?:show|give|list|find)\s+(?:me\s+)?(?:the\s+|what\s+)?(?:closest|nearest)"
    r"(?:\s+(?:matches|match|ones?|results?|repos?|repositories|things?|you\s+have|you\s+found))*"
    r"(?:\s+(?:anyway|anyways|regardless|then|please))*\s*[.!?]*\s*$"
)
_ALTERNATIVES = re.compile(
    r"\b(?:alternatives?\s+(?:to|for)|similar\s+to|(?:projects|repos|libraries|tools)\s+like|"
    r"instead\s+of|replacements?\s+for|competitors?\s+(?:of|to)|something\s+like)\s+"
    r"(?:https?://github\.com/)?([\w.\-]+(?:/[\w.\-]+|\+\+|#)?)",
    re.I,
)
# "something like netcat or curl but for websockets", "htop but for GPUs": the named tool's
# counterpart for something else, which neither does what it does nor shares its language
_COUNTERPART = re.compile(r"^(?:\s*(?:,|or|and)\s*[\w.\-]+)*\s*,?\s*but\s+for\b", re.I)
_BARE_ALTERNATIVES = re.compile(
    r"^\s*(?:(?:show|give|find|get|list|any|some|other|me|please|are there)\s+)*"
    r"(?:alternatives?|similar (?:ones|repos|repositories|projects|libraries|tools)|something similar)"
    r"(?:\s+(?:to (?:it|this|that|this one|that one)|please))?\s*[?.!]*\s*$"
)
_MAX_DESCRIPTION_CONCEPTS = 6


def is_bare_alternatives_request(text: str) -> bool:
    """ "show me alternatives", "similar ones?", "alternatives to it" -- the object is the context."""
    return bool(_BARE_ALTERNATIVES.match(text.lower()))


def is_more_request(text: str) -> bool:
    lowered = text.lower()
    return bool(_MORE.match(lowered) or _CLOSEST.match(lowered))


def alternatives_target(text: str, resolved: Sequence[str] = ()) -> str | None:
    """The repository whose alternatives are asked for: the owner/name written in the message, a
    full name the classifier resolved for the named token, else the bare token itself."""
    m = _ALTERNATIVES.search(text)
    if not m or KIND_OF_SOFTWARE_AFTER.match(text[m.end():]) or _COUNTERPART.match(text[m.end():]):
        return None
    token = m.group(1).rstrip(".?!,").removesuffix(".git")
    if "/" in token:
        return token
    if _other_language(text, token):
        return None  # "a native addon in rust instead of c++": the language is swapped, no repository
    lowered = token.lower()
    return next((name for name in resolved if name.split("/")[-1].lower() == lowered), token)


def _other_language(text: str, token: str) -> bool:
    """Whether ``token`` is a programming language and the message asks for another one."""
    named = LANGUAGES.get(token.lower())
    wanted = written_in(text.lower()) if named else None
    return wanted is not None and named not in wanted[0]


def params_like(repo: Repository, rules: RuleBasedTranslator, text: str) -> SearchParams:
    """Search parameters for repositories that do what ``repo`` does."""
    described = rules.translate_sync(repo.description or repo.name)
    own_name = {repo.name.lower(), repo.owner.lower()}
    keywords = [k for k in described.keywords if k not in DESCRIPTION_NOISE and k not in own_name]
    params = SearchParams(
        text=text.strip(),
        keywords=keywords[:_MAX_DESCRIPTION_CONCEPTS],
        synonym_groups=described.synonym_groups,
        phrases=described.phrases,
        language=repo.language,
    )
    if repo.topics:
        params.synonym_groups = [*params.synonym_groups, list(repo.topics[:8])]
    if not (params.keywords or params.synonym_groups or params.phrases):
        params.keywords = [repo.name]
    asked = rules.translate_sync(_ALTERNATIVES.sub(" ", text))  # "... in python", "... under 1k stars"
    for field in ("language", "min_stars", "max_stars", "pushed_after", "created_after", "limit"):
        if field in asked.model_fields_set or getattr(asked, field) != SearchParams.model_fields[field].default:
            setattr(params, field, getattr(asked, field))
    return params
