"""How well a repository matches the query: the core concept first, qualifiers after.

Each concept (``core.search.concepts``) scores where its best match is (name > topics >
description > README); the user's own word counts fully, an equivalent a little less, a related
term weakly, the words of a multi-word term found apart less than the phrase. Core concepts must
match: the qualifiers ("react", the language) only adjust the score of what matches, so a result
that matches nothing but a qualifier scores 0 and lands in the last *tier*. A qualifier the text
does not mention may be implied by the repository's language or by the curated list it is filed
in. Formula: SCORING.md ("Relevance").
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from core.models import Repository, SearchParams
from core.search.concepts import adjacent_pairs, query_concepts
from core.search.synonyms import LANGUAGE_FAMILY, QUALIFIER_LANGUAGES, language_mentions, spell_out_compounds
from core.search.vocabulary import (
    CODE_KINDS, LANGUAGES, NOT_FOR_APPLICATIONS, NOT_OFFLINE, application_of_unknown_language, list_and_section,
)

_WORD = re.compile(r"[a-z0-9+#]+")

# where a concept was found -> how much that match is worth
PLACE_WEIGHTS: dict[str, float] = {"name": 1.0, "topics": 0.9, "description": 0.8, "its list's section": 0.5, "readme": 0.5}
EQUIVALENT_FACTOR = 0.85  # an equivalent of the user's word ("state container" for "state management")
RELATED_FACTOR = 0.35  # a related, broader term ("store"): weak evidence
NAME_PART = 0.85  # the term is only part of the name ("laravel-ide-helper" for "ide")
SCATTERED_FACTOR = 0.6  # every word of a multi-word term, but not side by side
HEAD_FACTOR = 0.3  # only the last word of the user's multi-word term ("framework" of "web framework"): weak
IMPLIED_QUALIFIER = 0.5  # a qualifier not written but implied by the language (Dart -> "flutter")
FAMILY_FACTOR = 0.9  # a language of the requested one's family (TypeScript for JavaScript)
UNKNOWN_LANGUAGE_FACTOR = 0.5  # an application whose language is unknown offline (``_language_match``)
ROLE_WEIGHTS: dict[str, float] = {"core": 1.0, "phrase": 0.5, "qualifier": 0.5, "generic": 0.25}
LANGUAGE_WEIGHT = 0.5  # the requested language is a qualifier (a concept of its own when alone)
README_WINDOW = 20_000  # characters of README searched

TIER_ALL_CORE = 0  # relevance tiers (``_tier``): 0 is everything asked for, 8+ only qualifiers
TIER_QUALIFIERS_ONLY = 8
TIER_LANGUAGE_MISSED = 4  # a bit of the tier: not in the requested language (``misses_language``)
TIER_PARTIAL = 2
_LIST_WORDS = frozenset({"awesome", "list", "curated", "resource", "collection"})


def stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 6 and word.endswith("ally"):
        return word[:-2]  # "locally" -> "local"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


stemmed = lru_cache(maxsize=16_384)(stem)  # ``stem``, cached: descriptions share most of their words


def _normalized(text: str) -> str:
    return " " + " ".join(map(stemmed, _WORD.findall(text.lower()))) + " "


@lru_cache(maxsize=16_384)
def normalize(text: str) -> str:
    """' state management ' -- lower-case stemmed words padded with spaces for whole-word tests."""
    return _normalized(text)


@dataclass(frozen=True, slots=True)
class Alternative:
    text: str  # normalized, padded with spaces
    factor: float
    weak: bool  # a related term
    shown: str = ""  # as the query wrote it, for the reason
    words: tuple[str, ...] = ()
    # derived once per query, not per candidate: the text without spaces, each word padded
    compact: str = dataclasses.field(default="", init=False, repr=False, compare=False)
    padded: tuple[str, ...] = dataclasses.field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        words = tuple(self.text.split())
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "compact", self.text.replace(" ", ""))
        object.__setattr__(self, "padded", tuple(f" {w} " for w in words))


@dataclass(frozen=True, slots=True)
class Concept:
    label: str
    alternatives: tuple[Alternative, ...]
    role: str  # "core" | "qualifier" | "generic" | "phrase" (adjacent query words across concepts)

    @property
    def weight(self) -> float:
        return ROLE_WEIGHTS[self.role]

    @property
    def qualifies(self) -> bool:
        return self.role in ("qualifier", "generic")


@dataclass(frozen=True, slots=True)
class QueryTerms:
    concepts: tuple[Concept, ...]
    languages: tuple[str, ...]  # any one will do ("in Go or Rust")
    unknown_language_fits: bool = False  # an application asked for in a language: see ``_language_match``

    @property
    def empty(self) -> bool:
        return not self.concepts and not self.languages


def compile_terms(params: SearchParams | None) -> QueryTerms:
    if params is None:
        return QueryTerms((), ())
    key = (params.text, params.languages, tuple(params.keywords), tuple(params.phrases), tuple(params.topics),
           tuple(tuple(g) for g in params.synonym_groups))
    cached = _COMPILED.get(key)
    if cached is None:
        if len(_COMPILED) >= 256:
            _COMPILED.clear()
            _VERDICTS.clear()  # keyed by the compiled terms' identity
        cached = _COMPILED[key] = _compile(params)
    return cached


_COMPILED: dict[tuple, QueryTerms] = {}  # the same query is scored against every candidate


def _compile(params: SearchParams) -> QueryTerms:
    concepts: list[Concept] = []
    for qc in query_concepts(params):
        alts: dict[str, Alternative] = {}
        for rank, word in enumerate(qc.alternatives):
            text = normalize(word)
            if not text.strip() or text in alts:
                continue
            weak = rank > 0 and word.lower() in qc.related
            factor = 1.0 if rank == 0 else RELATED_FACTOR if weak else EQUIVALENT_FACTOR
            alts[text] = Alternative(text, factor, weak, word.lower())
        if alts:
            concepts.append(Concept(qc.label, tuple(alts.values()), qc.role))
    concepts += _adjacent_phrases(params, concepts)
    return QueryTerms(tuple(concepts), params.languages, unknown_language_fits=unknown_language_fits(params))


def _adjacent_phrases(params: SearchParams, concepts: list[Concept]) -> list[Concept]:
    """The query's adjacent word pairs (``core.search.concepts.adjacent_pairs``) as phrase
    concepts: finding them side by side is worth more than finding the words apart."""
    found: dict[str, Concept] = {}
    for pair in adjacent_pairs(params):
        text = normalize(pair)
        if len(text.split()) == 2 and all(text not in (a.text for a in c.alternatives) for c in concepts):
            found.setdefault(text, Concept(pair, (Alternative(text, 1.0, False, pair),), "phrase"))
    return list(found.values())


@dataclass(frozen=True, slots=True)
class RelevanceResult:
    score: float  # 0-10
    reason: str
    tier: int = TIER_ALL_CORE  # 0 all that was asked for matches ... 8+ only qualifiers (see _tier)
    missed_qualifiers: tuple[str, ...] = ()  # the query's qualifiers ("vue") it does not match


@dataclass(frozen=True, slots=True)
class _Match:
    score: float = 0.0
    place: str = ""
    word: str = ""
    weak: bool = False


_NO_MATCH = _Match()


def _fields(repo: Repository, readme: str | None) -> dict[str, str]:
    """A repository's searchable text by field (name, topics, description, README), normalized;
    a field with no words is left out, the name never."""
    fields = _normalized_fields(repo.full_name, repo.description or "", tuple(repo.topics), tuple(repo.categories))
    text = _normalized_readme(readme[:README_WINDOW]) if readme else " "
    return fields if text == " " else {**fields, "readme": text}


@lru_cache(maxsize=8192)
def _normalized_fields(full_name: str, description: str, topics: tuple[str, ...],
                       categories: tuple[str, ...]) -> dict[str, str]:
    """The fields of a repository's own text, normalized once: they do not depend on the query.
    The sections of the curated lists that file it ("Communication - Email - Webmail Clients")
    weigh as a README does: a list's heading, not the project's own words."""
    fields = {
        "name": normalize(full_name.replace("/", " ")),
        "topics": normalize(" ".join(topics)),
        "description": normalize(spell_out_compounds(description)),
        "its list's section": normalize(" ".join(list_and_section(label)[1] for label in categories)),
    }
    return {field: value for field, value in fields.items() if value != " " or field == "name"}


# READMEs are kept apart, in fewer entries: in the two caches above, every repository whose README
# the process had read kept the README (a key), its window and the window normalized, up to ~60 KB
@lru_cache(maxsize=256)
def _normalized_readme(window: str) -> str:
    return _normalized(window)


def _best(concept: Concept, fields: dict[str, str], compact_name: str, everything: str) -> _Match:
    """``everything``: the fields' values joined, to pass over an alternative found in none of them."""
    best = _NO_MATCH
    loose = concept.role != "phrase"
    for alt in concept.alternatives:
        several = loose and len(alt.words) > 1
        if alt.text not in everything and alt.compact != compact_name and not (several and alt.padded[-1] in everything):
            continue
        for field, value in fields.items():
            worth = PLACE_WEIGHTS[field] * alt.factor
            if field == "name" and alt.compact == compact_name:
                score = worth
            elif alt.text in value:
                score = worth * (NAME_PART if field == "name" else 1.0)
            elif not several or alt.padded[-1] not in value:  # the words apart and the head noun need the last word
                continue
            elif all(w in value for w in alt.padded[:-1]):
                score = worth * SCATTERED_FACTOR
            elif alt.factor == 1.0:  # only the head noun of the user's own term
                if worth * HEAD_FACTOR > best.score:
                    best = _Match(worth * HEAD_FACTOR, field, alt.words[-1], True)
                continue
            else:
                continue
            if score > best.score:
                best = _Match(score, field, alt.shown or alt.text.strip(), alt.weak)
    return best


def _implied(concept: Concept, repo: Repository, match: _Match) -> _Match:
    """A qualifier the text does not mention, implied by the repository's language (Dart ->
    "flutter") or by the curated list it is filed in ("awesome-selfhosted" -> "self-hosted")."""
    if match.score or concept.role != "qualifier":
        return match
    languages = QUALIFIER_LANGUAGES.get(concept.label.lower())
    if languages and repo.language in languages:
        return _Match(IMPLIED_QUALIFIER, f"implied by its language ({repo.language})", concept.label)
    for category in repo.categories:
        if any(alt.text in _normalized_category(category) for alt in concept.alternatives):
            return _Match(IMPLIED_QUALIFIER, f"implied by its list ({category.split(':', 1)[0]})", concept.label)
    return match


@lru_cache(maxsize=8192)
def _normalized_category(category: str) -> str:
    return normalize(category)


# what a developer builds with: a curated list of applications files no such thing, and one of
# several languages does not say which language its applications are written in (nor are they in
# one the catalog holds nothing in: a COBOL payroll system is none of awesome-selfhosted's)
_CODE_TO_BUILD_WITH = re.compile(rf"\b(?:{CODE_KINDS}|libs?|toolkits?|bindings?|frameworks?|components?|orms?|engines?)\b",
                                 re.IGNORECASE)


def unknown_language_fits(params: SearchParams) -> bool:
    """Whether an application whose language is unknown offline (known only from a list of several
    languages) may stand for one in the language ``params`` names: the request asks for an
    application, not code to build with, in a language the catalog holds something in."""
    return (bool(params.language) and bool(params.text.strip()) and params.language not in NOT_OFFLINE
            and params.language not in NOT_FOR_APPLICATIONS and not _CODE_TO_BUILD_WITH.search(params.text))


def _language_match(repo: Repository, language: str, fields: dict[str, str], *, unknown_fits: bool) -> _Match:
    if (repo.language or "").lower() == language.lower():
        return _Match(1.0, "language", language)
    if repo.language in LANGUAGE_FAMILY.get(language, ()):
        return _Match(FAMILY_FACTOR, "language", f"{language} ({repo.language})")
    mentions = language_mentions(language)
    best = _Match()
    for field in ("name", "topics", "description"):
        for word in mentions:
            if normalize(word) in fields.get(field, " ") and PLACE_WEIGHTS[field] > best.score:
                if field == "description" and not _names_language(repo.description or "", word):
                    continue
                best = _Match(PLACE_WEIGHTS[field], field, language)
    # made for it, though lists of several languages file it (its language is then unknown)
    if not best.score and repo.language is None and language in filing_languages(tuple(repo.categories)):
        best = _Match(PLACE_WEIGHTS["topics"], "curated lists", language)
    if not best.score and unknown_fits and application_of_unknown_language(repo.language, repo.figures_known,
                                                                           repo.categories):
        best = _Match(UNKNOWN_LANGUAGE_FACTOR, "unknown", language)
    return best


@lru_cache(maxsize=4096)
def filing_languages(categories: tuple[str, ...]) -> frozenset[str]:
    """The languages curated lists file a repository for: a list for one language ("awesome-go:
    Security"), or a language's section of a list organised by language ("awesome-machine-learning:
    Fortran > ..."). Two where lists of two languages file it (neon-bindings/neon, Rust bindings
    for Node.js modules: awesome-rust and awesome-nodejs); it is made for either. The labels are
    ``core.catalog.lists.category_label``'s: "<list>: <section> > <subsection>"."""
    found: set[str] = set()
    for label in categories:
        listed, path = list_and_section(label)
        section = path.split(" > ", 1)[0].strip().lower() if " > " in path else ""
        found.update(language for name in (listed.lower().removeprefix("awesome-"), section)
                     if (language := LANGUAGES.get(name)))
    return frozenset(found)


@lru_cache(maxsize=4096)
def _names_language(description: str, word: str) -> bool:
    """True when ``description`` names the language ``word`` other than in the possessive: a C++
    ORM "similar to Python's SQLAlchemy", a Go parser "inspired by Python's argparse" or a PHP
    "port of Python's jieba" compare with something of that language and are not made for it."""
    return re.search(rf"(?<![\w.+#-]){re.escape(word)}(?![\w+#]|['\u2019]s\b)", description, re.I) is not None


_VERDICTS: dict[tuple[int, str, str, tuple[str, ...], str | None, bool, tuple[str, ...], int | None],
                RelevanceResult] = {}
_VERDICTS_MAX = 4096


def relevance(repo: Repository, terms: QueryTerms, readme: str | None = None) -> RelevanceResult | None:
    """None when the query has nothing to match against (no words, no language). Verdicts are
    kept per compiled query and repository text: a search asks about one candidate several times
    (the coarse cut, scoring, the reason shown)."""
    if terms.empty:
        return None
    key = (id(terms), repo.full_name, repo.description or "", tuple(repo.topics), repo.language,
           repo.figures_known, tuple(repo.categories), hash(readme) if readme else None)
    verdict = _VERDICTS.get(key)
    if verdict is None:
        if len(_VERDICTS) >= _VERDICTS_MAX:
            _VERDICTS.clear()
        verdict = _VERDICTS[key] = _relevance(repo, terms, readme)
    return verdict


def _relevance(repo: Repository, terms: QueryTerms, readme: str | None) -> RelevanceResult:
    fields = _fields(repo, readme)
    compact_name = repo.name.lower().replace("-", "").replace("_", "").replace(".", "")
    everything = "".join(fields.values())
    matches = [(c, _best(c, fields, compact_name, everything)) for c in terms.concepts]
    matches = [(c, _implied(c, repo, m) if c.role == "qualifier" else m) for c, m in matches]
    core = [(c.weight, m.score) for c, m in matches if not c.qualifies]
    qualifying = [(c.weight, m.score) for c, m in matches if c.qualifies]
    language = (max((_language_match(repo, named, fields, unknown_fits=terms.unknown_language_fits)
                     for named in terms.languages), key=lambda match: match.score)
                if terms.languages else None)
    if language is not None:
        (qualifying if core else core).append((LANGUAGE_WEIGHT, language.score))
    core_weight = sum(w for w, _ in core)
    qual_weight = sum(w for w, _ in qualifying)
    core_fit = sum(w * s for w, s in core) / core_weight
    qual_fit = sum(w * s for w, s in qualifying) / qual_weight if qual_weight else 1.0
    share = qual_weight / (core_weight + qual_weight)
    score = round(10 * core_fit * (1 - share + share * qual_fit), 1)
    reason = _reason(matches, language, " or ".join(terms.languages), bool(qualifying) and bool(core))
    tier = _tier(matches, language)
    if tier < TIER_QUALIFIERS_ONLY and not tier & TIER_PARTIAL and _unasked_list(repo, terms):
        tier += TIER_PARTIAL  # a list *about* frameworks is not a framework: after the real ones
    missed = tuple(c.label for c, m in matches if c.role == "qualifier" and not m.score)
    return RelevanceResult(score, reason, tier, missed)


def misses_language(tier: int) -> bool:
    """True when a result of this tier is not in the requested language (nor mentions it)."""
    return bool(tier & TIER_LANGUAGE_MISSED)


def _unasked_list(repo: Repository, terms: QueryTerms) -> bool:
    """An "awesome list" (a curated list of links) when the query did not ask for lists."""
    name = repo.name.lower()
    topics = {t.lower() for t in repo.topics}
    if not (name.startswith("awesome") or name.endswith("-list") or topics & {"awesome", "awesome-list", "awesome-lists"}):
        return False
    asked = {w for c in terms.concepts for a in c.alternatives for w in a.words}
    return not asked & _LIST_WORDS


def _tier(matches: list[tuple[Concept, _Match]], language: _Match | None) -> int:
    """Lower is better: 8 when no core concept matches at all (only qualifiers), + 4 when the
    repository is not in the requested language (the user's firmest filter, the last one the
    Scout relaxes), + 2 when the core matches only in part (some concepts, a head word, a
    related term), + 1 when a qualifier ("react", "kubernetes") does not match."""
    needed = [m for c, m in matches if c.role == "core"]
    qualifiers = [m for c, m in matches if c.role == "qualifier"]
    language_missed = False
    if language is not None:
        if needed:
            language_missed = not language.score
        else:
            needed.append(language)
    if not any(m.score for m in needed):
        return TIER_QUALIFIERS_ONLY + 4 * language_missed + 1 * (not all(m.score for m in qualifiers))
    # a language unknown offline is unconfirmed: after those known to be in the language
    partial = not all(m.score and not m.weak for m in needed) or (language is not None and language.place == "unknown")
    return 4 * language_missed + 2 * partial + (0 if all(m.score for m in qualifiers) else 1)


def _where(m: _Match) -> str:
    where = m.place if m.place.startswith("implied") else f"in {m.place}"
    return f"'{m.word}' {where}" + (" (weak)" if m.weak else "")


def _reason(
    matches: list[tuple[Concept, _Match]], language: _Match | None, language_name: str | None, has_qualifiers: bool
) -> str:
    found = [_where(m) for c, m in matches if m.score]
    missing = [f"'{c.label}'" for c, m in matches if not m.score and c.role != "phrase"]
    if language is not None and not language.score:
        missing.append(language_name)
    elif language is not None and language.place != "unknown":  # an unknown one is said on the card
        found.append(language.word if language.place == "language" else f"'{language.word}' in {language.place}")
    core_found = any(m.score for c, m in matches if c.role == "core")
    parts = []
    if found:
        head = "matches only " if has_qualifiers and not core_found else "matches "
        parts.append(head + ", ".join(found[:4]))
    if missing:
        parts.append("no match for " + ", ".join(missing[:3]))
    return "; ".join(parts)
