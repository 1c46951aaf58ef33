"""Find what a message points at: ordinals, pronouns, plural references and repository names.

Pure pattern matching, no context needed except for names (matched against the last results,
then a ``RepoNameIndex``). ``core.classifier.references`` turns mentions into full names.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.classifier.base import RepoNameIndex
from core.classifier.names import name_key, resolve_name
from core.classifier.patterns import (
    ALL_RE,
    ALL_SHORT_RE,
    BARE_NUMBERS_RE,
    BOTH_RE,
    CONNECTOR,
    FLAGS,
    FULL_RE,
    LAST_NOT_REF,
    MARKER_RE,
    OTHERS_RE,
    POSITION_RE,
    POSSESSIVE,
    PRONOUN_AFTER_VERB,
    PRONOUN_RE,
    RANGE_RE,
    REF_LEAD,
    SLASH_WORDS,
    TOKEN_RE,
    URL_RE,
    number,
    ordinal_value,
)
from core.classifier.vocabulary import Vocabulary


class MentionKind(StrEnum):
    EXPLICIT = "explicit"  # owner/name or a GitHub URL
    NAME = "name"  # a bare name such as "zustand"
    POSITION = "position"  # "the second one", "#2", "number 4", "the last one"
    RANGE = "range"  # "the first two", "top 3"
    BOTH = "both"
    ALL = "all"  # "all of them", "them", "these"
    OTHERS = "others"  # "the others", "the rest"
    PRONOUN = "pronoun"  # "it", "that one", "this repo"


@dataclass(frozen=True)
class Mention:
    kind: MentionKind
    start: int
    end: int
    text: str
    positions: tuple[int, ...] = ()  # 1-based; negative counts from the end (-1 = the last one)
    full_name: str | None = None  # EXPLICIT and NAME
    count: int = 0  # RANGE: how many; sign of positions[0] says from which end
    in_context: bool = False  # EXPLICIT/NAME: the repository is one of the last results
    known: bool = True  # EXPLICIT: a link, one of the last results, or an owner/name the name index knows


class MentionFinder:
    """Finds mentions in one message; names are looked up in ``referents`` then ``index``.

    ``fuzzy_names`` (name key -> full name) lets the lenient pass forgive one typo ("zustnad").
    """

    def __init__(
        self, vocabulary: Vocabulary, index: RepoNameIndex | None, fuzzy_names: Mapping[str, str] | None = None
    ) -> None:
        self.vocabulary = vocabulary
        self.index = index
        self.fuzzy_names = dict(fuzzy_names or {})

    def find(self, text: str, referents: Sequence[str] = (), *, lenient: bool = False) -> list[Mention]:
        found: list[Mention] = []
        taken = [False] * (len(text) + 1)

        def add(m: Mention) -> None:
            if m.end <= m.start or any(taken[m.start : m.end]):
                return
            for i in range(m.start, m.end):
                taken[i] = True
            found.append(m)

        for m in self._explicit(text, referents):
            add(m)
        for m in self._positional(text):
            add(m)
        for m in self._plural_and_pronouns(text):
            add(m)
        for m in self._names(text, referents, taken, lenient=lenient):
            add(m)
        return sorted(found, key=lambda m: m.start)

    # -- explicit names ------------------------------------------------------------------------------

    def _explicit(self, text: str, referents: Sequence[str]) -> list[Mention]:
        by_lower = {r.lower(): r for r in referents}
        out: list[Mention] = []
        for match in URL_RE.finditer(text):
            owner, name = match.group(1), re.sub(r"(\.git)?[.,;:!?)]*$", "", match.group(2))
            full = f"{owner}/{name}"
            out.append(Mention(MentionKind.EXPLICIT, match.start(), match.end(), match.group(),
                               full_name=by_lower.get(full.lower(), full), in_context=full.lower() in by_lower))
        for match in FULL_RE.finditer(text):
            owner, name = match.group(1), match.group(2).rstrip(".")
            pair = f"{owner}/{name}".lower()
            if pair in SLASH_WORDS or owner.isdigit() or name.isdigit():
                continue
            if self.vocabulary.is_common(owner) and self.vocabulary.is_common(name) and pair not in by_lower:
                if not (self.index and self.index.resolve(pair)):
                    continue
            if pair not in by_lower and self._two_names(owner, name):
                continue  # "redux/zustand?": two names, not one repository
            if pair not in by_lower and self._variants(owner, name):
                continue  # "LoRA/QLoRA", "TLS/mTLS": one term and its variant
            known = by_lower.get(pair) or self._indexed(f"{owner}/{name}")
            out.append(Mention(MentionKind.EXPLICIT, match.start(), match.start() + len(owner) + 1 + len(name),
                               match.group()[: len(owner) + 1 + len(name)], full_name=known or f"{owner}/{name}",
                               in_context=pair in by_lower, known=known is not None))
        return out

    def _two_names(self, owner: str, name: str) -> bool:
        if self.index is None:
            return False
        try:
            if self.index.resolve(f"{owner}/{name}"):
                return False
        except Exception:
            return False
        return all(resolve_name(self.index, part) and not self.vocabulary.is_common(part) for part in (owner, name))

    def _variants(self, owner: str, name: str) -> bool:
        """One word and the same word with a letter or two more ("LoRA/QLoRA", "SQL/NoSQL"), and no
        repository of that full name known."""
        short, long = sorted((owner.lower(), name.lower()), key=len)
        if short == long or not long.isalpha() or len(long) - len(short) > 2 or short not in long:
            return False
        return not (self.index and self.index.resolve(f"{owner}/{name}"))

    def _indexed(self, full: str) -> str | None:
        """``full`` as the name index spells it, or None when the index does not know it."""
        if self.index is not None:
            try:
                known = self.index.resolve(full)
            except Exception:
                known = []
            for candidate in known:
                if candidate.lower() == full.lower():
                    return candidate
        return None

    # -- positions -----------------------------------------------------------------------------------

    def _positional(self, text: str) -> list[Mention]:
        out: list[Mention] = []
        bare = BARE_NUMBERS_RE.match(text)
        if bare:
            for num in re.finditer(r"\d{1,2}", bare.group(1)):
                start = bare.start(1) + num.start()
                out.append(Mention(MentionKind.POSITION, start, start + len(num.group()), num.group(),
                                   positions=(int(num.group()),)))
        for match in RANGE_RE.finditer(text):
            count = number(match.group(2))
            from_end = match.group(1).lower() in ("last", "bottom")
            positions = tuple(-i for i in range(count, 0, -1)) if from_end else tuple(range(1, count + 1))
            out.append(Mention(MentionKind.RANGE, match.start(), match.end(), match.group(),
                               positions=positions, count=count))
        for match in MARKER_RE.finditer(text):
            out.append(Mention(MentionKind.POSITION, match.start(), match.end(), match.group(),
                               positions=(int(match.group(1)),)))
        for match in POSITION_RE.finditer(text):
            if self._is_ordinal_reference(text, match):
                out.append(Mention(MentionKind.POSITION, match.start(), match.end(), match.group(),
                                   positions=(ordinal_value(match.group(2)),)))
        return out

    @staticmethod
    def _is_ordinal_reference(text: str, match: re.Match[str]) -> bool:
        before, after = text[: match.start()], text[match.end():]
        word = match.group(2).lower()
        if word.startswith("last") and LAST_NOT_REF.match(after):
            return False
        if word in ("top", "bottom") and not (match.group(3) and re.match(r"ones?\b|picks?\b|results?\b|options?\b|items?\b|entr", match.group(3), FLAGS)):
            return False  # "the top one", but not "top frameworks"
        if match.group(3):  # "the second one", "first repo"
            return not POSSESSIVE.search(before)
        if not re.match(rf"\s*(?:{CONNECTOR}|one\b)", after, FLAGS):
            return False
        return bool(match.group(1)) or bool(REF_LEAD.search(before)) or len(text.split()) <= 4

    # -- plural references and pronouns ----------------------------------------------------------------

    def _plural_and_pronouns(self, text: str) -> list[Mention]:
        out: list[Mention] = []
        for match in BOTH_RE.finditer(text):
            out.append(Mention(MentionKind.BOTH, match.start(), match.end(), match.group()))
        for match in OTHERS_RE.finditer(text):
            out.append(Mention(MentionKind.OTHERS, match.start(), match.end(), match.group()))
        short = ALL_SHORT_RE.match(text)
        if short:
            start = text.lower().rindex("all")
            out.append(Mention(MentionKind.ALL, start, start + 3, "all"))
        for match in ALL_RE.finditer(text):
            out.append(Mention(MentionKind.ALL, match.start(), match.end(), match.group()))
        for match in PRONOUN_AFTER_VERB.finditer(text):
            out.append(Mention(MentionKind.PRONOUN, match.start(1), match.end(1), match.group(1)))
        for match in PRONOUN_RE.finditer(text):
            out.append(Mention(MentionKind.PRONOUN, match.start(), match.end(), match.group()))
        return out

    # -- bare names ----------------------------------------------------------------------------------

    def _names(self, text: str, referents: Sequence[str], taken: list[bool], *, lenient: bool) -> list[Mention]:
        keyed: dict[str, str] = {}
        for full in referents:
            keyed.setdefault(name_key(full.rsplit("/", 1)[-1]), full)
        # "actix" for actix/actix-web: a first segment that names exactly one of the results
        segments: dict[str, list[str]] = {}
        for full in referents:
            first = re.split(r"[-_.]", full.rsplit("/", 1)[-1])[0]
            if len(first) >= 4 and name_key(first) not in keyed:
                segments.setdefault(name_key(first), []).append(full)
        keyed.update({key: fulls[0] for key, fulls in segments.items() if len(fulls) == 1})
        in_context = {r.lower() for r in referents}
        tokens = [(m.start(), m.end(), m.group().rstrip(".-")) for m in TOKEN_RE.finditer(text)]
        tokens = [(s, s + len(t), t) for s, _e, t in tokens if t and not any(taken[s : s + len(t)])]
        out: list[Mention] = []
        i = 0
        while i < len(tokens):
            matched = False
            for width in (3, 2, 1):
                window = tokens[i : i + width]
                if len(window) < width or not self._contiguous(text, window):
                    continue
                words = [t for _s, _e, t in window]
                if not self._may_be_name(words, lenient=lenient):
                    continue
                raw = " ".join(words)
                full = keyed.get(name_key(raw)) or resolve_name(self.index, raw)
                if full and self._compound_of_words(raw, full):
                    full = None
                if full:
                    out.append(Mention(MentionKind.NAME, window[0][0], window[-1][1], raw, full_name=full,
                                       in_context=full.lower() in in_context))
                    i += width
                    matched = True
                    break
            if not matched:
                if lenient:
                    fuzzy = self._fuzzy(tokens[i][2], keyed)
                    if fuzzy:
                        start, end, raw = tokens[i]
                        out.append(Mention(MentionKind.NAME, start, end, raw, full_name=fuzzy,
                                           in_context=fuzzy.lower() in in_context))
                i += 1
        return out

    @staticmethod
    def _compound_of_words(raw: str, full: str) -> bool:
        """"fine-tune" is two words joined, not the repository FineTune: a name written with a
        hyphen means a repository whose owner or name has it there ("styled-components",
        "home-assistant" for home-assistant/core, "socket-io" for socket.io)."""
        if "-" not in raw:
            return False
        written = raw.lower()
        return all(re.sub(r"[._]", "-", part) != written for part in full.lower().split("/"))

    def _fuzzy(self, token: str, keyed: Mapping[str, str]) -> str | None:
        """A near-miss spelling of a listed or well-known repository name (lenient pass only)."""
        key = name_key(token)
        if len(key) < 5 or not token.isalpha() or self.vocabulary.is_common(token):
            return None
        for names in (keyed, self.fuzzy_names):
            close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.8)
            if close:
                return names[close[0]]
        return None

    @staticmethod
    def _contiguous(text: str, window: list[tuple[int, int, str]]) -> bool:
        return all(text[a[1] : b[0]].strip(" -") == "" for a, b in zip(window, window[1:]))

    def _may_be_name(self, words: list[str], *, lenient: bool) -> bool:
        vocab = self.vocabulary
        if len(words) == 1:
            word = words[0]
            if vocab.never(word) or word.isdigit() or len(word) < 2:
                return False
            return lenient or not vocab.is_common(word)
        if any(vocab.never(w) for w in (words[0], words[-1])):
            return False
        return any(not vocab.is_common(w) for w in words) or (lenient and not all(vocab.never(w) for w in words))
