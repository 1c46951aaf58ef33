"""Revise feedback read as instructions: what to add, what to leave out, how to narrow.

"search for feature flag and feature toggle projects, leave out archived ones" means: search for
"feature flag" and for "feature toggle", and drop archived repositories. It must not be mined for
words ("open toggle ones" was a real query). Every instruction is recognised by its verb; what is
left over only narrows the queries ("focus on bundle size").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.research.concepts import concept_of
from core.research.queries import LANGUAGES, is_technology, keywords

_VERBS = r"(?:leave|drop|exclude|skip|remove|ignore|avoid|no |not |without|only|also|add|include|search|look|focus|narrow|limit|stick)"
_CLAUSES = re.compile(rf"[.;!?\n]|,\s*(?=(?:and\s+)?(?:please\s+)?{_VERBS}\b)|\s+(?:and|but)\s+(?=(?:please\s+)?{_VERBS}\b)", re.I)
_ADD = re.compile(r"^(?:and\s+)?(?:please\s+)?(?:also\s+)?(?:search(?:\s+github)?\s+for|look\s+(?:at|for|into)|"
                  r"add|include|cover|consider|find|try)\s+(.+)$", re.I)
_EXCLUDE = re.compile(r"^(?:and\s+)?(?:please\s+)?(?:leave\s+out|drop|exclude|excluding|skip|remove|ignore|avoid|"
                      r"rule\s+out|no|not|without|except)\s+(?:the\s+|any\s+)?(.+)$", re.I)
_FOCUS = re.compile(r"^(?:and\s+)?(?:please\s+)?(?:focus\s+(?:on|more\s+on)|emphasi[sz]e|prioriti[sz]e|"
                    r"more\s+about|look\s+more\s+at)\s+(.+)$", re.I)
_ARCHIVED = re.compile(r"\b(?:archived|dead|abandoned|unmaintained|inactive)\b", re.I)
_ACTIVE_ONLY = re.compile(r"\bonly\s+(?:active|maintained|living|alive)\b", re.I)
_LANGUAGE = re.compile(r"\b(?:only|just|narrow\s+(?:it\s+)?(?:down\s+)?to|limit\s+(?:it\s+)?to|stick\s+to|"
                       r"written\s+in|in)\s+([\w+#]+)", re.I)
_PARTS = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\band\b|\bor\b|&)\s*", re.I)
_TRAILING = re.compile(r"\b(?:projects?|repos?|repositories|ones?|libraries|library|tools?|options?|too|as well|"
                       r"instead|please)\b", re.I)


@dataclass
class Revision:
    """All feedback so far, as instructions for the planner."""

    added: list[str] = field(default_factory=list)  # terms to search for, each on its own
    excluded: set[str] = field(default_factory=set)  # words no query may contain
    focus: list[str] = field(default_factory=list)  # words that narrow the queries
    exclude_archived: bool = False
    language: str | None = None


def _terms(phrase: str, original: str) -> list[str]:
    """"feature flag and feature toggle projects" -> ["feature flag", "feature toggle"]."""
    phrase = _TRAILING.sub(" ", phrase)
    terms: list[str] = []
    for part in _PARTS.split(phrase):
        part = " ".join(part.split()).strip(" ,.'\"")
        if not part:
            continue
        concept = concept_of(part)
        if concept:
            terms.append(concept)
            continue
        words = keywords(part, limit=3)
        if words and (len(words) == 1 or all(not is_technology(w, original) for w in words)):
            terms.append(" ".join(words))
        else:
            terms += words
    return [t for t in dict.fromkeys(terms) if t]


def _language(text: str, original: str) -> str | None:
    for match in _LANGUAGE.finditer(text):
        word = match.group(1).lower()
        if word in LANGUAGES and (word != "go" or is_technology(word, original)):
            return LANGUAGES[word]
    return None


def read_revision(feedback: list[str]) -> Revision:
    """Every feedback message, oldest first; a later instruction adds to the earlier ones."""
    revision = Revision()
    for text in feedback:
        for clause in filter(None, (c.strip() for c in _CLAUSES.split(text))):
            _apply(revision, clause, text)
    revision.added = [t for t in revision.added if t not in revision.excluded]
    return revision


def _apply(revision: Revision, clause: str, original: str) -> None:
    language = _language(clause, original)
    if language:
        revision.language = language
    if _ACTIVE_ONLY.search(clause):
        revision.exclude_archived = True
    excluded = _EXCLUDE.match(clause)
    if excluded:
        target = excluded.group(1)
        if _ARCHIVED.search(target):
            revision.exclude_archived = True
            target = _ARCHIVED.sub(" ", target)
        revision.excluded |= {w for t in _terms(target, original) for w in [t, *t.split()]}
        return
    added = _ADD.match(clause)
    if added:
        revision.added += [t for t in _terms(added.group(1), original) if t not in revision.added]
        return
    focus = _FOCUS.match(clause)
    words = keywords(focus.group(1) if focus else clause)
    revision.focus += [w for w in words if w not in revision.focus]
