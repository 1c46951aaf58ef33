"""The lines around an answer: the follow-up acknowledgement and the notes about the data.

"Following up on the React libraries we found..." is said only when the answer really builds
on the previous result: it targets repositories from it, or the message reads as a follow-up.
"""

from __future__ import annotations

import re

from core.models import (
    Clarification,
    Comparison,
    RepoDetailData,
    RepoList,
    ResultMeta,
    StructuredData,
    structured_repo_names,
)
from core.synth.base import SynthesisContext
from core.synth.format import join_words, plural, sentence

_FOLLOW_UP_CUES = re.compile(
    r"^(and|also|but|now|then|ok|okay|so)\b|\b(what|how) about\b|\binstead\b|\bonly\b|\bsame\b"
    r"|\b(those|these|them|that one|this one|it|more|another|other|else|similar)\b",
    re.IGNORECASE,
)
_LEADING_VERBS = re.compile(
    r"^\s*(please\s+)?(can you\s+|could you\s+)?(find|search( for)?|look( for)?|show( me)?|list|"
    r"get( me)?|give me|recommend|suggest|i need|i want|i'm looking for|looking for|what are( the)?|"
    r"which are( the)?)\s+(some\s+|the\s+|a few\s+|good\s+|popular\s+|best\s+)*",
    re.IGNORECASE,
)


def query_phrase(query: str) -> str:
    """'find React state management libraries' -> 'React state management libraries';
    'state management' -> 'state management repositories'."""
    phrase = _LEADING_VERBS.sub("", query.strip()).strip(" ?.!")
    if not phrase:
        return "repositories"
    last = phrase.split()[-1].lower()
    if not (last.endswith("s") and len(last) > 3):
        phrase = f"{phrase} repositories"
    return phrase


def _previous_query(ctx: SynthesisContext) -> str | None:
    if ctx.previous_query:
        return ctx.previous_query
    meta = getattr(ctx.previous, "meta", None)
    if meta is not None:
        if meta.query:
            return meta.query
        if meta.search_params is not None and meta.search_params.text:
            return meta.search_params.text
    return None


def _previous_topic(ctx: SynthesisContext) -> str | None:
    previous = ctx.previous
    if isinstance(previous, RepoList):
        query = _previous_query(ctx)
        if query:
            return f"the {query_phrase(query)} we found"
        if previous.items:
            return f"the {plural(len(previous.items), 'repository', 'repositories')} we found"
        return None
    if isinstance(previous, RepoDetailData):
        return f"our look at {previous.repo.full_name}"
    if isinstance(previous, Comparison) and previous.items:
        return f"the comparison of {join_words([r.repo.full_name for r in previous.items])}"
    return None


def builds_on_previous(ctx: SynthesisContext, data: StructuredData | None) -> bool:
    if ctx.previous is None or isinstance(ctx.previous, Clarification):
        return False
    earlier = set(structured_repo_names(ctx.previous))
    if isinstance(data, (RepoDetailData, Comparison)) and earlier & set(structured_repo_names(data)):
        return True
    return bool(_FOLLOW_UP_CUES.search(ctx.message))


def follow_up_line(ctx: SynthesisContext, data: StructuredData | None) -> str | None:
    """An italic opening line acknowledging the context, or None for a fresh topic."""
    if isinstance(ctx.previous, Clarification) and not isinstance(data, Clarification):
        return "_Thanks for clarifying._"
    if not builds_on_previous(ctx, data):
        return None
    topic = _previous_topic(ctx)
    return f"_Following up on {topic}..._" if topic else None


def source_notes(meta: ResultMeta | None) -> list[str]:
    """Where the data came from and what was relaxed or cut short, as italic lines."""
    if meta is None:
        return []
    lines: list[str] = []
    for note in meta.notes:
        if note.strip():
            lines.append(f"_Note: {sentence(note)}_")
    if meta.partial:
        lines.append(
            "_Some results may be missing: the work was cut short by a time limit or by "
            "GitHub's rate limit (a cap on how many requests we may make per hour)._"
        )
    if meta.source == "catalog":
        when = f" taken on {meta.snapshot_date.isoformat()}" if meta.snapshot_date else ""
        lines.append(
            f"_This comes from an offline snapshot of GitHub{when}, not live data, "
            "so the numbers may have changed since._"
        )
    return lines
