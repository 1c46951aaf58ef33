"""Repository-name lookups: a small in-memory index, a chain of indexes, and name normalisation.

The catalog ships its own ``RepoNameIndex``; ``StaticNameIndex`` is the offline fallback (the
names shipped in ``data/``) and the index tests build from a handful of names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources

from core.classifier.base import RepoNameIndex

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def name_key(text: str) -> str:
    """A spelling-insensitive key: "Next.js", "nextjs" and "next" share the key "next"."""
    key = _NON_ALNUM.sub("", text.lower())
    if key.endswith("js") and len(key) > 4:
        key = key[:-2]
    return key


def name_variants(token: str) -> list[str]:
    """Spellings worth asking an index about for what the user typed ("moment.js" -> "moment")."""
    low = token.lower().strip()
    hyphen = re.sub(r"\s+", "-", low)
    stem = re.sub(r"(\.js|js)$", "", hyphen) if len(hyphen) > 4 else hyphen
    variants = [low, hyphen, hyphen.replace("-", "_"), hyphen.replace("-", ""), stem, f"{stem}.js", f"{stem}js"]
    seen: dict[str, None] = {}
    for v in variants:
        if v:
            seen.setdefault(v, None)
    return list(seen)


class StaticNameIndex:
    """An in-memory ``RepoNameIndex`` over full names given most-starred first."""

    def __init__(self, full_names: Iterable[str], aliases: Mapping[str, str] | None = None) -> None:
        self._by_key: dict[str, list[str]] = {}
        self._by_full: dict[str, str] = {}
        for full in full_names:
            full = full.strip()
            if "/" not in full or full.lower() in self._by_full:
                continue
            self._by_full[full.lower()] = full
            self._by_key.setdefault(name_key(full.split("/", 1)[1]), []).append(full)
        for alias, full in (aliases or {}).items():
            bucket = self._by_key.setdefault(name_key(alias), [])
            if full not in bucket:
                bucket.append(full)

    def __len__(self) -> int:
        return len(self._by_full)

    def keyed(self) -> dict[str, str]:
        """Name key -> most-starred full name (for typo-tolerant matching)."""
        return {key: fulls[0] for key, fulls in self._by_key.items() if fulls}

    def resolve(self, token: str) -> list[str]:
        token = token.strip().lower()
        if "/" in token:
            full = self._by_full.get(token)
            return [full] if full else []
        key = name_key(token)
        return list(self._by_key.get(key, ())) if key else []


class ChainedNameIndex:
    """Ask each index in turn; the first one that knows the name answers."""

    def __init__(self, indexes: Sequence[RepoNameIndex]) -> None:
        self.indexes = list(indexes)

    def resolve(self, token: str) -> list[str]:
        for index in self.indexes:
            try:
                found = index.resolve(token)
            except Exception:  # a broken index must never break classification
                continue
            if found:
                return list(found)
        return []


def read_names(filename: str) -> tuple[list[str], dict[str, str]]:
    """Full names (file order) and aliases from a shipped ``full_name [alias ...]`` list."""
    text = resources.files("core.classifier").joinpath("data", filename).read_text(encoding="utf-8")
    names: list[str] = []
    aliases: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or line.startswith("#"):
            continue
        names.append(fields[0])
        aliases.update({alias: fields[0] for alias in fields[1:]})
    return names, aliases


@lru_cache(maxsize=1)
def shipped_name_index() -> StaticNameIndex:
    """The ranking snapshot's names plus well-known repositories outside it (offline fallback)."""
    ranked, _ = read_names("repo_names.txt")
    extra, aliases = read_names("extra_repos.txt")
    return StaticNameIndex(ranked + extra, aliases)


def resolve_name(index: RepoNameIndex | None, token: str) -> str | None:
    """The most-starred full name for ``token`` (trying its spelling variants), or None."""
    if index is None:
        return None
    for variant in name_variants(token):
        try:
            found = index.resolve(variant)
        except Exception:
            return None
        if found:
            return found[0]
    return None
