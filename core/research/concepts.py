"""Multi-word concepts that must stay whole in research keywords, and filler that must go.

"feature flag", "state management", "vector database" are one subject each: split into words
they lose their meaning ("open source feature" was a real query). "open source", "for a 10
person startup" and "services" describe the team or the kind of answer, not the subject: they
are removed before keywords are taken (the need, "a small team", is read separately by
``core.analysis.need`` and weighs the answer).
"""

from __future__ import annotations

import re

CONCEPTS: tuple[str, ...] = tuple(
    phrase.strip() for phrase in """
    feature flag|feature toggle|state management|vector database|vector search|static site generator
    web framework|message queue|message broker|task queue|job queue|workflow engine|workflow orchestration
    design system|component library|ui library|ui kit|headless cms|time series database|graph database
    key value store|object storage|service mesh|package manager|build tool|build system|test runner
    end to end testing|unit testing|load testing|error tracking|log management|api gateway|load balancer
    search engine|full text search|rate limiter|rate limiting|password manager|secret management
    secrets management|identity provider|single sign on|access control|web scraping|computer vision
    natural language processing|large language model|language model|speech recognition|text to speech
    image generation|text editor|code editor|rich text editor|game engine|data visualization
    dependency injection|form validation|date picker|infrastructure as code|continuous integration
    continuous delivery|static analysis|code formatter|type checker|machine learning|deep learning
    reinforcement learning|data pipeline|data warehouse|change data capture|stream processing
    event sourcing|background jobs|cron jobs|email delivery|push notifications|payment processing
    note taking|screen recording|video editing|home automation|self hosted|command line|terminal emulator
    window manager|file sync|file sharing|password hashing|authentication library|web server
    reverse proxy|http client|orm library|query builder|schema migration|database migration
    real time|chat app|video conferencing|project management|issue tracker|knowledge base
    """.replace("\n", "|").split("|") if phrase.strip()
)
_CONCEPT = re.compile(
    r"\b(" + "|".join(
        re.escape(c.strip()).replace(r"\ ", r"[\s-]+") + "(?:e?s)?" for c in sorted(CONCEPTS, key=len, reverse=True)
    ) + r")\b",
    re.IGNORECASE,
)
FILLER = re.compile(
    r"\bopen[\s-]?source\b|\bfree and open\b|\bself[\s-]hosted\b(?=.*\b(?:alternative|option)s?\b)|"
    r"\bfor (?:a|an|our|my|the)?\s*(?:\d+|small|tiny|large|big|growing|new|early[\s-]stage)?[\s-]*"
    r"(?:person|people|member|developer|dev|engineer|man)?[\s-]*(?:startups?|teams?|compan(?:y|ies)|"
    r"org(?:anisation|anization)?s?|shops?|business(?:es)?|enterprises?)\b|"
    r"\b(?:services?|solutions?|offerings?|products?|platforms?)\b(?=\s*(?:for|that|which|to|$|[?.!,]))",
    re.IGNORECASE,
)


def concept_of(text: str) -> str | None:
    """The concept ``text`` is, singular and lower-case ("Feature Flags" -> "feature flag")."""
    match = _CONCEPT.fullmatch(text.strip())
    return _normal(match.group(0)) if match else None


def _normal(phrase: str) -> str:
    words = re.split(r"[\s-]+", phrase.lower())
    canonical = next((c for c in CONCEPTS if c.split() == words[:-1] + [words[-1]]), None)
    if canonical:
        return canonical
    last = words[-1]
    for ending in ("es", "s"):
        stem = " ".join(words[:-1] + [last[: -len(ending)]])
        if stem in CONCEPTS:
            return stem
    return " ".join(words)


def split_concepts(text: str) -> tuple[list[str], str]:
    """(the concepts in ``text`` in order, the text with them and the filler blanked out)."""
    text = FILLER.sub(" ", text)
    found: list[str] = []
    for match in _CONCEPT.finditer(text):
        concept = _normal(match.group(0))
        if concept not in found:
            found.append(concept)
    return found, _CONCEPT.sub(" ", text)
