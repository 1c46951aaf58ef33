"""Hand-curated words the rule-based query translator knows: languages, synonyms, filler.

Languages map to GitHub's canonical names (what ``language:`` and the catalog use). The synonym
groups, qualifier and generic words live in ``core.search.synonyms`` (re-exported here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.search.synonyms import GENERIC, QUALIFIERS, SYNONYMS  # noqa: F401 - re-exported

LANGUAGES: dict[str, str] = {
    "python": "Python", "py": "Python", "python3": "Python", "pypi": "Python",
    "typescript": "TypeScript", "ts": "TypeScript",
    "javascript": "JavaScript", "js": "JavaScript", "node": "JavaScript", "nodejs": "JavaScript",
    "node.js": "JavaScript", "ecmascript": "JavaScript",
    "go": "Go", "golang": "Go",
    "rust": "Rust", "rustlang": "Rust",
    "c++": "C++", "cpp": "C++", "cplusplus": "C++", "cxx": "C++",
    "c#": "C#", "csharp": "C#", "c-sharp": "C#", ".net": "C#", "dotnet": "C#",
    "c": "C",
    "java": "Java", "jvm": "Java",
    "kotlin": "Kotlin", "kt": "Kotlin",
    "swift": "Swift",
    "objective-c": "Objective-C", "objective c": "Objective-C", "objc": "Objective-C", "obj-c": "Objective-C",
    "ruby": "Ruby", "rb": "Ruby",
    "php": "PHP",
    "scala": "Scala",
    "elixir": "Elixir",
    "erlang": "Erlang", "erlang/otp": "Erlang",
    "haskell": "Haskell",
    "clojure": "Clojure", "clj": "Clojure", "clojurescript": "Clojure", "cljs": "Clojure",
    "lua": "Lua",
    "dart": "Dart",
    "r": "R", "rlang": "R",
    "julia": "Julia",
    "shell": "Shell", "bash": "Shell", "sh": "Shell", "zsh": "Shell", "shell script": "Shell",
    "powershell": "PowerShell", "pwsh": "PowerShell",
    "perl": "Perl",
    "matlab": "MATLAB",
    "tex": "TeX", "latex": "TeX",
    "vim script": "Vim Script", "vimscript": "Vim Script", "viml": "Vim Script",
    "coffeescript": "CoffeeScript",
    "groovy": "Groovy",
    "actionscript": "ActionScript",
    "html": "HTML",
    "css": "CSS",
    "ocaml": "OCaml",
    "f#": "F#", "fsharp": "F#",
    "zig": "Zig",
    "nim": "Nim",
    "crystal": "Crystal",
    "elm": "Elm",
    "solidity": "Solidity",
    "fortran": "Fortran",
    "common lisp": "Common Lisp",
    "jupyter": "Jupyter Notebook", "jupyter notebook": "Jupyter Notebook",
    "dm": "DM", "byond": "DM",
    # languages the offline catalog holds no repository in (``NOT_OFFLINE``): a request in one of
    # them is answered by nothing offline rather than by another language's code ("a delphi driver
    # for mongodb"), and live by GitHub's repositories in it
    "delphi": "Pascal", "object pascal": "Pascal", "pascal": "Pascal", "freepascal": "Pascal",
    "smalltalk": "Smalltalk", "pharo": "Smalltalk",
    "gleam": "Gleam", "haxe": "Haxe", "raku": "Raku", "abap": "ABAP", "vba": "VBA", "cobol": "COBOL",
    "prolog": "Prolog", "purescript": "PureScript", "rescript": "ReScript", "vala": "Vala",
}
NOT_OFFLINE = frozenset({"Pascal", "Smalltalk", "Gleam", "Haxe", "Raku", "ABAP", "VBA", "COBOL", "Prolog",
                         "PureScript", "ReScript", "Vala"})
# curated lists of applications in many languages, whose entries have no language offline
# (``core.search.relevance.unknown_language_fits``); awesome-vue's and awesome-react's are code in
# JavaScript or TypeScript, whichever language a request names
APPLICATION_LISTS = frozenset({"awesome-selfhosted", "awesome-cli-apps", "awesome-docker"})


def list_and_section(label: str) -> tuple[str, str]:
    """"awesome-go: Web Frameworks > Routers" -> ("awesome-go", "Web Frameworks > Routers"): a
    category label as ``core.catalog.lists.category_label`` writes it ("" when it has no section)."""
    listed, _, section = label.partition(": ")
    return listed, section


def application_of_unknown_language(language: str | None, figures_known: bool, categories: Iterable[str]) -> bool:
    """An application known only from lists of applications in many languages: its language is
    unknown offline, which is not another language. ``categories`` are category labels."""
    return language is None and not figures_known and any(
        list_and_section(label)[0] in APPLICATION_LISTS for label in categories)


# what notebooks, documents and editor settings are written in, not applications (``core.search.relevance.unknown_language_fits``)
NOT_FOR_APPLICATIONS = frozenset({"Jupyter Notebook", "TeX", "Vim Script"})

# aliases that are also everyday words/letters: a language only with context ("in go", "r packages")
AMBIGUOUS_LANGUAGES = frozenset({"go", "c", "r", "sh", "shell", "dm", "kt", "rb", "py", "ts", "js", "node", "jvm",
                                 "crystal", "elm", "dart", "jupyter"})
# ...but these are safe enough whenever they stand alone as a word
AMBIGUOUS_OK_ALONE = frozenset({"py", "ts", "js", "golang"})
# the kinds of code a developer builds with or calls a product through, as regular-expression
# alternatives: what "a Rust crate for the Paystack API" asks for (``core.search.need``), and what
# a curated list of applications never files (``core.search.relevance``)
CODE_KINDS = (r"clients?|sdks?|wrappers?|librar(?:y|ies)|crates?|gems?|packages?|modules?|drivers?|plugins?|"
              r"extensions?|implementations?|ports?")
LANGUAGE_CONTEXT_BEFORE = (
    "in", "for", "using", "with", "written in", "language", "programming in", "based on", "about", "only", "pure",
    "writing",
)
LANGUAGE_CONTEXT_AFTER = (
    "library", "libraries", "lib", "libs", "language", "lang", "code", "project", "projects",
    "programming", "framework", "frameworks", "tool", "tools", "package", "packages", "module",
    "modules", "repo", "repos", "repositories", "implementation", "implementations", "web", "cli",
    "server", "servers", "client", "clients", "app", "apps", "game", "games", "compiler", "orm",
    "http", "api", "sdk", "bindings", "crate", "crates", "gem", "gems", "developers", "program", "programs",
    "service", "services", "backend", "backends", "port", "binary", "binaries", "shop",
)


# chat words that say who asks, how, or how sure they are, never what is asked for ("anyone know
# a ...", "ok dumb question but", "honestly"): no keyword, and no word telling a request's subject
CHAT_WORDS = frozenset(
    """
    anyone anybody someone somebody everyone everybody folks guys dumb stupid silly question questions
    suggestion suggestions recommendation recommendations basically literally actually totally
    honestly probably maybe seriously already currently tried heard thanks okay
    """.split()
)

FILLER = CHAT_WORDS | frozenset(
    """
    a an the and or of on to in at by for from with about into as is are was be been being it its this
    that these those them they their there here any some few several many much more most very really
    find finding search searching look looking show showing list listing give get got fetch recommend
    recommendations suggest suggestions need needs want wanted like would could should can may might
    please help me my i we our us you your something anything things thing stuff kind kinds sort sorts
    type types good great nice best better cool decent solid useful interesting awesome top
    library libraries lib libs tool tools toolkit package packages module modules project projects repo
    repos repository repositories github open source open-source opensource code software solution
    solutions option options alternative alternatives app apps implementation implementations
    written using based built use used which what how about also just only instead maybe ok okay now but
    ones one other else same then than so too either both all ever new newer newest hey hi hello
    do does did have has had want wants know let lets tell see check out similar go
    refine refined narrow narrowed filter filtered result results instead rather
    pls plz ppl people whats wanna gonna exist exists existing preferably ideally currently lately
    nowadays days use should work starting go-to crate crates gem gems npm thanks thx cheers
    plays play nicely well works
    """.split()
)

# marketing words in descriptions that say nothing about what a project does ("alternatives to X")
DESCRIPTION_NOISE = frozenset(
    """
    high performance performant fast faster fastest blazing blazingly quick easy easier easiest simple
    simplest powerful modern lightweight light flexible minimal minimalist tiny small beautiful elegant
    robust reliable scalable efficient productive production ready learn learning code coding first
    class official bear necessities perfectionists deadlines batteries included developer developers
    friendly fantastic amazing delightful intuitive opinionated unopinionated zero dependency
    dependencies free way ever made world everything anything platform open source yet another
    """.split()
)


# "instead of desktop software", "like notion apps": a word before one of these says which kind of
# software, it names no product or repository
KIND_OF_SOFTWARE_AFTER = re.compile(
    r"\s+(?:software|apps?|applications?|tools?|programs?|solutions?|services?|clients?)\b", re.IGNORECASE
)
