"""How well each candidate fits the need: meaning first, words and popularity adding to it,
a gate and a floor.

The fit is the closeness in meaning between the need's sentence vector (``core.search.need``: the
request with what its named products are, joined by the meaning of what it compares with) and the
repository (``core.search.semantic.meaning``: the cosine of its own text or of its example requests,
``core.catalog.examples``, whichever is higher), plus a popularity prior (``popularity_prior``: among things about as
close in meaning, the widely used project is the likelier answer), plus what the words add (the
lexical order of ``core.search.shortlist``, a bonus for matching every core concept, a penalty for
matching only the qualifier; less for a spoken request), minus a penalty for a list, tutorial or
language itself when software was asked for. What the request compares with is not a candidate.
Words add to the meaning; they never gate it.

The gate: how far the closest candidate is over ``MATCH_GATE`` is read, with six other readings
(``core.search.gate``), and a model fitted on the development sets says whether nothing fits. The
gate rises for a word the collection never uses, for thin evidence, and where a rare word of the
request is used by candidates in other languages only (``ELSEWHERE_GATE``); under a language
filter only the candidates in that language or made for it count, and for "a Clojure library for
X" they must be close to the need without the language's name (``LANGUAGE_FREE_GATE``), which also
adds to their fit (``LANGUAGE_FREE_WEIGHT``). A candidate named by the request's words fits.
The floor: a candidate under ``FLOOR`` or far under the best (``RELATIVE_FLOOR``) does not fit and
is dropped, not kept as padding; one that matches every core concept lexically keeps its place
down to ``LEXICAL_FLOOR``. Constants were set on the development sets
(``bench/data/search_dev*.jsonl`` and the former blind, held-out and fresh3 sets), never on the
fresh blind sets; see SCORING.md ("Fit").
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from core.models import Repository, SearchParams
from core.search.coverage import rarities, restricted, share, text_words
from core.search.embedding import EMBEDDING_DIMENSIONS, default_encoder
from core.search.gate import EXAMPLES_OVER_OWN, GateReading, record
from core.search.language import language_free, without_language
from core.search.need import Need, is_resource, named_words, read_need, telling_words
from core.search.rivals import hosts_asked, made_for_a_rival
from core.search.semantic import meaning, query_vector, repository_text, similarities
from core.search.vocabulary import LANGUAGES

if TYPE_CHECKING:
    from core.catalog.catalog import Catalog

RRF_K = 30
POPULARITY_WEIGHT = 0.03  # per unit of ln(stars): the prior that a well-known project is what was meant
LISTED_STARS = 2000  # the popularity a repository known only from curated lists is credited with
LEXICAL_WEIGHT = 0.1  # what the first rank by words adds; rank r adds LEXICAL_WEIGHT * RRF_K / (RRF_K + r)
ALL_CORE_BONUS = 0.1  # a candidate whose words match every core concept of the query
QUALIFIER_ONLY_PENALTY = 0.5  # its words match only what qualifies the need ("react"), not the need
QUALIFIER_ONLY_CLOSE = 0.55  # ...unless its meaning is close to the need anyway ("toast notifications for React")
EXACT_BONUS = 1.0  # a candidate found before the Scout widened the search (when it had to) comes first
FLOOR = 0.30  # closeness in meaning under which a candidate does not fit
LEXICAL_FLOOR = 0.20  # the floor for a candidate that matches every core concept by its words
MATCH_GATE = 0.50  # the closeness the closest candidate is read against (``GateReading.over``; the rules below raise it)
# the gate reads an example request's cosine this much lower for a description-like request: two
# requests for different things in one domain ("inventory for a pharmacy's controlled drugs", "inventory
# for a warehouse") are often 0.55 apart; a spoken request (``Need.spoken``) is compared with spoken
# examples, its peers
EXAMPLE_GATE_MARGIN = 0.10
SPOKEN_EXAMPLE_GATE_MARGIN = 0.0
# ...and 0.05 lower still for a repository known only from a curated list: its example requests were
# written mostly from the list's one line, and say what fits less surely than a known project's
LISTED_EXAMPLE_GATE_MARGIN = 0.05
# a word of a description-like request that the searched collection never uses names a concept
# it lacks ("knitting", "dental"): then the gate rises to this
UNKNOWN_WORD_GATE = 0.60
SITUATED_UNKNOWN_WORD_GATE = 0.58  # in the first person or a question, an odd word is as often a turn of phrase ("hogging")
# thin evidence: with a language filter the closest candidates of that language may be close only
# in kind (a Java library for "COBOL to Java migration"), and a repository known only from a curated
# list is close mostly through example requests written from the list's one line. Then, when at
# least ``WORDLESS_MIN`` of the ``WORDLESS_LOOK`` closest (all, when fewer; of the named language
# itself, when it has any) match none of the need's words, the gate rises to ``THIN_EVIDENCE_GATE``
THIN_EVIDENCE_GATE = 0.58
WORDLESS_LOOK = 5
WORDLESS_MIN = 4
RELATIVE_FLOOR = 0.30  # a candidate this far under the best candidate's closeness does not fit either
WEAK_FIT = 0.40  # under this a kept result is a weak match, and is labelled so
# a candidate this little over the gate, and not named by the request's words, is no sure fit: a list
# of such is said to hold the closest matches, none a sure one (set on the development sets, where
# that hedges about half the no-match requests still answered with a list and 3.5 % of the lists
# that hold the answer; SCORING.md, "No sure fit")
SURE_MARGIN = 0.06
# when no candidate is a sure fit the list holds the closest matches, and popularity counts this much
# of its weight: it still breaks near-ties, but no longer lifts a famous project over a closer one
# (rustdesk over ZNC for "an always-connected IRC client we host that plays back what we missed")
UNSURE_POPULARITY = 0.5
WEAK_DROPPED_FROM = 6  # with this many candidates that fit, weak matches are left out
RESOURCE_PENALTY = 0.3  # a curated list, tutorial or book when software was asked for
STAND_IN_BONUS = 0.2  # its description offers it in place of what the request replaces ("A cat(1) clone")
ADD_ON_PENALTY = 0.3  # a plugin, config or wrapper of what the request wants to replace
COMPARED_WEIGHT = 0.5  # how much the meaning of what the user compares with joins the query's
# under a language filter, a request for "a Clojure library for X" is close to every Clojure
# library through the word "Clojure": the candidates in the language must be this close to the need
# without it (``evidence_query``), or the gate reads no evidence at all
LANGUAGE_FREE_GATE = 0.45
# ...and among them, how close each is without it adds this much to its fit: the word no longer
# lifts every Julia package alike above JuMP for "a julia package to formulate LP and MILP models"
LANGUAGE_FREE_WEIGHT = 0.5
# a rare word of the request (``RARE_WORD_RECORDS`` catalog repositories or fewer use it) that some
# of the ``ELSEWHERE_OTHERS`` closest candidates in other languages use (those at least as close in
# meaning as the best in the named language, as the ranking reads closeness: a list-only one by its
# example requests with no gate margin), and none of the
# ``ELSEWHERE_LOOK`` closest in the named one: what is asked for exists, not in that language ("a Go
# parser for HL7 messages" beside Java and Python HL7 libraries), and the gate rises to this
RARE_WORD_RECORDS = 30
ELSEWHERE_LOOK = 5
ELSEWHERE_OTHERS = 8
ELSEWHERE_GATE = 0.60
# how many of the closest candidates the gate reads the need's typicality of (``core.search.gate``)
TYPICAL_LOOK = 3
TYPICALITY_WEIGHT = 0.3  # how typical the need is of a candidate's example requests adds this much x it
COVERED_WEIGHT = 0.4  # the rarity-weighted share of the request's telling words a candidate's texts use adds this much x it
UNCONFIRMED_LANGUAGE_PENALTY = 0.1  # under a language filter, a candidate whose language is not known (an application known only from lists)
COMMON_USE_POPULARITY = 2.0  # the popularity prior counts this much more when asked what people use


def popularity_prior(stars: int, figures_known: bool, small: bool = False, *,
                     earlier_stars: int | None = None) -> float:
    """What popularity adds to a fit: ``POPULARITY_WEIGHT`` x ln(stars); nothing when the user
    asked for small or new projects. A repository known only from curated lists (stars never
    measured on the newest date) counts with the stars an older snapshot measured when one listed
    it (``earlier_stars``: getsentry/sentry, 43k), else with ``LISTED_STARS``: a list's editors
    picked it."""
    if small:
        return 0.0
    if not figures_known:  # listed in a curated list, stars not measured on the newest date
        return POPULARITY_WEIGHT * math.log(max(earlier_stars or LISTED_STARS, LISTED_STARS))
    return POPULARITY_WEIGHT * math.log(stars) if stars > 0 else 0.0


def not_the_answer(need: Need, full_name: str, description: str | None) -> float:
    """What a candidate loses for being a list or tutorial when software was asked for, or an
    add-on of what the request wants to replace."""
    resource = not need.wants_resources and is_resource(full_name, description)
    return (RESOURCE_PENALTY if resource else 0.0) + (ADD_ON_PENALTY if need.serves(full_name) else 0.0)


@dataclass(frozen=True, slots=True)
class Fit:
    closeness: float  # in meaning, ``core.search.semantic.meaning``
    fused: float  # higher is better
    stands_in: bool = False  # offers itself in place of what the request replaces
    sure: bool = True  # clears the gate by ``SURE_MARGIN``, or is named by the request's words
    covered: float = 1.0  # the share of the request's rare words its texts use (``core.search.coverage.share``)

    @property
    def weak(self) -> bool:
        return self.closeness < WEAK_FIT and not self.stands_in


def semantic_query(params: SearchParams) -> str:
    """The need in the user's words: the first message of a refined search (or an LLM's rewrite
    of it, ``params.need``), plus any words a follow-up added ("refine search: hooks"), less the
    language when it is a filter."""
    first = params.need or params.text.split(" -> ")[0].strip()
    if params.language:
        first = without_language(first, params.languages)
    added = [w for w in [*params.keywords, *params.topics] if w.lower() not in first.lower()]
    text = " ".join([first, *added]).strip()
    return text or params.describe()


def evidence_query(params: SearchParams) -> str | None:
    """The need without its language where the language only says which language's library is
    wanted (``core.search.language.language_free``); None when there is no such word."""
    if not params.language:
        return None
    text = semantic_query(params)
    bare = language_free(text, params.language)
    return bare if bare and bare != text else None


def prepare_needs(texts: Sequence[str]) -> None:
    """Encodes in one pass the needs of ``texts`` (``semantic_query`` texts) not encoded yet, which
    ``need_vector`` then finds: a search's strategies with and without its language cost one
    pass over the encoder's weights, not two."""
    query_vector.many([read_need(text).text for text in texts])


@lru_cache(maxsize=256)
def need_vector(text: str) -> np.ndarray:
    """The unit vector of the need in ``text`` (``core.search.need``): the request with what its
    products are, joined by the meaning of the catalog repositories it compares with."""
    from core.catalog.catalog import Catalog

    need = read_need(text)
    vector = query_vector(need.text).astype(np.float32)
    compared = Catalog.load().vectors_named(need.compared)
    if len(compared):
        vector = vector + COMPARED_WEIGHT * compared.mean(axis=0)
        vector = vector / max(float(np.linalg.norm(vector)), 1e-9)
    vector.setflags(write=False)
    return vector


_ENCODED: dict[str, np.ndarray] = {}  # live repository texts already encoded in this process
# ~2 KB each (the text and its vector): the 4,096 encoded last, ~250 searches' new candidates
_ENCODED_MAX = 4096


def _encode_texts(texts: list[str]) -> list[np.ndarray]:
    # runs on the event loop and in worker threads (prepare_vectors): an entry seen here may be
    # dropped by another thread before it is read, so what is returned is read once
    unique = list(dict.fromkeys(texts))
    found = {t: v for t in unique if (v := _ENCODED.get(t)) is not None}
    new = [t for t in unique if t not in found]
    if new:
        encoded = dict(zip(new, default_encoder().encode(new)))
        _ENCODED.update(encoded)
        _forget_oldest()
        found.update(encoded)
    return [found[t] for t in texts]


def _forget_oldest() -> None:
    """Drops the texts encoded first until ``_ENCODED_MAX`` are left."""
    while len(_ENCODED) > _ENCODED_MAX:
        try:
            oldest = next(iter(_ENCODED))
        except (StopIteration, RuntimeError):  # emptied, or changed by another thread meanwhile
            continue
        _ENCODED.pop(oldest, None)


CLOSE_LOOK = 16  # candidates of a live search embedded from their own text; the others borrow the catalog's


def _shipped_or_text(
    repos: Sequence[Repository], readmes: dict[str, str] | None, need: np.ndarray | None = None
) -> tuple[list[np.ndarray | None], list[tuple[int, str]]]:
    """Each candidate's vector where no encoding is needed (None elsewhere), and the (position,
    text) of those to encode.

    A candidate that is the catalog's row unchanged has the shipped vector. One that the catalog
    knows with the same description but that came with topics or a README excerpt (a live search)
    has the shipped vector as a stand-in: given ``need``, the ``CLOSE_LOOK`` of those closest to it
    are embedded from their own text, since only the closest can rank near the top, and the rest
    keep the stand-in. Embedding every live candidate cost a first-sight search up to half a
    second of CPU for results that came out the same."""
    from core.catalog.catalog import Catalog

    catalog = Catalog.load()
    rows: list[np.ndarray | None] = []
    texts: dict[int, str] = {}
    borrowed: list[int] = []
    for index, repo in enumerate(repos):
        readme = (readmes or {}).get(repo.full_name)
        shipped = catalog.vector(repo.full_name, repo.description)
        rows.append(shipped)
        if shipped is not None and not (repo.topics or readme):
            continue
        texts[index] = repository_text(repo.full_name, repo.description, repo.topics, readme)
        if shipped is not None:
            borrowed.append(index)
    if need is not None and len(borrowed) > CLOSE_LOOK:
        closeness = np.stack([rows[i] for i in borrowed]) @ need  # type: ignore[misc]
        far = {borrowed[i] for i in np.argsort(-closeness, kind="stable")[CLOSE_LOOK:]}
        texts = {i: text for i, text in texts.items() if i not in far}
    for index in texts:
        rows[index] = None
    return rows, sorted(texts.items())


async def prepare_vectors(repos: Sequence[Repository], params: SearchParams | None = None,
                          readmes: dict[str, str] | None = None) -> None:
    """Encodes in a worker thread the texts of ``repos`` this process has not encoded yet, so that
    ``repository_vectors`` finds them: a live search's new candidates cost tenths of a second of
    CPU, which on the event loop would hold up every other conversation. With ``params``, only
    the candidates ranking will look at closely (``CLOSE_LOOK``)."""
    need = need_vector(semantic_query(params)) if params is not None else None
    texts = [text for _, text in _shipped_or_text(repos, readmes, need)[1]]
    if any(text not in _ENCODED for text in texts):
        await asyncio.to_thread(_encode_texts, texts)


def repository_vectors(repos: Sequence[Repository], readmes: dict[str, str] | None = None,
                       need: np.ndarray | None = None) -> np.ndarray:
    """Unit vectors of the candidates (see ``_shipped_or_text``): shipped, borrowed from the
    catalog, or encoded from their text (cached per text)."""
    rows, missing = _shipped_or_text(repos, readmes, need)
    for (index, _), vector in zip(missing, _encode_texts([text for _, text in missing])):
        rows[index] = vector
    return np.stack(rows) if rows else np.zeros((0, EMBEDDING_DIMENSIONS), dtype=np.float32)


def _only_elsewhere(text: str, candidates: Sequence[Repository], closeness: np.ndarray, ours: list[int],
                    users: Callable[[str, int], frozenset[str] | None]) -> bool:
    """Whether the request's rare words (``RARE_WORD_RECORDS`` repositories or fewer use them:
    "HL7", "libphonenumber", "Twitch") are used by some of the closest candidates in other
    languages, at least as close to the need as the best in the named one, and by none of the
    closest in it: what is asked for exists, not in it. A rare word used only further away says
    nothing ("keeps deleted files recoverable" beside a Python file-recovery tool)."""
    words = [word for word in telling_words(text) if word not in LANGUAGES]
    using = frozenset().union(*(found for word in words if (found := users(word, RARE_WORD_RECORDS))))
    if not using:
        return False
    in_language = set(ours)
    mine = {candidates[i].full_name for i in sorted(ours, key=lambda i: -float(closeness[i]))[:ELSEWHERE_LOOK]}
    best_here = max(float(closeness[i]) for i in ours)
    theirs = {candidates[i].full_name for i in np.argsort(-closeness, kind="stable")[:ELSEWHERE_OTHERS]
              if i not in in_language and float(closeness[i]) >= best_here}
    return bool(using & theirs) and not using & mine


def _typicality(catalog: "Catalog", wanted: np.ndarray, closest: Sequence[Repository]) -> float | None:
    """How typical the need is of the ``closest`` candidates' example requests, at best: for each
    that has two or more, the need's cosine to the closest of its requests less the mean cosine of
    those requests to their nearest sibling. Under zero, the need is next to what they are for, not
    among it ("a library that parses Klingon grammar" beside BNF parser generators). None when none
    of them has two (live candidates the catalog does not know)."""
    vectors = catalog.vectors()
    ids = [record.id for record in (catalog.get(repo.full_name) for repo in closest) if record is not None]
    if vectors is None or not ids:
        return None
    typicality = vectors.example_typicality(wanted, ids)
    known = typicality[~np.isnan(typicality)]
    return float(known.max()) if len(known) else None


def _words_of(catalog: "Catalog", repo: Repository) -> frozenset[str]:
    """What a candidate's texts say (``Catalog.words_of``), or, for one the catalog lacks (live),
    the words of its name, description, language and topics."""
    known = catalog.words_of(repo.full_name)
    return known if known is not None else text_words([repo.full_name, repo.description or "", repo.language or "", *repo.topics])


# the product the wanted code talks to (``Need.calls``), when some word of its name is rare (used
# by ``RARE_WORD_RECORDS`` catalog repositories or fewer) or the name is of several words: a
# candidate whose own texts never name it is no client of it ("a Rust crate for the Paystack API"
# beside Rust payment and webhook crates, "the Home Assistant websocket API" beside websocket
# libraries). A common one-word name ("a client for Discord") is left to the gate: its clients may
# say "chat" instead
_NAME_WORD = re.compile(r"[a-z0-9]+")
# what a product is, after its name ("Pipedrive CRM", "Tesseract OCR"): words its rivals use too
_KIND_WORDS = frozenset("""
api apis sdk crm erp cms ocr cloud server service platform database network protocol engine app
""".split())


def _rare_words(name: Sequence[str], catalog: "Catalog") -> frozenset[str]:
    """The words of a product's name (``Need.calls``) that ``RARE_WORD_RECORDS`` catalog
    repositories or fewer use, less what it is: "pipedrive" of "Pipedrive CRM"."""
    words = {word for part in name for word in _NAME_WORD.findall(part.lower()) if len(word) > 2} - _KIND_WORDS
    return frozenset(word for word in words if catalog.records_using(word) <= RARE_WORD_RECORDS)


def _names_product(need: Need, catalog: "Catalog") -> Callable[[Repository], bool] | None:
    """Whether a candidate names the product the request's code talks to (``Need.calls``); None
    when the request calls none, or one whose name is one common word."""
    rare = _rare_words(need.calls, catalog)
    if not (rare or len(need.calls) > 1):
        return None
    return lambda repo: _names(catalog, repo, need.calls, rare)


def unnamed_product(params: SearchParams, candidates: Sequence[Repository]) -> str | None:
    """The product the request's code talks to, when none of ``candidates`` names it: why nothing
    fits ("a Rust crate for the Paystack payments API" -> "Paystack")."""
    from core.catalog.catalog import Catalog

    need = read_need(semantic_query(params))
    naming = _names_product(need, Catalog.load())
    if naming is None or any(naming(repo) for repo in candidates):
        return None
    return " ".join(need.calls)


def unnamed_names(params: SearchParams, candidates: Sequence[Repository]) -> list[str]:
    """The names the request writes (``named_words``), as it writes them, that ``RARE_WORD_RECORDS``
    catalog repositories or fewer use and none of ``candidates``' own texts do: why nothing fits
    ("Elixir implementation of PASETO security tokens" -> "PASETO"). The product a client is asked
    for is left to ``unnamed_product``."""
    from core.catalog.catalog import Catalog

    catalog = Catalog.load()
    text = semantic_query(params)
    called = {word.lower() for word in read_need(text).calls}
    unnamed = []
    for word in named_words(text):
        if word in called or word in LANGUAGES or len(word) < 3 or catalog.records_using(word) > RARE_WORD_RECORDS:
            continue
        if not any(_names(catalog, repo, (word,), frozenset({word})) for repo in candidates):
            written = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE)
            unnamed.append(written.group(0) if written else word)
    return unnamed


def _own_texts(catalog: "Catalog", repo: Repository) -> list[str]:
    """A candidate's own texts (not its example requests): name, description, topics, the lists'
    sections and what they say of it."""
    record = catalog.get(repo.full_name)
    return [repo.full_name, repo.description or "", *repo.topics, *repo.categories,
            *(record.list_descriptions if record is not None else ())]


def _names(catalog: "Catalog", repo: Repository, name: Sequence[str], rare: frozenset[str]) -> bool:
    """Whether a candidate's own texts (not its example requests) name the product ``name``: one of
    its rare words, or the whole name run together ("MapboxGL" for "Mapbox GL")."""
    texts = [_NAME_WORD.findall(text.lower()) for text in _own_texts(catalog, repo)]
    run_together = _run_together(name)
    return any(rare.intersection(words) or run_together in "".join(words) for words in texts)


def _run_together(name: Sequence[str]) -> str:
    """A product's name run together, less what it is at its end: "microsoftsql" of "Microsoft SQL
    Server" (a list files tiberius under "Microsoft SQL"), "mapboxgl" of "Mapbox GL"."""
    words = [word for part in name for word in _NAME_WORD.findall(part.lower())]
    while len(words) > 1 and words[-1] in _KIND_WORDS:
        words.pop()
    return "".join(words)


def _examples_or_own(examples: np.ndarray, own: np.ndarray, index: int) -> float:
    """A candidate's example requests' closeness, or, when it has none (-1: a live candidate), its
    own text's as the gate would read its requests' (``EXAMPLES_OVER_OWN`` more)."""
    return float(examples[index]) if examples[index] > -1.0 else float(own[index]) + EXAMPLES_OVER_OWN


def fits(
    params: SearchParams, lexical_order: Sequence[Repository], all_core: set[str],
    readmes: dict[str, str] | None = None, *, small: bool = False, exact: set[str] | None = None,
    qualifier_only: set[str] | None = None, gate: bool = True, known: Callable[[str], bool | None] | None = None,
    wordless: set[str] | None = None, in_language: set[str] | None = None,
    users: Callable[[str, int], frozenset[str] | None] | None = None,
) -> dict[str, Fit]:
    """Full name -> Fit for the candidates that clear the floor (the others are left out).

    ``lexical_order`` is the candidates best first by words; ``all_core`` holds the full names
    matching every core concept lexically; ``known`` says whether the searched collection uses a
    word at all (``RepoSource.knows_word``: the offline catalog's vocabulary; None where it cannot tell),
    ``users`` which few repositories use a rare one (``RepoSource.word_users``);
    ``wordless`` holds those matching none of the need's words, ``in_language`` (under a language
    filter) those in the language or made for it, as relevance reads them (``misses_language``).
    """
    from core.catalog.catalog import Catalog

    if not lexical_order:
        return {}
    text = semantic_query(params)
    need = read_need(text)
    lexical_order = [r for r in lexical_order if not need.left_out(r.full_name)]
    catalog = Catalog.load()
    if gate and (naming := _names_product(need, catalog)) is not None:  # "show the closest matches anyway" shows them
        lexical_order = [r for r in lexical_order if naming(r)]
    if gate and any(hosts := hosts_asked(params.text, tuple(need.compared))):  # made for another editor, framework or platform
        lexical_order = [r for r in lexical_order if not made_for_a_rival(hosts, _own_texts(catalog, r))]
    if not lexical_order:
        return {}
    wanted = need_vector(text)
    vectors = repository_vectors(lexical_order, readmes, wanted)
    own = similarities(wanted, vectors)
    # how close each candidate's example requests are, and how typical the need is of them (nan: fewer than two)
    examples, typical = catalog.example_readings(wanted, [r.full_name for r in lexical_order])
    closeness = meaning(own, examples)
    best = float(closeness.max())
    gate_margin = SPOKEN_EXAMPLE_GATE_MARGIN if need.spoken else EXAMPLE_GATE_MARGIN
    listed = np.array([catalog.listed_only(r.full_name) for r in lexical_order])  # live or offline alike
    gate_closeness = meaning(own, examples - LISTED_EXAMPLE_GATE_MARGIN * listed, gate_margin)  # what the gate reads
    evidence = float(gate_closeness.max())
    stand_ins = {r.full_name for r in lexical_order if need.stands_in(r.description)}
    # named by its words (under a language filter, one in the language or made for it)
    named_by_words = {r.full_name for i, r in enumerate(lexical_order)
                      if float(closeness[i]) >= LEXICAL_FLOOR and (r.full_name in all_core or r.full_name in stand_ins)
                      and (in_language is None or r.full_name in in_language)}
    named = bool(named_by_words)
    # "show me more" (``gate`` off) / "besides X" follow a search whose best matches were left out
    gate_at = MATCH_GATE
    # a word that no repository text and no example request uses names a concept the catalog lacks
    # ("knitting", "kennel", "GST"); the example requests hold the words of the situations people describe
    telling = telling_words(text)
    rarity = rarities(telling, catalog.records_using, len(catalog))  # what each weighs in ``share``
    spoken: dict[str, frozenset[str]] = {}  # the candidates' words, each worked out once

    def words_of(repo: Repository) -> frozenset[str]:
        if (found := spoken.get(repo.full_name)) is None:
            found = spoken[repo.full_name] = _words_of(catalog, repo)
        return found

    unknown_word = known is not None and any(known(word) is False for word in telling)
    if unknown_word:
        gate_at = SITUATED_UNKNOWN_WORD_GATE if need.situated else UNKNOWN_WORD_GATE
    if wordless is not None and evidence < THIN_EVIDENCE_GATE:
        closest = np.argsort(-gate_closeness, kind="stable")
        if params.language:  # of that language itself: its family may be wordless only for being listed
            asked_for = {language.lower() for language in params.languages}
            its_own = [i for i in closest if (lexical_order[i].language or "").lower() in asked_for]
            closest = np.array(its_own or closest, dtype=np.int64)
        closest = closest[:WORDLESS_LOOK]
        thin = bool(params.language) or bool(listed[closest[0]])
        if thin and sum(lexical_order[i].full_name in wordless for i in closest) >= min(WORDLESS_MIN, len(closest)):
            gate_at = max(gate_at, THIN_EVIDENCE_GATE)
    # under a language filter, the candidates in it or made for it, and (for "a Clojure library for
    # X") their closeness to the need without the language's name
    ours = [i for i, r in enumerate(lexical_order) if r.full_name in in_language] if in_language else []
    bare = evidence_query(params) if ours else None
    closeness_without_language: dict[str, float] = {}
    if ours:  # a hard filter: what other languages have is no evidence that something fits in this one
        evidence = float(gate_closeness[ours].max())
    if ours and users is not None and _only_elsewhere(text, lexical_order, closeness, ours, users):
        gate_at = max(gate_at, ELSEWHERE_GATE)
    if bare is not None:
        without = need_vector(bare)  # the same candidate vectors: nothing more is encoded
        bare_own = similarities(without, vectors[ours])
        bare_examples = catalog.example_cosines(without, [lexical_order[i].full_name for i in ours])
        if float(meaning(bare_own, bare_examples - LISTED_EXAMPLE_GATE_MARGIN * listed[ours], gate_margin).max()) \
                < LANGUAGE_FREE_GATE:
            evidence = 0.0  # close only through the language: "a Clojure library for generating QR codes"
        closeness_without_language = {lexical_order[i].full_name: float(c)
                                      for i, c in zip(ours, meaning(bare_own, bare_examples))}
    borderline = False  # the gate nearly said nothing fits: then nothing is a sure fit
    if gate and not named and not params.exclude:
        # under a language filter, the closest in it, and how typical the need without the language is of them
        nearest = sorted(ours or range(len(lexical_order)), key=lambda i: -float(gate_closeness[i]))
        look = nearest[:TYPICAL_LOOK]
        measured = typical[look][~np.isnan(typical[look])]
        closest_words = frozenset().union(*(words_of(lexical_order[i]) for i in look))
        reading = GateReading(
            over=evidence - gate_at,
            typicality=(_typicality(catalog, need_vector(bare), [lexical_order[i] for i in look]) if bare is not None
                        else float(measured.max()) if len(measured) else None),
            lead=float(gate_closeness[nearest[0]] - gate_closeness[nearest[1]]) if len(nearest) > 1 else 0.0,
            examples=_examples_or_own(examples, own, nearest[0]),
            words=len(telling), unknown_word=unknown_word, in_language=bool(ours),
            covered=share(rarity, closest_words),
            named_covered=share(restricted(rarity, named_words(text)), closest_words))
        record(reading)
        if reading.nothing_fits:
            return {}
        borderline = reading.nothing_surely_fits
    typical = np.nan_to_num(typical, nan=0.0)
    out: dict[str, Fit] = {}
    popularity: dict[str, float] = {}
    for index, repo in enumerate(lexical_order):
        close = float(closeness[index])
        core = repo.full_name in all_core
        stand_in = repo.full_name in stand_ins
        if close < (LEXICAL_FLOOR if core or stand_in else max(FLOOR, best - RELATIVE_FLOOR)):
            continue
        words = (LEXICAL_WEIGHT * RRF_K / (RRF_K + index + 1) + (ALL_CORE_BONUS if core else 0.0)
                 + (EXACT_BONUS if exact and repo.full_name.lower() in exact else 0.0)
                 - (QUALIFIER_ONLY_PENALTY if qualifier_only and repo.full_name in qualifier_only
                    and close < QUALIFIER_ONLY_CLOSE else 0.0))
        earlier = None if repo.figures_known else catalog.earlier_stars(repo.full_name)
        prior = popularity_prior(repo.stars, repo.figures_known, small, earlier_stars=earlier)
        popularity[repo.full_name] = prior * (COMMON_USE_POPULARITY if need.asks_common else 1.0)
        covered = share(rarity, words_of(repo))
        fused = (close + popularity[repo.full_name]
                 + need.word_trust * words
                 + (STAND_IN_BONUS if stand_in else 0.0) - not_the_answer(need, repo.full_name, repo.description)
                 + LANGUAGE_FREE_WEIGHT * closeness_without_language.get(repo.full_name, 0.0)
                 + TYPICALITY_WEIGHT * float(typical[index])
                 + COVERED_WEIGHT * covered
                 - (UNCONFIRMED_LANGUAGE_PENALTY if params.language and not repo.language else 0.0))
        sure = repo.full_name in named_by_words or (
            not borderline and float(gate_closeness[index]) >= gate_at + SURE_MARGIN)
        out[repo.full_name] = Fit(closeness=close, fused=fused, stands_in=stand_in, sure=sure, covered=covered)
    if not any(f.sure for f in out.values()):  # the closest matches: closeness leads, popularity counts less
        out = {name: replace(f, fused=f.fused - (1 - UNSURE_POPULARITY) * popularity[name]) for name, f in out.items()}
    fitting = sum(1 for f in out.values() if not f.weak)
    if fitting >= WEAK_DROPPED_FROM:
        out = {name: f for name, f in out.items() if not f.weak}
    return out
