"""Name lookups for the classifier ("zustand" -> ["pmndrs/zustand"])."""

from __future__ import annotations

from collections.abc import Iterable

from core.catalog.records import CatalogRecord


class CatalogNames:
    """Implements ``core.classifier.base.RepoNameIndex`` over the catalog (synchronous, O(1))."""

    def __init__(self, records: Iterable[CatalogRecord]) -> None:
        by_name: dict[str, list[CatalogRecord]] = {}
        self._full: dict[str, str] = {}
        for record in records:
            self._full[record.full_name.lower()] = record.full_name
            if not record.figures_known:
                # list-only repositories resolve by full name only: thousands of small projects
                # named "server", "charge" or "blades" would otherwise turn words into references
                continue
            by_name.setdefault(record.full_name.split("/", 1)[1].lower(), []).append(record)
        self._by_name = {
            key: [r.full_name for r in sorted(group, key=lambda r: -r.stars)] for key, group in by_name.items()
        }

    def resolve(self, token: str) -> list[str]:
        """Full names whose repo name (snapshot repositories) or full name (any) equals ``token``
        (any case), most-starred first."""
        key = token.strip().lower()
        if not key:
            return []
        if "/" in key:
            full = self._full.get(key)
            return [full] if full else []
        return list(self._by_name.get(key, ()))

    def __contains__(self, token: object) -> bool:
        return isinstance(token, str) and bool(self.resolve(token))
