"""Deterministic reference resolution: mentions + the latest results -> full names (or a problem).

Usable on its own (the LLM cascade picks the intent elsewhere and still resolves here):

    resolution = ReferenceResolver(finder).resolve(message, context, Intent.ANALYZE)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from core.classifier.context import ThreadContext
from core.classifier.mentions import Mention, MentionFinder, MentionKind
from core.models import Intent

MAX_TARGETS = 10
_REFERENCE_KINDS = {
    MentionKind.POSITION, MentionKind.RANGE, MentionKind.BOTH, MentionKind.ALL, MentionKind.OTHERS,
    MentionKind.PRONOUN,
}


class Problem(StrEnum):
    NO_REFERENT = "no_referent"  # "the second one" with nothing listed before
    OUT_OF_RANGE = "out_of_range"  # "the sixth one" after five results
    AMBIGUOUS = "ambiguous"  # "it" after a list of five
    NO_TARGET = "no_target"  # "analyze" with nothing to analyze
    TOO_FEW = "too_few"  # compare with fewer than two repositories


@dataclass
class Resolution:
    repos: list[str] = field(default_factory=list)
    problem: Problem | None = None
    detail: str = ""
    mentions: list[Mention] = field(default_factory=list)

    @property
    def asks_for_zeroth(self) -> bool:
        return any(m.kind is MentionKind.POSITION and 0 in m.positions for m in self.mentions)

    @property
    def has_reference(self) -> bool:
        return any(m.kind in _REFERENCE_KINDS for m in self.mentions)


def _describe(m: Mention, names: Sequence[str]) -> str:
    return f"'{m.text}' -> {', '.join(names)}"


class ReferenceResolver:
    def __init__(self, finder: MentionFinder) -> None:
        self.finder = finder

    def mentions(self, message: str, context: ThreadContext, *, lenient: bool = False) -> list[Mention]:
        return self.finder.find(_without_need(message), context.known_names, lenient=lenient)

    def bare_selection(self, message: str, context: ThreadContext) -> Intent | None:
        """"the top 3 for a startup", "the second one for production": a message that is only a
        selection of the listed results (plus a need) asks to compare a range or analyze one."""
        if not context.referents:
            return None
        mentions = self.mentions(message, context)
        if len(mentions) != 1 or mentions[0].kind not in (MentionKind.RANGE, MentionKind.POSITION):
            return None
        text = _without_need(message)
        rest = (text[: mentions[0].start] + " " + text[mentions[0].end :]).lower()
        if any(word not in _SELECTION_FILLER for word in re.findall(r"[a-z0-9']+", rest)):
            return None
        return Intent.COMPARE if mentions[0].kind is MentionKind.RANGE else Intent.ANALYZE

    def resolve(self, message: str, context: ThreadContext, intent: Intent) -> Resolution:
        """Resolve what ``message`` targets for ``intent`` (analyze/compare use every form)."""
        mentions = self.mentions(message, context)
        if intent in (Intent.ANALYZE, Intent.COMPARE):
            needed = 2 if intent is Intent.COMPARE else 1
            named = [m for m in mentions if m.kind in (MentionKind.EXPLICIT, MentionKind.NAME)]
            if len(named) < needed and not any(m.kind in _REFERENCE_KINDS for m in mentions):
                lenient = self.mentions(message, context, lenient=True)
                if len(lenient) > len(mentions):
                    mentions = lenient
            elif intent is Intent.COMPARE and named:
                mentions = self._complete_list(message, context, mentions)
            if intent is Intent.ANALYZE:
                mentions = self._without_setting(message, mentions)
        else:
            # Searches and chat only carry explicit owner/name references ("alternatives to a/b").
            explicit = [m for m in mentions if m.kind is MentionKind.EXPLICIT]
            return Resolution(repos=_dedupe(m.full_name or "" for m in explicit), mentions=mentions)
        resolution = self._resolve_mentions(mentions, context)
        if resolution.problem is None:
            self._complete(resolution, context, intent)
        return resolution

    def _without_setting(self, message: str, mentions: list[Mention]) -> list[Mention]:
        """"does it work with react native?", "is zustand any good for next.js?": a platform named
        after "with", "for", "on"... is where the analysed repository would be used, not a second
        target, when something else is the target."""
        vocabulary = self.finder.vocabulary
        setting = [m for m in mentions if m.kind is MentionKind.NAME and not m.in_context
                   and vocabulary.is_platform(m.text) and _SETTING_LEAD.search(message[: m.start])]
        rest = [m for m in mentions if m not in setting]
        if setting and any(m.kind in (*_REFERENCE_KINDS, MentionKind.EXPLICIT, MentionKind.NAME) for m in rest):
            return rest
        return mentions

    def _complete_list(self, message: str, context: ThreadContext, mentions: list[Mention]) -> list[Mention]:
        """"bun vs deno vs node": a common word ("node") is a name when it is an item of a list of
        names being compared, joined to a name by "vs", "," "and" or "or"."""
        found = {(m.start, m.end) for m in mentions}
        lenient = self.mentions(message, context, lenient=True)
        names = [m for m in lenient if m.kind in (MentionKind.EXPLICIT, MentionKind.NAME)]
        extra = [m for m in names if (m.start, m.end) not in found and any(
            (n.start, n.end) in found and _LIST_JOIN.match(_between(message, m, n)) for n in names)]
        if not extra:
            return mentions
        return sorted([*mentions, *extra], key=lambda m: m.start)

    def _resolve_mentions(self, mentions: list[Mention], context: ThreadContext) -> Resolution:
        referents = list(context.referents)
        repos: list[str] = []
        details: list[str] = []
        named = any(m.kind in (MentionKind.EXPLICIT, MentionKind.NAME) for m in mentions)
        for m in mentions:
            if m.kind is MentionKind.PRONOUN and (repos or (named and not context.focus)):
                # "sqlalchemy, worth it?" ("it" is the name just said) and "how risky is it to
                # build on langchain?" (no referent meant): the named repository is the target.
                continue
            if m.kind in (MentionKind.EXPLICIT, MentionKind.NAME):
                repos.append(m.full_name or m.text)
                details.append(_describe(m, [m.full_name or m.text]))
                continue
            if m.kind is MentionKind.POSITION and 0 in m.positions:
                return Resolution(problem=Problem.OUT_OF_RANGE, mentions=mentions,
                                  detail=f"'{m.text}' is out of range: positions start at 1")
            if not referents:
                return Resolution(problem=Problem.NO_REFERENT, mentions=mentions,
                                  detail=f"'{m.text}' refers to earlier results, but there are none")
            picked = self._pick(m, referents, repos, context)
            if isinstance(picked, Resolution):
                picked.mentions = mentions
                return picked
            repos.extend(picked)
            details.append(_describe(m, picked))
        return Resolution(repos=_dedupe(repos)[:MAX_TARGETS], detail="; ".join(details), mentions=mentions)

    def _pick(
        self, m: Mention, referents: list[str], already: list[str], context: ThreadContext
    ) -> list[str] | Resolution:
        n = len(referents)
        if m.kind in (MentionKind.POSITION, MentionKind.RANGE):
            out: list[str] = []
            for pos in m.positions:
                index = pos - 1 if pos > 0 else n + pos
                if not 0 <= index < n:
                    return Resolution(problem=Problem.OUT_OF_RANGE,
                                      detail=f"'{m.text}' is out of range: the last results had {n}")
                out.append(referents[index])
            return out
        if m.kind is MentionKind.BOTH:
            if n == 2:
                return list(referents)
            return Resolution(problem=Problem.AMBIGUOUS,
                              detail=f"'{m.text}' is unclear: the last results had {n}")
        if m.kind is MentionKind.ALL:
            return referents[:MAX_TARGETS]
        if m.kind is MentionKind.OTHERS:
            return [r for r in referents if r not in already][:MAX_TARGETS]
        # singular pronoun
        if context.focus:
            return [context.focus]
        if n == 1:
            return list(referents)
        return Resolution(problem=Problem.AMBIGUOUS,
                          detail=f"'{m.text}' could be any of the {n} repositories listed")

    def _complete(self, resolution: Resolution, context: ThreadContext, intent: Intent) -> None:
        """Fill implicit targets ("tell me more", "which is better?") or report what is missing."""
        repos, referents = resolution.repos, context.referents
        if intent is Intent.ANALYZE:
            if repos:
                return
            if context.focus or len(referents) == 1:
                resolution.repos = [context.focus or referents[0]]
                resolution.detail = f"no explicit target: the repository in context ({resolution.repos[0]})"
            elif referents:
                resolution.problem = Problem.AMBIGUOUS
                resolution.detail = f"no explicit target among the {len(referents)} repositories listed"
            else:
                resolution.problem = Problem.NO_TARGET
                resolution.detail = "no repository named and none in context"
            return
        # compare
        if len(repos) >= 2:
            return
        if len(repos) == 1:
            if context.data_type == "comparison" and referents:  # "add jotai to the comparison"
                resolution.repos = _dedupe([*referents, repos[0]])[:MAX_TARGETS]
                if len(resolution.repos) >= 2:
                    resolution.detail = f"{resolution.detail}; added to the previous comparison".lstrip("; ")
                    return
            partner = context.focus or (referents[0] if len(referents) == 1 else None)
            if partner and partner.lower() != repos[0].lower():
                resolution.repos = [partner, repos[0]]
                resolution.detail = f"{resolution.detail}; compared with {partner} from context".lstrip("; ")
            else:
                resolution.problem = Problem.TOO_FEW
                resolution.detail = f"only {repos[0]} to compare"
            return
        if 2 <= len(referents):
            resolution.repos = list(referents[:MAX_TARGETS])
            resolution.detail = f"no explicit targets: all {len(resolution.repos)} repositories in context"
        else:
            resolution.problem = Problem.TOO_FEW
            resolution.detail = "fewer than two repositories to compare"


# "compare the first two for a small team": the stated need ends the selection; it is blanked out
# (same length, so mention offsets still point into the message) before references are read
_NEED_CLAUSE = re.compile(
    r"(?<=\S)\s+(?:for|to suit|suited to|suitable for|best for|good for)\s+(?!me\b|us\b|you\b)"
    r"(?:an?|the|my|our|your)?\s*[a-z0-9][\w '\-]{1,50}[?.!]*\s*$",
    re.I,
)


def _without_need(message: str) -> str:
    match = _NEED_CLAUSE.search(message)
    if match is None or "/" in match.group(0):  # "for owner/name" names a target
        return message
    return message[: match.start()] + " " * (match.end() - match.start())


_SETTING_LEAD = re.compile(r"\b(?:with|for|on|in|inside|under|supports?|using)\s+(?:a\s+|an\s+|my\s+|our\s+)?$", re.I)

_SELECTION_FILLER = frozenset("the and please pls just only ones one now then ok okay so what about how".split())

_LIST_JOIN = re.compile(r"^\s*(?:,|&|and|or|vs\.?|versus|,\s*and|,\s*or)\s*$", re.I)


def _between(message: str, a: Mention, b: Mention) -> str:
    first, second = (a, b) if a.start < b.start else (b, a)
    return message[first.end : second.start]


def _dedupe(names) -> list[str]:  # type: ignore[no-untyped-def]
    seen: dict[str, str] = {}
    for name in names:
        if name and name.lower() not in seen:
            seen[name.lower()] = name
    return list(seen.values())
