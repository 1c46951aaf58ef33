"""Curated-list entries: which awesome list files a repository under which category.

Two packaged files, written by ``core.catalog.build`` from the awesome-lists category data:
``awesome-lists.csv.gz`` (lists under CC0, MIT, Apache-2.0, CC-BY-4.0, Unlicense, WTFPL) and
``awesome-lists-sharealike.csv.gz`` (the CC BY-SA lists, which may only be shared under that
license; see ``awesome-lists-sharealike.LICENSE.md``). One row per repository (grouped at build
time, so loading does no grouping): its name, language, category labels, the lists' one-line
descriptions of it, the lists and their licenses; many-valued cells are newline-separated.

A repository known only from a list has no star, fork, issue or push figures offline; its language
is the list's language when the list is about one language (awesome-go -> Go), or its section's in
a list organised by language (awesome-machine-learning: "Python > Spiking Neural Networks"), or
else the one its description says it is written in ("IRC server written in C"), otherwise unknown;
read from every list that files it, whichever file its rows ship in. Where a language's list and
its family's both file it (awesome-javascript and awesome-typescript), it is the family member,
which a filter on either language accepts. awesome-cpp's entries are C, C++ or "C/C++" and
awesome-dotnet's C# or F#, as their descriptions say.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from dataclasses import dataclass
from pathlib import Path

from core.search.synonyms import LANGUAGE_FAMILY
from core.search.vocabulary import LANGUAGES

LIST_COLUMNS = ["full_name", "language", "categories", "descriptions", "lists", "licenses"]
SHARE_ALIKE_PREFIX = "CC-BY-SA-"
SEPARATOR = "\n"  # between the values of a many-valued column (csv quotes it)

# lists about one language: their entries are taken to be written in it
LIST_LANGUAGES = {
    "avelino/awesome-go": "Go",
    "rust-unofficial/awesome-rust": "Rust",
    "vinta/awesome-python": "Python",
    "akullpp/awesome-java": "Java",
    "fffaraz/awesome-cpp": "C/C++",  # "C++ (or C)": see ``c_or_cpp``
    "ziadoz/awesome-php": "PHP",
    "matteocrippa/awesome-swift": "Swift",
    "KotlinBy/awesome-kotlin": "Kotlin",
    "quozd/awesome-dotnet": "C#",
    "sorrycc/awesome-javascript": "JavaScript",
    "sindresorhus/awesome-nodejs": "JavaScript",
    "dzharii/awesome-typescript": "TypeScript",
}


# lists whose top-level sections are languages ("Python > Spiking Neural Networks"): an entry is
# taken to be written in its section's language, by GitHub's name for it (the search vocabulary's,
# plus the few languages a request never names there)
LISTS_BY_LANGUAGE = {"josephmisiti/awesome-machine-learning"}
OTHER_SECTION_LANGUAGES = {"common lisp": "Common Lisp", "fortran": "Fortran", "scheme": "Scheme", "apl": "APL",
                           "sas": "SAS"}
SECTIONS_OF_MANY_LANGUAGES = {".net"}  # C#, F# and Visual Basic alike


def section_language(list_name: str, category: str) -> str | None:
    """The language of the section an entry is filed under, in a list organised by language."""
    if list_name not in LISTS_BY_LANGUAGE:
        return None
    section = category.split(" > ", 1)[0].strip().lower()
    if section in SECTIONS_OF_MANY_LANGUAGES:
        return None
    return LANGUAGES.get(section) or OTHER_SECTION_LANGUAGES.get(section)


def category_label(list_name: str, category: str) -> str:
    """"awesome-go: Web Frameworks > Routers" (the self-hosted list's tags read as categories)."""
    short = list_name.split("/", 1)[1].removesuffix("-data")
    return f"{short}: {category}" if category else short


C_OR_CPP = "C/C++"  # a search for C or for C++ covers it (``core.search.synonyms.LANGUAGE_FAMILY``)
_NAMES_CPP = re.compile(r"c\+\+|\bcpp\b|\bcxx\b", re.IGNORECASE)
_NAMES_C = re.compile(r"(?<![-\w.])C(?:89|99|11|17)?(?![\w+#-])")  # not C++, C#, Objective-C, "C-style"


def c_or_cpp(description: str) -> str:
    """awesome-cpp lists C libraries beside C++ ones under one language: an entry is C or C++
    where its description names the one and not the other ("Single C file TLS"), "C/C++" where
    it names neither or both ("Extremely fast non-cryptographic hash algorithm": xxHash is C)."""
    cpp, c = bool(_NAMES_CPP.search(description)), bool(_NAMES_C.search(description))
    return "C++" if cpp and not c else "C" if c and not cpp else C_OR_CPP


_NAMES_FSHARP = re.compile(r"(?<![\w#])F#", re.IGNORECASE)
_NAMES_OTHER_DOTNET = re.compile(r"(?<![\w#])(?:C#|VB(?:\.NET)?|Visual\s+Basic)(?![\w#])", re.IGNORECASE)


def csharp_or_fsharp(description: str) -> str:
    """awesome-dotnet lists F# projects beside C# ones under one language: an entry is F# where its
    description names F# and neither C# nor Visual Basic ("Functional (F#) ASP.NET Core micro
    framework"), C# otherwise."""
    return "F#" if _NAMES_FSHARP.search(description) and not _NAMES_OTHER_DOTNET.search(description) else "C#"


def list_language(filed: list[tuple[str, str, str]]) -> str | None:
    """The language of a repository from the (list, category, description) it is filed under: a
    one-language list's, or its section's in a list organised by language. A C or C++ entry of
    several lists is the one a more precise list says."""
    languages = {c_or_cpp(description) if language == C_OR_CPP else
                 csharp_or_fsharp(description) if language == "C#" else language
                 for name, _, description in filed if (language := LIST_LANGUAGES.get(name))}
    languages |= {language for name, category, _ in filed if (language := section_language(name, category))}
    if len(languages) == 2 and C_OR_CPP in languages and languages & {"C", "C++"}:
        languages.discard(C_OR_CPP)
    if not languages:  # no list about one language files it: what its descriptions say it is written in
        languages = {language for _, _, description in filed for language in stated_languages(description)}
    return one_language(languages)


def one_language(languages: set[str]) -> str | None:
    """The language of a repository that lists file under each of ``languages``: the one; where a
    language's list and its family's disagree (awesome-javascript and awesome-typescript, awesome-java
    and awesome-kotlin), the family member, which a filter on either accepts; otherwise unknown."""
    if len(languages) == 2:
        first, second = sorted(languages)
        if second in LANGUAGE_FAMILY.get(first, ()):
            return second
        if first in LANGUAGE_FAMILY.get(second, ()):
            return first
    return next(iter(languages)) if len(languages) == 1 else None


# languages a description can state it is written in: markup, notebooks and runtimes are what a
# tool works with ("a single HTML file", "for Node"), not what it is
_STATABLE = sorted((alias for alias, language in LANGUAGES.items()
                    if language not in {"TeX", "HTML", "CSS", "Jupyter Notebook", "DM"}
                    and alias not in {"node", "jvm", ".net", "dotnet", "pypi"}), key=len, reverse=True)
_ALIAS = "(" + "|".join(re.escape(alias) for alias in _STATABLE) + r")(?![\w+#])"
_STATED = re.compile(
    r"\b(?:written|implemented|coded|developed|built|made)\s+(?:entirely\s+|purely\s+)?(?:in|with|using)\s+"
    rf"(?:pure\s+|modern\s+|plain\s+)?{_ALIAS}"  # "IRC server written in C", "bookmark manager built with Go"
    rf"|\bpure[- ]{_ALIAS}"  # "pure-Python"
    rf"|(?<![\w.+#-]){_ALIAS}-(?:based|powered)\b"  # "Go-based"
    rf"|\bsingle\s+{_ALIAS}\s+(?:file|script)\b"  # "database management in a single PHP file"
    rf"|(?<![\w.+#-]){_ALIAS}\s+(?:scripts?|daemon|implementation|port|rewrite)\b",  # "Bash script to deploy"
    re.IGNORECASE,
)


def stated_languages(description: str) -> set[str]:
    """The languages a description says its project is written in ("Modular IRC server written in
    C" -> C; "Database management in a single PHP file" -> PHP); empty when it says none."""
    return {LANGUAGES[next(g for g in m.groups() if g).lower()] for m in _STATED.finditer(description)}


@dataclass(slots=True)
class ListedRepository:
    full_name: str  # case as the first list wrote it
    language: str | None
    categories: list[str]  # labels, see ``category_label``
    descriptions: list[str]  # the lists' own words about it, distinct, non-empty


def _grouped(rows: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    """Source rows by lower-case full name, in the source's order."""
    grouped: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        grouped.setdefault(row["full_name"].lower(), []).append(row)
    return grouped


def repository_languages(rows: list[dict[str, str]]) -> dict[str, str | None]:
    """{lower-case full name: ``list_language`` of every row filing it}."""
    return {name: list_language([(r["list"], r["category"], r["description"]) for r in group])
            for name, group in _grouped(rows).items()}


def group_rows(rows: list[dict[str, str]], languages: dict[str, str | None]) -> list[list[str]]:
    """Source rows (one per list, category and repository) -> one CSV row per repository, its
    language from ``languages`` (``repository_languages`` of every row, both license files')."""
    out: list[list[str]] = []
    for name, group in _grouped(rows).items():
        lists = list(dict.fromkeys(r["list"] for r in group))
        out.append(
            [
                group[0]["full_name"],
                languages.get(name) or "",
                SEPARATOR.join(dict.fromkeys(category_label(r["list"], r["category"]) for r in group)),
                SEPARATOR.join(dict.fromkeys(" ".join(r["description"].split()) for r in group if r["description"].strip())),
                SEPARATOR.join(lists),
                SEPARATOR.join(dict.fromkeys(r["list_license"] for r in group)),
            ]
        )
    return out


def _values(cell: str) -> list[str]:
    return cell.split(SEPARATOR) if cell else []


def read_listed(paths: list[Path]) -> dict[str, ListedRepository]:
    """{lower-case full name: what the lists say}, in file order; missing files are skipped."""
    listed: dict[str, ListedRepository] = {}
    for path in paths:
        if not path.is_file():
            continue
        reader = csv.reader(io.StringIO(gzip.decompress(path.read_bytes()).decode("utf-8")))
        next(reader)
        for name, language, categories, descriptions, _lists, _licenses in reader:
            known = listed.get(name.lower())
            if known is None:
                listed[name.lower()] = ListedRepository(name, language or None, _values(categories), _values(descriptions))
            else:  # in both files: merge
                known.categories = list(dict.fromkeys(known.categories + _values(categories)))
                known.descriptions = list(dict.fromkeys(known.descriptions + _values(descriptions)))
                if known.language != (language or None):  # files written apart: lists that disagree
                    known.language = None
    return listed


def is_share_alike(list_license: str) -> bool:
    return list_license.startswith(SHARE_ALIKE_PREFIX)
