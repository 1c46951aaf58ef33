"""Query modifiers: star ranges, popularity words, recency, sort order, result count, language.

``extract_modifiers`` finds them in lower-cased text, removes the words it used, and returns the
*changes* it understood: a key is present only when the user mentioned it (so a follow-up such as
"only popular ones" can change ``min_stars`` and keep everything else).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from core.search.language import written_in
from core.search.vocabulary import LANGUAGES

POPULAR_MIN_STARS = 1_000
VERY_POPULAR_MIN_STARS = 10_000
SMALL_MAX_STARS = 1_000
ACTIVE_DAYS = 180
RECENT_DAYS = 90
NEW_DAYS = 365

_NUM = r"(\d+(?:[.,]\d+)?)\s*(k|m|thousand|million)?"
_STARS = r"\s*(?:github\s+)?(?:stars?|⭐)"
_MIN = r"(?:over|more than|above|at least|greater than|minimum(?: of)?|min|>=?|no less than)"
_MAX = r"(?:under|less than|fewer than|below|at most|up to|maximum(?: of)?|max|<=?|no more than)"

_STAR_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\bstars?:\s*{_NUM}\s*\.\.\s*{_NUM}"), "range"),
    (re.compile(rf"\bstars?:\s*>=?\s*{_NUM}"), "min"),
    (re.compile(rf"\bstars?:\s*<=?\s*{_NUM}"), "max"),
    (re.compile(rf"\bbetween\s+{_NUM}\s+and\s+{_NUM}{_STARS}"), "range"),
    (re.compile(rf"\b{_NUM}\s*(?:-|to)\s*{_NUM}{_STARS}"), "range"),
    (re.compile(rf"(?:\b|(?<=[<>=\s]))(?:with\s+)?{_MIN}\s*{_NUM}\s*\+?{_STARS}"), "min"),
    (re.compile(rf"(?:\b|(?<=[<>=\s]))(?:with\s+)?{_MAX}\s*{_NUM}{_STARS}"), "max"),
    (re.compile(rf"\b{_NUM}\s*\+{_STARS}"), "min"),
    (re.compile(rf"\bstars?\s*(?:>=?|over|above)\s*{_NUM}"), "min"),
    (re.compile(rf"\bstars?\s*(?:<=?|under|below)\s*{_NUM}"), "max"),
]

_REPO_NOUN = (
    r"(?:libraries|library|libs?|projects?|repos?|repositories|tools?|frameworks?|ones|packages?|"
    r"crates?|gems?|stuff|alternatives|options|apps?|engines?|clis?|servers?|clients?|plugins?|sdks?)"
)
# what a popularity word must be about: the software asked for ("popular python orm", "a mature open
# source LMS", "the most popular react libraries", "something popular?"), not another thing ("random
# popular dog names", "a famous art museum", "an established TCP session", "browser-trusted certificates")
_LANGUAGE_NAME = "|".join(re.escape(alias) for alias in sorted(LANGUAGES, key=len, reverse=True))
_SOFTWARE_AFTER = (
    rf"(?=(?:\s+[\w.+#/-]+){{0,3}}?\s+(?:{_REPO_NOUN}|one|{_LANGUAGE_NAME}|"
    r"open[- ]source|self[- ]hosted|software|solutions?|systems?|orms?|databases?|dbs?|parsers?|editors?|"
    r"generators?|managers?|runtimes?|choices?|picks?|stacks?|platforms?|services?)(?![\w+#])|\s*(?:[?.!,;]|$))"
)
_VERY_POPULAR = re.compile(
    r"(?:\b(very|hugely|extremely|massively|super|most) popular\b|(?<!-)\bfamous\b|\bmost used\b)" + _SOFTWARE_AFTER
)
# popularity words about the projects asked for, not about what they come from or stand in for
# ("a PHP port of a well-known strength estimator", "an alternative to the popular X", "the same API
# as the popular coding-stats service"), or what they work in or with
_POPULAR = re.compile(
    r"(?<!\bfrom a )(?<!\bfrom the )(?<!\bof a )(?<!\bof the )(?<!\bon a )(?<!\bon the )(?<!\bto a )"
    r"(?<!\bto the )(?<!\blike a )(?<!\blike the )(?<!\bthan a )(?<!\bthan the )(?<!\bas a )(?<!\bas the )"
    # "reproduce real-world CVEs in popular software", "works across popular browsers"
    r"(?<!\bin )(?<!\bin the )(?<!\bacross )(?<!\bwith )(?<!\binto )"
    r"\b(popular|well[- ]known|widely[- ]used|widely[- ]adopted|battle[- ]tested|established|"
    r"mainstream|production[- ]ready|reputable|trusted|mature)\b(?<!-trusted)" + _SOFTWARE_AFTER
)
_GROWING = re.compile(r"\b(emerging|rising|up[- ]and[- ]coming|trending|fast[- ]growing|growing)\b")
_PROJECT_NOUN = r"(?:projects?|repos?|repositories|ones)"
# what the asker works on: "tiny side project: i want auth + db + ...", "a small hobby project"
_ASKERS_PROJECT = r"(?:side|hobby|pet|weekend|personal|toy|home|school|uni|university|class|learning)\s+projects?\b"
# "niche" and "indie" only about the projects asked for ("niche python testing tools"), and "small"
# only where the projects themselves are small ("small python projects"): before the kind of software
# wanted, "small" and "tiny" say lightweight ("a small C library to read PDFs", "a tiny tool for
# containers", "a small client that updates my DNS"), which a star cap would answer with whatever is
# little known, and leave out every project known only from curated lists (no star figures); never about
# the asker ("our small team", "my small React app", "a tiny indie studio") or what it is for ("for a small
# project", "tiny side project: ...") or the size of what they will run ("run a small server for our
# community") or of what the wanted one is like ("kind of like a tiny Datomic on the client")
_SMALL = re.compile(
    r"\b(hidden gems?|lesser[- ]known|little[- ]known|underrated|obscure|under the radar|"
    r"(?:not (?:so|too|very)|less) popular)\b"
    rf"|(?<!\bour )(?<!\bmy )(?<!\bwe're )(?<!\bwe are )(?<!\bi'm )(?<!\bi am )(?<!\byour )(?<!\btheir )"
    rf"(?<!\brun a )(?<!\bhost a )(?<!\brunning a )(?<!\bhosting a )(?<!\bset up a )(?<!\bdeploy a )"
    rf"(?<!\blike a )(?<!\bas a )(?<!\bfor a )(?<!\bfor an )(?<!\bin a )"
    rf"(?:\b(?:niche|indie)\b(?!\s+{_ASKERS_PROJECT})(?=(?:\s+[\w.+#-]+){{0,3}}?\s+{_REPO_NOUN}\b)"
    rf"|\b(?:small|smaller)\b(?!\s+{_ASKERS_PROJECT})(?=(?:\s+[\w.+#-]+){{0,2}}?\s+{_PROJECT_NOUN}\b))"
)
# "new" only about projects: "new rust web frameworks", not "we're starting a new dashboard", nor
# what a tool tells ("checking which one is newer")
_NEW = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bbe )\b(?:brand[- ]new|newest|newer|recently created|just launched)\b"
    rf"|\b(?:new|young|fresh|recent)\b(?=(?:\s+[\w.+#-]+){{0,3}}?\s+{_REPO_NOUN}\b)"
)
_CREATED = re.compile(r"\b(created|started|launched|born)\b")
_THIS_YEAR = re.compile(r"\b(this|current) year\b")
_LAST_PERIOD = re.compile(r"\b(?:in |within |over )?(?:the )?(?:last|past)\s+(\d+\s+)?(day|week|month|year)s?\b")
# a period says how recent the projects must be only after what they did in it ("updated this year",
# "active in the last 3 months", "created this year") or after the projects ("rust repos from the
# last month"); otherwise it is when something happened to the asker ("someone pushed an AWS key
# last week", "rm -rf burned me twice this year", "the ffmpeg command I ran last month")
_PERIOD_CUE = re.compile(
    r"\b(?:updated?|updates|pushed|commits?|committed|active|activity|maintained|released|releases?|created|"
    r"started|launched|born|new|trending|developed|published)\b(?:\s+[\w.+#-]+){0,3}?\s*$"
    rf"|(?<!\bour )(?<!\bmy )(?<!\byour )(?<!\btheir )(?<!\bthe )\b{_REPO_NOUN}\s+(?:from|of|in|since)?\s*$"
)
# "active" about the projects asked for ("still active", "active ones", "an active community"), not
# about what they handle ("switches which one is active", "Active Directory", "active sessions")
_ACTIVE = re.compile(
    r"\b(actively maintained|actively developed|still maintained|well[- ]maintained|maintained|"
    r"(?:still|only|very|reasonably|fairly)\s+active|active\s+and|and\s+active|"
    r"active(?!\s+(?:directory|record|storage|learning|users?|sessions?|windows?|tabs?|jobs?))"
    rf"(?=(?:\s+[\w.+#-]+){{0,2}}?\s+(?:{_REPO_NOUN}|development|maintenance|community|maintainers?)\b)|"
    r"alive|still developed|not abandoned|not dead)\b"
)
_RECENTLY_UPDATED = re.compile(r"\b(recently updated|up[- ]to[- ]date|recently active|updated recently)\b")
_SORT_UPDATED = re.compile(r"\b(most recent(?:ly updated)?|latest|last updated)\b")
# "top" ranks ("top rust crates"), except where it is a place ("on top of selenium", "at the top of my screen")
_SORT_STARS = re.compile(r"\b(?:most|top)[- ]starred\b|(?<!\bon )(?<!\bthe )\btop\b(?!\s+\d)(?!\s+of\b)|\bmost stars\b|\bby stars\b")
_LIMIT = re.compile(
    r"\b(?:top|first|show me|give me|find me|find|list|just|only|best)\s+(\d{1,2})\b"
    r"(?!\s*(?:k\b|m\b|\+|[.,]\d|stars?|-|to\b|and\b|%|thousand))"
    r"|\b(\d{1,2})\s+(?:repos?|repositories|libraries|libs|projects|tools|results|options|packages|"
    r"frameworks|picks|ones)\b"
)
_ANY_LANGUAGE = re.compile(r"\b(any|all|every|whatever|other) languages?\b")
_PERIOD_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}


@dataclass(slots=True)
class Extraction:
    text: str  # what is left once the modifiers' words are removed
    changes: dict[str, Any] = field(default_factory=dict)

    def cut(self, match: re.Match[str]) -> None:
        self.text = self.text[: match.start()] + " " + self.text[match.end() :]


def parse_number(digits: str, unit: str | None) -> int:
    value = float(digits.replace(",", "")) if "," in digits and len(digits.split(",")[-1]) == 3 else float(digits.replace(",", "."))
    scale = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "million": 1_000_000}.get((unit or "").lower(), 1)
    return int(value * scale)


def extract_modifiers(text: str, today: date) -> Extraction:
    ex = Extraction(text)
    _stars(ex)
    _limit(ex)
    _recency(ex, today)
    _popularity(ex, today)
    _sort(ex)
    _language(ex)
    return ex


def _stars(ex: Extraction) -> None:
    for pattern, kind in _STAR_RULES:
        m = pattern.search(ex.text)
        if not m:
            continue
        g = m.groups()
        if kind == "range":
            low, high = sorted((parse_number(g[0], g[1]), parse_number(g[2], g[3])))
            ex.changes.update(min_stars=low, max_stars=high)
        elif kind == "min":
            ex.changes.setdefault("min_stars", parse_number(g[0], g[1]))
            ex.changes.setdefault("max_stars", None)
        else:
            ex.changes.setdefault("max_stars", parse_number(g[0], g[1]))
            ex.changes.setdefault("min_stars", None)
        ex.cut(m)


def _limit(ex: Extraction) -> None:
    m = _LIMIT.search(ex.text)
    if m:
        ex.changes["limit"] = max(1, min(10, int(m.group(1) or m.group(2))))
        ex.cut(m)


def _recency(ex: Extraction, today: date) -> None:
    created = bool(_CREATED.search(ex.text))
    key = "created_after" if created else "pushed_after"
    if (m := _THIS_YEAR.search(ex.text)) and _PERIOD_CUE.search(ex.text[: m.start()]):
        ex.changes[key] = date(today.year, 1, 1)
        ex.cut(m)
    elif (m := _LAST_PERIOD.search(ex.text)) and _PERIOD_CUE.search(ex.text[: m.start()]):
        count = int(m.group(1)) if m.group(1) else 1
        ex.changes[key] = today - timedelta(days=count * _PERIOD_DAYS[m.group(2)])
        ex.cut(m)
    if m := _RECENTLY_UPDATED.search(ex.text):
        ex.changes.setdefault("pushed_after", today - timedelta(days=RECENT_DAYS))
        ex.cut(m)
    if m := _ACTIVE.search(ex.text):
        ex.changes.setdefault("pushed_after", today - timedelta(days=ACTIVE_DAYS))
        ex.cut(m)
    if created and (m := _CREATED.search(ex.text)):
        ex.cut(m)


def _popularity(ex: Extraction, today: date) -> None:
    stars_given = "min_stars" in ex.changes or "max_stars" in ex.changes
    rules = (
        (_VERY_POPULAR, {"min_stars": VERY_POPULAR_MIN_STARS, "max_stars": None, "sort": "stars"}),
        (_SMALL, {"min_stars": None, "max_stars": SMALL_MAX_STARS}),
        (_POPULAR, {"min_stars": POPULAR_MIN_STARS, "max_stars": None}),
        (_GROWING, {"min_stars": None, "sort": "growth"}),
        (_NEW, {"min_stars": None, "created_after": today - timedelta(days=NEW_DAYS)}),
    )
    for pattern, changes in rules:
        m = pattern.search(ex.text)
        if not m:
            continue
        for k, v in changes.items():
            if stars_given and k in ("min_stars", "max_stars"):
                continue
            ex.changes.setdefault(k, v)
        stars_given = stars_given or "min_stars" in ex.changes or "max_stars" in ex.changes
        ex.text = pattern.sub(" ", ex.text)


def _sort(ex: Extraction) -> None:
    if m := _SORT_UPDATED.search(ex.text):
        ex.changes.setdefault("sort", "updated")
        ex.cut(m)
    if m := _SORT_STARS.search(ex.text):
        ex.changes.setdefault("sort", "stars")
        ex.cut(m)


def _language(ex: Extraction) -> None:
    if m := _ANY_LANGUAGE.search(ex.text):
        ex.changes.update(language=None, also_languages=[])
        ex.cut(m)
        return
    if found := written_in(ex.text):
        (language, *also), spans = found
        ex.changes.update(language=language, also_languages=also)
        for start, end in reversed(spans):
            ex.text = ex.text[:start] + " " + ex.text[end:]
