"""Full-text search over the catalog: SQLite FTS5 in memory (porter stemming, bm25 ranking).

Query semantics match GitHub search so both sources behave alike: concepts are ANDed, the
alternatives inside a synonym group are ORed, quoted phrases match as phrases. Filters: language
(with its family: JavaScript also finds TypeScript, as on GitHub through ``core.github.query``),
star range, last push. ``created_after`` cannot be applied (the snapshot has no creation dates) and
is ignored.
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache
from collections.abc import Callable, Iterable, Sequence

from core.catalog.records import CatalogRecord
from core.models import SearchParams
from core.search.relevance import filing_languages
from core.search.synonyms import spell_out_compounds, with_families
from core.search.vocabulary import application_of_unknown_language

_TOKEN = re.compile(r"\w+", re.UNICODE)
# bm25 column weights: name, owner, description, language, curated-list categories and descriptions
_BM25 = "bm25(repos_fts, 10.0, 3.0, 1.0, 0.5, 0.8)"
_ORDER = {
    "stars": "r.stars DESC",
    "updated": "r.pushed_at DESC, r.stars DESC",
    "growth": "r.growth_12m IS NULL, r.growth_12m DESC, r.stars DESC",
}


def _phrase(term: str) -> str | None:
    words = _TOKEN.findall(term.lower())
    return '"' + " ".join(words) + '"' if words else None


def concept_groups(params: SearchParams) -> list[list[str]]:
    """Phrases, synonym groups, then the keywords and topics not already in a group."""
    grouped = {w.lower() for group in params.synonym_groups for w in group}
    groups: list[list[str]] = [[p] for p in params.phrases]
    groups += [list(g) for g in params.synonym_groups if g]
    groups += [[k] for k in params.keywords if k.lower() not in grouped]
    groups += [[t] for t in params.topics if t.lower() not in grouped]
    return groups


def match_expression(groups: Iterable[Sequence[str]]) -> str | None:
    """FTS5 MATCH text: ("a b" OR "c") AND "d"; None when there is nothing to match."""
    clauses: list[str] = []
    for group in groups:
        alts = list(dict.fromkeys(p for p in (_phrase(t) for t in group) if p))
        if alts:
            clauses.append(alts[0] if len(alts) == 1 else "(" + " OR ".join(alts) + ")")
    return " AND ".join(clauses) if clauses else None


def _list_text(record: CatalogRecord) -> str:
    """Category paths and the lists' own descriptions (the one used as the description left out).
    The list's name ("awesome-go: ") is not indexed: "awesome" or "go" would then match every entry."""
    categories = [label.split(": ", 1)[-1] for label in record.categories]
    extra = [d for d in record.list_descriptions if d != record.description]
    return spell_out_compounds(" ".join([*categories, *extra]))


class CatalogIndex:
    def __init__(self, records: Sequence[CatalogRecord]) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.executescript(
            """
            CREATE TABLE repos (id INTEGER PRIMARY KEY, language TEXT, stars INTEGER,
                                pushed_at TEXT, growth_12m INTEGER, unknown_language INTEGER);
            CREATE TABLE filed (id INTEGER, language TEXT);
            CREATE VIRTUAL TABLE repos_fts USING fts5(
                name, owner, description, language, lists, tokenize = 'porter unicode61');
            """
        )
        self._db.executemany(
            "INSERT INTO repos VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    r.id,
                    (r.language or "").lower(),
                    r.stars if r.figures_known else None,  # unknown: fails star filters, sorts last
                    r.pushed_at.strftime("%Y-%m-%dT%H:%M:%SZ") if r.pushed_at else "",
                    r.star_growth_12m,
                    application_of_unknown_language(r.language, r.figures_known, r.categories),
                )
                for r in records
            ],
        )
        # a repository of unknown language that lists of one language file (two lists of two
        # languages: neon-bindings/neon) is made for each of them: a filter on either finds it
        self._db.executemany(
            "INSERT INTO filed VALUES (?, ?)",
            [(r.id, language.lower()) for r in records if r.language is None
             for language in filing_languages(tuple(r.categories))],
        )
        self._db.executemany(
            "INSERT INTO repos_fts (rowid, name, owner, description, language, lists) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    r.id,
                    r.full_name.split("/", 1)[1],
                    r.full_name.split("/", 1)[0],
                    spell_out_compounds(r.description or ""),
                    r.language or "",
                    _list_text(r),
                )
                for r in records
            ],
        )

    def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30,
               unknown_language: bool = False) -> list[int]:
        """Record ids matching ``params``, best first; with ``unknown_language``, the applications
        whose language is unknown offline (``application_of_unknown_language``) pass a language
        filter too."""
        where: list[str] = []
        args: list[object] = []
        match = match_expression(concept_groups(params))
        if match:
            where.append("repos_fts MATCH ?")
            args.append(match)
        if params.language:
            languages = with_families(params.languages)
            marks = ", ".join("?" * len(languages))
            in_language = f"(r.language IN ({marks}) OR r.id IN (SELECT id FROM filed WHERE language IN ({marks})))"
            where.append(f"({in_language} OR r.unknown_language)" if unknown_language else in_language)
            args.extend(language.lower() for language in [*languages, *languages])
        if params.min_stars is not None:
            where.append("r.stars >= ?")
            args.append(params.min_stars)
        if params.max_stars is not None:
            where.append("r.stars <= ?")
            args.append(params.max_stars)
        if params.pushed_after is not None:
            where.append("(r.pushed_at >= ? OR r.pushed_at = '')")  # unknown (list-only): nothing says it is stale
            args.append(params.pushed_after.isoformat())
        order = _ORDER.get(sort) or (f"{_BM25}, r.stars DESC" if match else "r.stars DESC")
        source = "repos_fts JOIN repos r ON r.id = repos_fts.rowid" if match else "repos r"
        sql = f"SELECT r.id FROM {source}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {order} LIMIT ?"
        args.append(max(0, limit))
        try:
            return [row[0] for row in self._db.execute(sql, args)]
        except sqlite3.OperationalError:
            return []  # an expression FTS5 refuses: no match rather than a crash

    def has_name(self, name: str, called: Callable[[int], bool]) -> bool:
        """Whether a record whose name the full-text index matches for ``name`` is ``called`` it.
        A name equal to ``name`` (any case) has the same tokens, so it is among those matches;
        True when the index cannot tell."""
        phrase = _phrase(name)
        if phrase is None:
            return True
        try:
            rows = self._db.execute("SELECT rowid FROM repos_fts WHERE repos_fts MATCH ?", (f"name : {phrase}",))
            return any(called(row[0]) for row in rows)
        except sqlite3.OperationalError:
            return True

    @lru_cache(maxsize=4096)
    def users(self, word: str, most: int) -> tuple[int, ...] | None:
        """Ids of the records whose text uses ``word`` (porter-stemmed), when ``most`` or fewer do;
        None when more do, or the word cannot be searched."""
        phrase = _phrase(word)
        if phrase is None:
            return None
        try:
            rows = self._db.execute("SELECT rowid FROM repos_fts WHERE repos_fts MATCH ? LIMIT ?",
                                    (phrase, most + 1)).fetchall()
        except sqlite3.OperationalError:
            return None
        return tuple(row[0] for row in rows) if len(rows) <= most else None

    @lru_cache(maxsize=4096)
    def count(self, word: str) -> int:
        """How many records' texts use ``word`` (porter-stemmed); 0 when it cannot be searched."""
        phrase = _phrase(word)
        if phrase is None:
            return 0
        try:
            return int(self._db.execute("SELECT count(*) FROM repos_fts WHERE repos_fts MATCH ?", (phrase,)).fetchone()[0])
        except sqlite3.OperationalError:
            return 0

    @lru_cache(maxsize=4096)
    def knows(self, word: str) -> bool:
        """Whether any record's text uses ``word`` (porter-stemmed, as searches match)."""
        phrase = _phrase(word)
        if phrase is None:
            return True
        try:
            return self._db.execute("SELECT 1 FROM repos_fts WHERE repos_fts MATCH ? LIMIT 1", (phrase,)).fetchone() is not None
        except sqlite3.OperationalError:
            return True  # a word FTS5 cannot search is not evidence of absence
