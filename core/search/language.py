"""Which programming language a request names as a filter, and where it says so.

"a static site generator written in Go" filters by Go; "a JavaScript and CSS bundler written in Go"
too (what a tool is written in wins over what it handles); "a modern alternative to LaTeX", "slice
JSON in the shell", "two shell commands", "a prompt that also works in fish and PowerShell",
"a version manager for Node, Python, Ruby and Go", "writing my thesis in LaTeX" and "with no Python
in the loop" name no filter (what is left behind, where a tool runs, what it works on, the several
ecosystems it serves, what a document is written in, what is ruled out). A Python linter keeps
Python: the named-language search also takes repositories whose description mentions the language
(ruff, written in Rust).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.search.synonyms import LANGUAGE_FAMILY
from core.search.vocabulary import (
    AMBIGUOUS_LANGUAGES,
    AMBIGUOUS_OK_ALONE,
    LANGUAGE_CONTEXT_AFTER,
    LANGUAGE_CONTEXT_BEFORE,
    LANGUAGES,
)

_ALIASES = sorted(LANGUAGES, key=len, reverse=True)
# a language's name standing alone ("python-dotenv" names a package), after "pure-" ("a pure-Go
# driver") or before "-based" or "-native" ("a Go-based PHP app server", "a lua-native plugin")
_LANGUAGE_PATTERN = re.compile(
    r"(?:(?<=\bpure-)|(?<![\w+#.\-]))(" + "|".join(re.escape(a) for a in _ALIASES) + r")(?![\w+#]|\.\w|-(?!(?:based|native)\b)\w)"
)
_BASED = re.compile(r"-(?:based|native)\b")  # "a Go-based app server", "a lua-native plugin"
# what a tool works with, not what it is written in: "two shell commands" (but "a Rust command-line
# tool" and "a Rust command that waits for ports" are written in Rust), "an emulator with Lua
# scripting", "faster Python installs", "installing Python packages", "our TypeScript repo" (but
# "Python packages for PDFs" are libraries), "Erlang VM internals", "a JavaScript runtime", "the
# ECMAScript language spec", "a Python grammar for tree-sitter", "running python -m http.server"
_WORKS_ON = re.compile(
    r"\s+(?:commands?(?![-\s]+line|\s+(?:that|which)\b)|vms?|virtual\s+machines?|runtimes?|interpreters?|"
    r"scripting|scriptable|history|sessions?|prompts?|dependencies|dependency|"
    r"(?:language\s+)?(?:specs?|specifications?|grammars?|proposals?)\b|"
    r"installs?|snippets?|templates?|contracts?|files?|-{1,2}[a-z][\w-]*|"
    r"toolchains?|versions?|source\b|(?:compile\s+)?errors?|error\s+messages?|warnings?|"
    r"packages?(?!\s+(?:for|that|which|to|with|implementing|providing|wrapping|offering|exposing)\b)|(?:repo|repository|codebase|monorepo)\b)\b"
)
# what is left behind: "a modern alternative to LaTeX", "instead of PHP", "replace a Makefile full
# of shell snippets", "so done with LaTeX" (up to a few words on, unless they say what the new one
# is in: "a replacement for moment.js in TypeScript"); what is moved from is left behind too
_INSTEAD_OF = re.compile(
    r"\b(?:alternatives?\s+(?:to|for)|replacements?\s+(?:to|for)|replace|replacing|instead\s+of|"
    r"rather\s+than|migrat\w*\s+(?:off|away\s+from|from)|moving\s+(?:off|away\s+from)|leaving|"
    # "moving a course from MATLAB's toolbox to Julia", "switching our scripts from Perl", "coming from Kotlin"
    r"(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|port(?:s|ed|ing)?|transition(?:s|ed|ing)?|com(?:e|es|ing))\s+"
    r"(?:[^\s,.;:!?]+\s+){0,3}from|"
    r"done\s+with|tired\s+of|sick\s+of|fed\s+up\s+with|than)\s+"
    r"(?:(?!(?:in|for|with|using|written|on|to|want|wants|need|needs|looking)\b)[^\s,.;:!?]+\s+){0,5}$"
    # "instead of rewriting it in Python": what they would rather not do
    r"|\binstead\s+of\s+(?:re)?(?:writ|port|build|implement|translat)\w*\s+(?:[^\s,.;:!?]+\s+){0,3}(?:in|to|into)\s+$"
)
# where it runs or what it serves: "also works in fish and PowerShell", "runs on Linux and macOS"
_RUNS_IN = re.compile(
    r"\b(?:works?|working|runs?|running)\s+(?:in|on|with|across)\s+(?:[\w+#.-]+(?:\s*,\s*|\s+(?:and|or)\s+))*$"
    r"|\b(?:supports?|supporting|compatible\s+with)\s+(?:[\w+#.-]+(?:\s*,\s*|\s+(?:and|or)\s+))*$"
)
# what a document is written in: "writing my thesis in LaTeX", "our docs are in Markdown"; the
# tool that helps with it is rarely written in it ("a thesis template in LaTeX" still filters)
_DOCUMENT_IN = re.compile(
    r"\b(?:thes[ie]s|dissertations?|papers?|books?|notes|cv|resumes?|reports?|slides|docs|documents?|"
    r"documentation|manuscripts?|articles?|homework|essays?)\s+(?:(?:is|are|was|were)\s+)?"
    r"(?:(?:all\s+)?(?:written|typeset|kept)\s+)?in\s+$"
)
# "for Node, Python, Ruby and Go toolchains": three languages or more in one enumeration
_ENUMERATION_GAP = re.compile(r"^\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+|/)\s*$")
ENUMERATION_MIN = 3
# ...or two after "for": "a visual debugger for Python and C++" serves both, written in neither
_SERVES_BOTH = re.compile(r"\bfor\s+(?:both\s+)?$")
# where it runs: "slice JSON up in the shell"; what it turns things into: "logs into (detailed) HTML reports"
_IN_THE = re.compile(r"\b(?:in|on|from|at|inside|into|within)\s+the\s+$|\binto\s+(?:\w+\s+)?$")
# what it makes: "a log analyzer that produces HTML reports", "renders Markdown"; a maker named
# by its noun is written in the language after it ("a static site generator in Rust"), though
# markup after it is still what it makes (``_MAKES_MARKUP``: "a report generator in HTML")
_MAKING = r"\b(?:produc|generat|output|render|export|emit)\w*\s+"
_MAKING_VERB = (r"\b(?:produc(?:e|es|ed|ing)|generat(?:e|es|ed|ing)|output(?:s|ted|ting)?|render(?:s|ed|ing)?|"
                r"export(?:s|ed|ing)?|emit(?:s|ted|ting)?)\s+")
_MAKES = re.compile(_MAKING_VERB + r"(?:(?:as|in|to|into)\s+)?$")
# what is ruled out: "with no python in the loop", "without Java", "not Electron", "without
# running a python sidecar"
_RULED_OUT = re.compile(r"\b(?:no|not|non-|without(?:\s+(?:running|using|needing|calling|shipping|an?|any|the))*)\s*$")
# markup after "to" or "into" is what a tool turns things into: "export chat history to HTML,
# JSON or plain text", "convert slides to TeX"
_INTO_MARKUP = re.compile(r"\b(?:to|into)\s+$")
# markup before a kind of document or its editing, or in a list of formats, is what a tool reads or
# writes: "nice html performance reports", "collaborative latex editing", "converts between
# markdown, docx, latex, html and epub"
_MARKUP_DOCUMENT = re.compile(
    r"\s+(?:\w+\s+)?(?:reports?|documents?|output|exports?|pages?|tables?|edit(?:ing|ors?|s)?|writing)\b"
)
# ...and markup a few words after making it: "render email-client-safe html", "outputs clean, valid HTML"
_MAKES_MARKUP = re.compile(_MAKING + r"(?:[\w-]+,?\s+){0,2}$")
_FORMAT_LIST = re.compile(r"(?:[\w.+#-]+\s*,\s*){2,}(?:and\s+|or\s+)?[\w.+#-]+")
# a shell is where a tool is used ("changed from shell scripts", "on Windows 11 with PowerShell"),
# whatever the tool is written in
_SHELL_USED = re.compile(r"\b(?:from|with|using)\s+(?:my\s+|our\s+|your\s+)?$")
# ...and "in" or "inside" shell scripts: "parse URLs inside shell scripts", "JSON in our bash scripts"
_IN_SCRIPTS = re.compile(r"(?<!written )(?<!implemented )\b(?:in|inside|within)\s+(?:my\s+|our\s+|your\s+)?$")
_SCRIPTS = re.compile(r"\s+scripts?\b")
_SHELLS = frozenset({"Shell", "PowerShell"})
# Jupyter is where code runs ("we do our calcs in Jupyter"); it filters only as notebooks asked for
_NOTEBOOKS = re.compile(r"\s*notebooks?\b")
# what is imitated: "a generics package modeled on Kotlin's collections", "in the spirit of Ruby's
# Sidekiq" (the one wanted is in the language the request names elsewhere, or in any)
_IMITATES = re.compile(
    r"\b(?:modell?ed\s+(?:on|after)|inspired\s+by|(?:in\s+the\s+)?(?:style|spirit)\s+of|similar\s+to|"
    r"(?<!'d )(?<!would )like(?:\s+the(?:\s+(?:classic|old|good\s+old|original|famous))?)?|mimic(?:s|king)?|"
    r"borrow(?:s|ed|ing)?\s+from)\s+$"
)
# what is installed: "with a package manager so I can install git, python and ssh", "install
# up-to-date Node.js builds" (but "install a Go web framework" asks for one in Go)
_INSTALLED = re.compile(
    r"\binstall(?:s|ed|ing)?\s+(?:(?!(?:a|an|the|some|any)\s)[^\s,.;:!?]+(?:\s*,\s*|\s+(?:and|or)\s+|\s+)){0,3}$"
)
# what comes before a language that makes it context, not a filter
_CONTEXT_BEFORE = (_INSTEAD_OF, _IN_THE, _RUNS_IN, _DOCUMENT_IN, _MAKES, _RULED_OUT, _IMITATES, _INSTALLED)
_IMPLEMENTED_IN = re.compile(r"\b(?:written|implemented|built|made|coded|programmed)\s+(?:in|with)\s+$")
# "static analysis for javascript": the language ends the clause, so it names the ecosystem the
# filter already keeps; in "a build system for JavaScript monorepos" it qualifies the need and stays
_FOR = re.compile(r"\bfor\s+$")
_CLAUSE_END = re.compile(r"\s*(?:$|[,.;:!?)]|\b(?:that|which|with|please)\b)")
_WRITTEN_IN = re.compile(r"(?:\b(?:written|implemented|built|made|coded|programmed)\s+)?\bin\s+$")
# "bugs in Clojure programs", "leaks in our Go services": what a tool works on, which stays in the need
_WORKED_ON = re.compile(r"\s+(?:programs?|code|codebases?|projects?|files?|apps?|applications?|repos?|repositories|"
                        r"scripts?|sources?|modules?|services?|notebooks?)\b", re.IGNORECASE)


# of two languages named alike, the one in a later sentence is in the request, the other in its
# background: "data science trains models in Python ... anything that predicts natively in Go?"
_SENTENCE_END = re.compile(r"[.?!;](?=\s)")
# the asker's own pages are in it: "all our CSS is Bulma already" (what a tool is written in is not said so)
_OWN_MARKUP = re.compile(r"\b(?:our|my|the|their)\s+$")
_IS = re.compile(r"\s+(?:is|are|was|were)\b")
# a language the asker would take too: "zig would also be ok", "rust is fine too", "kotlin works as well"
_ALSO_FINE = re.compile(
    r"\s+(?:would|will|is|'s|works?)\s+(?:also\s+)?(?:be\s+)?(?:also\s+)?(?:ok|okay|fine|acceptable)\b"
    r"|\s+(?:works?|would\s+work)\s+(?:too|as\s+well)\b"
)
# ...or one offered after the rest of the request: "for our Go service, or .NET for the other one"
_OR_ALSO = re.compile(r"(?<![\w+#])[\w+#.-]+,\s+or\s+(?:maybe\s+|perhaps\s+|even\s+)?$")
# "in go or rust", "in rust or in go", "a rust/go library": either language will do
_EITHER_GAP = re.compile(r"\s*(?:or(?:\s+in)?|/)\s*")


def left_behind(before: str) -> bool:
    """Whether the words ``before`` a name (lower-cased) say the asker leaves it or imitates it: "an
    alternative to", "moving off", "instead of", "like the"."""
    return bool(_INSTEAD_OF.search(before) or _IMITATES.search(before))


def written_in(text: str) -> tuple[tuple[str, ...], list[tuple[int, int]]] | None:
    """The languages ``text`` (lower-cased) filters by, with the spans of the words that say so
    ("in go", "written in go", "golang"), in order; None when it names none. Usually one; more
    when the asker takes either ("in go or rust", "a rust/go library": ``_either``) or one as well
    ("zig would also be ok"), the first as named."""
    mentioned = list(_LANGUAGE_PATTERN.finditer(text))
    enumerated = _enumerated(text, mentioned)
    named = [m for m in mentioned
             if (m.group(1) not in AMBIGUOUS_LANGUAGES or m.group(1) in AMBIGUOUS_OK_ALONE or _has_context(text, m)
                 or _ALSO_FINE.match(text, m.end()))
             and not _WORKS_ON.match(text[m.end():])
             and not any(context.search(text[: m.start()]) for context in _CONTEXT_BEFORE)
             and (m.group(1) != "jupyter" or _NOTEBOOKS.match(text[m.end():]))
             # "LaTeX-native vector graphics" are what a tool writes, as "a Lua-native plugin" is in Lua
             and not (LANGUAGES[m.group(1)] in MARKUP and (_format(text, m) or text.startswith("-native", m.end())
                                                          or _OWN_MARKUP.search(text, 0, m.start()) and _IS.match(text, m.end())))
             and not (LANGUAGES[m.group(1)] in _SHELLS and _shell_used(text, m))
             and m.start() not in enumerated]
    if not named:
        return None
    # "C++, header-only please. zig would also be ok": taken as well, not the filter's first
    also = [n for n in named if _ALSO_FINE.match(text, n.end()) or _OR_ALSO.search(text, 0, n.start())]
    first_choices = [n for n in named if n not in also] or named
    m = min(first_choices, key=lambda m: (not _packages_named(text, LANGUAGES[m.group(1)], named),
                                          *_markup_last(m, _implementation_rank(text, m), text),
                                          -len(_SENTENCE_END.findall(text, 0, m.start()))))
    run = _either(text, mentioned, m)
    start = run[0].start()
    before = text[:start].rstrip()
    for word in sorted(LANGUAGE_CONTEXT_BEFORE, key=len, reverse=True):
        if before.endswith(" " + word) or before == word:
            start = len(before) - len(word)
            break
    languages = dict.fromkeys([LANGUAGES[m.group(1)], *(LANGUAGES[n.group(1)] for n in [*run, *also])])
    spans = [(start, run[-1].end())]
    spans += [(n.start(), fine.end()) for n in also if n not in run and (fine := _ALSO_FINE.match(text, n.end()))]
    return tuple(languages), sorted(spans)


def _either(text: str, mentioned: list[re.Match[str]], m: re.Match[str]) -> list[re.Match[str]]:
    """The run of languages offered as a choice around the one ``m`` filters by (``m`` alone when
    none is): each joined to the next by "or" or a slash, none of them markup unless ``m`` is, and
    none followed by what a tool works with ("rust or go toolchains")."""
    markup = LANGUAGES[m.group(1)] in MARKUP

    def joins(a: re.Match[str], b: re.Match[str], added: re.Match[str]) -> bool:
        """Whether ``a`` and ``b`` are offered as a choice, ``added`` the one the run gains."""
        return (_EITHER_GAP.fullmatch(text, a.end(), b.start()) is not None
                and (LANGUAGES[added.group(1)] in MARKUP) == markup and not _WORKS_ON.match(text[added.end():]))

    first = last = next(i for i, n in enumerate(mentioned) if n.start() == m.start())
    while first > 0 and joins(mentioned[first - 1], mentioned[first], mentioned[first - 1]):
        first -= 1
    while last + 1 < len(mentioned) and joins(mentioned[last], mentioned[last + 1], mentioned[last + 1]):
        last += 1
    return mentioned[first: last + 1]


def without_language(text: str, languages: Sequence[str]) -> str:
    """``text`` without where it says what the software is written in or for ("a static site
    generator written in Go" -> "a static site generator", "static analysis for javascript" ->
    "static analysis", "in go or rust" -> ""): once the languages are a filter, every candidate is
    in one or made for it, and those words would only pull the meaning toward anything about the
    language. A language that qualifies the need stays ("a Python linter", "JavaScript
    monorepos"): it is part of it."""
    mentioned = list(_LANGUAGE_PATTERN.finditer(text.lower()))
    for a, b in reversed(list(zip(mentioned, mentioned[1:]))):  # a choice is said once: "in go or rust" -> "in go"
        if LANGUAGES[a.group(1)] in languages and LANGUAGES[b.group(1)] in languages \
                and _EITHER_GAP.fullmatch(text, a.end(), b.start()):
            text = text[: a.end()] + text[b.end():]
    for m in reversed(list(_LANGUAGE_PATTERN.finditer(text.lower()))):
        if LANGUAGES[m.group(1)] not in languages:
            continue
        if based := _BASED.match(text.lower(), m.end()):  # "a Go-based app server" -> "a app server"
            text = text[: m.start()] + text[based.end():]
            continue
        before = text.lower()[: m.start()]
        lead = _WRITTEN_IN.search(before) or (_FOR.search(before) if _CLAUSE_END.match(text[m.end():]) else None)
        if lead and not (lead.group(0).startswith("in") and _WORKED_ON.match(text[m.end():])):
            text = text[: lead.start()] + text[m.end():]
    return " ".join(text.split())


# "a Clojure library", "an Elixir client driver", "the Julia package": the language names what kind
# of library is wanted, which every candidate in it shares
_PACKAGE = (r"librar(?:y|ies)|packages?|modules?|clients?|drivers?|crates?|gems?|toolbox(?:es)?|sdks?|bindings|ports?|"
            r"wrappers?|implementations?")
_LIBRARY_KIND = re.compile(rf"(/[\w.]+)?\s+(?:\w+\s+)?(?:{_PACKAGE}|parsers?|libs?|"
                           # "we're a Haskell team", "an Elixir shop": who asks, which every candidate shares too
                           r"teams?|shop|devs|developers|programmers|engineers|folks|house|company|startup)\b")
# markup before one of these is what the package is written in ("a LaTeX package"); an "html parser" reads it
_PACKAGE_KIND = re.compile(rf"\s+(?:\w+\s+)?(?:{_PACKAGE})\b")


# "in a rust service", "for our Go backend": the asker's own code is in the language, which every
# candidate shares as well
_ASKERS_CODE_BEFORE = re.compile(r"\b(?:in|for|from|inside|into|within)\s+(?:a|an|our|my|the)\s+$")
_ASKERS_CODE_AFTER = re.compile(r"\s+(?:services?|apps?|applications?|backends?|codebases?|monorepos?|projects?|programs?)\b")


# a language's own word for the packages wanted says the language as plainly as its name: "a Rust
# crate to read shapefiles" is close to every crate through "crate" ("our crate" is the asker's own)
_ECOSYSTEM_PACKAGES = {
    language: re.compile(rf"(?<!\bour )(?<!\bmy )\b{word}(s?)\b", re.IGNORECASE)
    for language, word in (("Rust", "crate"), ("Ruby", "gem"))
}


def _packages_named(text: str, language: str, named: list[re.Match[str]]) -> bool:
    """Of several languages named, whether ``language`` is the one whose own word for packages the
    request uses: "our Clojure service emits EDN and a new Rust service has to consume it. Any
    crate for reading EDN?" asks for Rust."""
    package = _ECOSYSTEM_PACKAGES.get(language)
    return package is not None and len({LANGUAGES[m.group(1)] for m in named}) > 1 and bool(package.search(text))


def language_free(text: str, language: str) -> str:
    """``text`` without the language where it says which language's library is wanted ("clojure
    library for generating QR codes" -> "library for generating QR codes", "Rust crate to read
    shapefiles" -> "library to read shapefiles") or what the asker's own code is written in ("read
    ESRI shapefiles in a rust service"): every candidate in the language shares that, and it says
    nothing about which of them fits. Elsewhere the language is what the need is about ("bugs in
    Clojure programs") and stays."""
    lowered = text.lower()
    for m in reversed(list(_LANGUAGE_PATTERN.finditer(lowered))):
        if LANGUAGES[m.group(1)] != language:
            continue
        if kind := _LIBRARY_KIND.match(text[m.end():]):
            text = text[: m.start()] + text[m.end() + (kind.end(1) if kind.group(1) else 0):]
        elif _ASKERS_CODE_BEFORE.search(lowered[: m.start()]) and _ASKERS_CODE_AFTER.match(lowered[m.end():]):
            text = text[: m.start()] + text[m.end():]
    text = " ".join(text.split())
    if package := _ECOSYSTEM_PACKAGES.get(language):
        text = package.sub(lambda m: "libraries" if m.group(1) else "library", text)
    return text


def _shell_used(text: str, m: re.Match[str]) -> bool:
    """A shell named as where a tool is used: "from PowerShell", "with bash", "inside shell scripts"."""
    before = text[: m.start()]
    return bool(_SHELL_USED.search(before) or (_IN_SCRIPTS.search(before) and _SCRIPTS.match(text[m.end():])))


def _format(text: str, m: re.Match[str]) -> bool:
    """Whether the markup language at ``m`` is a format a tool turns things into, reads or writes."""
    before = text[: m.start()]
    return bool(_INTO_MARKUP.search(before) or _MAKES_MARKUP.search(before) or _MARKUP_DOCUMENT.match(text[m.end():])
                or any(f.start() <= m.start() and m.end() <= f.end() for f in _FORMAT_LIST.finditer(text)))


def _enumerated(text: str, mentioned: list[re.Match[str]]) -> set[int]:
    """Starts of the languages that stand in an enumeration of ``ENUMERATION_MIN`` or more
    ("Node, Python, Ruby and Go"), or of two that a tool is for ("for Python and C++"): a tool
    serving several ecosystems, not one to filter by."""
    runs: list[list[re.Match[str]]] = []
    for m in mentioned:
        if runs and _ENUMERATION_GAP.match(text[runs[-1][-1].end(): m.start()]):
            runs[-1].append(m)
        else:
            runs.append([m])
    return {m.start() for run in runs if _serves_several(text, run) for m in run}


def _serves_several(text: str, run: list[re.Match[str]]) -> bool:
    languages = {LANGUAGES[m.group(1)] for m in run}
    if len(languages) >= ENUMERATION_MIN:
        return True
    return len(languages) == 2 and not _one_family(*languages) and bool(_SERVES_BOTH.search(text[: run[0].start()]))


def _one_family(a: str, b: str) -> bool:
    """TypeScript and JavaScript, C and C++: one ecosystem, which a filter on either covers."""
    family_a, family_b = LANGUAGE_FAMILY.get(a, ()), LANGUAGE_FAMILY.get(b, ())
    return a in family_b or b in family_a or bool(set(family_a) & set(family_b))


# what documents and pages are written in: named beside a programming language, usually what the
# tool works on ("render our HTML email templates from a .NET worker"), and the other names the filter
MARKUP = frozenset({"HTML", "CSS", "TeX"})


def _markup_last(m: re.Match[str], rank: int, text: str) -> tuple[bool, int]:
    """Markup ranks after every programming language named, unless a tool is written in it ("a
    LaTeX package for code listings, powered by a Python highlighter" asks for a LaTeX package)."""
    return LANGUAGES[m.group(1)] in MARKUP and rank > 0 and not _PACKAGE_KIND.match(text[m.end():]), rank


def _implementation_rank(text: str, m: re.Match[str]) -> int:
    """0 for "written in X" or "X-based", 1 for "in X", 2 for a language named otherwise ("a Go library")."""
    before = text[: m.start()]
    if _IMPLEMENTED_IN.search(before) or _BASED.match(text, m.end()):
        return 0
    return 1 if re.search(r"\bin\s+$", before) else 2


_PORT_OF = re.compile(r"(?:ports?|rewrites?|clones?)\s+of\b")


_SLASHED = re.compile(r"/([a-z][\w.+#-]*)\s*")


def _has_context(text: str, m: re.Match[str]) -> bool:
    before = text[: m.start()].rstrip()
    after = text[m.end() :].lstrip()
    if before.endswith("pure-") or any(before.endswith(" " + w) or before == w for w in LANGUAGE_CONTEXT_BEFORE):
        return True
    if m.group(1) == "go" and not before:
        return True  # "go web frameworks"
    if before.endswith("(") and after.startswith(")") and len(m.group(1)) > 1:
        return True  # "a rate limiter library (go)"; "(c)" and "(r)" are signs
    if _PORT_OF.match(after) or (_BASED.match(after) and m.group(1) != "node"):
        # "a Dart port of libphonenumber", "a Go port of ...", "a Go-based app server" (a
        # "node-based editor" is one of graph nodes)
        return True
    if (framework := _SLASHED.match(after)) and framework.group(1) not in LANGUAGES:
        after = after[framework.end():]  # "a dart/flutter client"
    next_word = re.match(r"[a-z]+", after)
    return bool(next_word and next_word.group(0) in LANGUAGE_CONTEXT_AFTER)
