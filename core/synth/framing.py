"""The lines around an answer: the follow-up acknowledgement and the notes about the data.

"Following up on the React libraries we found..." is said only when the answer really builds
on the previous result: it targets repositories from it, or the message reads as a follow-up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.models import (
    Clarification,
    Comparison,
    RepoDetailData,
    RepoList,
    ResultMeta,
    StructuredData,
    structured_repo_names,
)
from core.search.need import is_spoken
from core.synth.base import SynthesisContext
from core.synth.format import one_line, truncate
from core.synth.phrases import join_words, plural, request_topic

SPOKEN_TOPIC = 100  # characters of a spoken request quoted back

_FOLLOW_UP_CUES = re.compile(
    r"^(and|also|but|now|then|ok|okay|so)\b|\b(what|how) about\b|\binstead\b|\bonly\b|\bsame\b"
    r"|\b(those|these|them|that one|this one|it|more|another|other|else|similar)\b",
    re.IGNORECASE,
)


def _previous_query(ctx: SynthesisContext) -> str | None:
    if ctx.previous_query:
        return ctx.previous_query
    meta = ctx.previous.meta if ctx.previous is not None else None
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
        if query and is_spoken(query):  # a sentence: quoted, never "the our Datadog bill ... we found"
            return f"the results for *{truncate(query.strip().rstrip('?.!'), SPOKEN_TOPIC)}*"
        if query:
            return request_topic(query)
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


def _answers(message: str, question: Clarification) -> bool:
    """The message picks one of the options (clicked, typed, or quoted in a longer sentence)."""
    said = " ".join(message.lower().split())
    for option in question.options:
        option = " ".join(option.lower().split())
        if option and (option in said or (len(said) > 3 and said in option)):
            return True
    return False


def follow_up_line(ctx: SynthesisContext, data: StructuredData | None) -> str | None:
    """An italic opening line acknowledging the context, or None for a fresh topic."""
    if isinstance(ctx.previous, Clarification):
        answered = not isinstance(data, Clarification) and _answers(ctx.message, ctx.previous)
        return "_Thanks for clarifying._" if answered else None
    if not builds_on_previous(ctx, data):
        return None
    topic = _previous_topic(ctx)
    return f"_Following up on {topic}..._" if topic else None


_REPO_PREFIX = re.compile(r"^([\w.-]+/[\w.-]+): (.+)$", re.DOTALL)


def _grouped_notes(notes: list[str], subjects: Sequence[str]) -> list[str]:
    """Identical notes about several repos ("a/b: X", "c/d: X") become one ("a/b and c/d: X");
    the prefix is dropped when it names every repository the answer is about."""
    by_text: dict[str, list[str]] = {}
    for raw in notes:
        note = one_line(raw)
        if not note:
            continue
        match = _REPO_PREFIX.match(note)
        names = by_text.setdefault(match[2] if match else note, [])
        if match and match[1] not in names:
            names.append(match[1])
    lines: list[str] = []
    for text, names in by_text.items():
        text = text[0].upper() + text[1:]
        if names and sorted(n.lower() for n in names) != sorted(s.lower() for s in subjects):
            text = f"{join_words(names)}: {text}"
        lines.append(text if text[-1] in ".!?" else f"{text}.")
    return lines


def source_notes(
    meta: ResultMeta | None, *, partial: bool = False, subjects: Sequence[str] = ()
) -> list[str]:
    """Where the data came from, what was relaxed, and what is missing, as italic lines.

    ``partial`` (the agent's flag) and ``meta.partial`` give one line; the notes say why.
    """
    if meta is None:
        meta = ResultMeta()
    lines = [f"_Note: {note}_" for note in _grouped_notes(meta.notes, subjects)]
    if meta.partial or partial:
        lines.append("_Some data could not be fetched or measured, so parts of this answer are incomplete._")
    if meta.source == "catalog":
        when = f" taken on {meta.snapshot_date.isoformat()}" if meta.snapshot_date else ""
        lines.append(
            f"_This comes from an offline snapshot of GitHub{when}, not live data, "
            "so the numbers may have changed since._"
        )
    return lines
