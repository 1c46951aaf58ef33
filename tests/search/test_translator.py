"""The rule-based query translator: words -> SearchParams, and follow-ups that refine."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from core.models import SearchParams
from core.search.translator import QueryTranslator, RuleBasedTranslator

TODAY = date(2026, 8, 22)
translator = RuleBasedTranslator(today=lambda: TODAY)


def t(text: str, previous: SearchParams | None = None) -> SearchParams:
    return translator.translate_sync(text, previous)


def group_of(params: SearchParams, word: str) -> list[str]:
    return next(g for g in params.synonym_groups if word in g)


async def test_is_a_query_translator() -> None:
    impl: QueryTranslator = translator
    params = await impl.translate("rust web frameworks", None)
    assert params.language == "Rust"


def test_filler_words_are_dropped() -> None:
    p = t("Show me some good libraries for JSON parsing please")
    assert p.keywords == ["json", "parsing"]
    assert t("search for the best tools to find repos with yaml").keywords == ["yaml"]
    # chat words say who asks and how, never what is asked for
    assert t("ok dumb question but anyone know a ps4 emulator that's actually usable?").keywords == [
        "ps4", "emulator", "usable"]


@pytest.mark.parametrize(
    ("text", "trigger", "synonym"),
    [
        ("react state management", "state management", "store"),
        ("python ml", "ml", "machine learning"),
        ("machine learning in python", "machine learning", "ml"),
        ("golang orm", "orm", "object relational mapper"),
        ("rust web framework", "web framework", "http server"),
        ("game engines", "game engine", "game development"),
    ],
)
def test_synonym_groups_are_ored_concepts(text: str, trigger: str, synonym: str) -> None:
    p = t(text)
    group = group_of(p, trigger)
    assert group[0] == trigger and synonym in group
    assert trigger not in p.keywords


def test_an_expansion_alone_does_not_trigger_a_group() -> None:
    assert t("app store screenshots").synonym_groups == []


def test_quoted_phrases_and_topics() -> None:
    p = t('"static site" generator topic:jamstack #blog')
    assert p.phrases == ["static site"]
    assert p.topics == ["jamstack", "blog"]
    assert p.keywords == ["generator"]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("py http client", "Python"),
        ("ts orm", "TypeScript"),
        ("golang cli", "Go"),
        ("go web frameworks", "Go"),
        ("libraries written in go", "Go"),
        ("c++ json library", "C++"),
        ("c# game engine", "C#"),
        ("csharp logging", "C#"),
        ("c libraries for json parsing", "C"),
        ("r packages for plotting", "R"),
        ("node.js web framework", "JavaScript"),
        ("Rust web frameworks", "Rust"),
        ("objective-c networking", "Objective-C"),
        ("kotlin android", "Kotlin"),
        ("unit testing framework for modern Fortran code", "Fortran"),
        ("Common Lisp web framework", "Common Lisp"),
        ("is there a delphi driver for mongodb?", "Pascal"),  # languages the catalog holds nothing in
        ("pharo smalltalk neo4j client", "Smalltalk"),
        ("any gleam library for decoding json?", "Gleam"),
    ],
)
def test_languages_and_aliases(text: str, language: str) -> None:
    assert t(text).language == language


@pytest.mark.parametrize("text", ["let's go find a database", "a cool thing to go with react", "plan b for the team"])
def test_ambiguous_language_words_need_context(text: str) -> None:
    p = t(text)
    assert p.language is None
    assert "go" not in p.keywords


@pytest.mark.parametrize(
    ("text", "min_stars", "max_stars"),
    [
        ("rust cli with over 1k stars", 1000, None),
        ("python orm more than 2,500 stars", 2500, None),
        ("cli tools <500 stars", None, 500),
        ("parsers with fewer than 100 stars", None, 100),
        ("between 100 and 2k stars game engine", 100, 2000),
        ("100-1000 stars parser", 100, 1000),
        ("stars:>50 parser", 50, None),
        ("1.5k+ stars logging", 1500, None),
        ("at least 10k stars database", 10_000, None),
    ],
)
def test_explicit_star_ranges(text: str, min_stars: int | None, max_stars: int | None) -> None:
    p = t(text)
    assert (p.min_stars, p.max_stars) == (min_stars, max_stars)
    assert "stars" not in p.keywords


def test_popularity_words() -> None:
    assert t("popular python orm").min_stars == 1000
    assert t("well-known rust parsers").min_stars == 1000
    very = t("the most popular react libraries")
    assert very.min_stars == 10_000 and very.sort == "stars"
    for word in ("niche", "hidden gem", "lesser-known", "underrated"):
        p = t(f"{word} python testing tools")
        assert (p.min_stars, p.max_stars) == (None, 1000), word
    assert t("small python projects for testing").max_stars == 1000
    assert t("run make inside a pinned Docker image, configured by a small file in the repo").max_stars is None
    for text in ("Redux is too much boilerplate for our small React app, what's lighter?",
                 "Kafka is too much to operate for our small team", "we're a tiny indie studio leaving Unity",
                 "we want to run a small server for our community",
                 "an in-memory db in the browser, kind of like a tiny Datomic on the client",
                 "tiny side project: i want auth + db + file storage in one binary, basically firebase",
                 "a static site generator for a small project"):
        p = t(text)
        assert (p.min_stars, p.max_stars) == (None, None), text  # the asker or the software is small, not the project
    for text in ("a small library for parsing dates", "small plain C library to read and write PDF files",
                 "want a small client that updates my dynamic DNS record automatically", "tiny tool for containers?"):
        assert t(text).max_stars is None, text  # lightweight, not little known
    for text in ("PHP library ported from a well-known password strength estimator",  # what it comes from
                 "a lighter alternative to the popular ORM"):
        assert t(text).min_stars is None, text
    assert t("a server that speaks the same API as the popular coding-stats service").min_stars is None
    # ...or what it works in or with
    assert t("a collection of docker-compose setups that reproduce real-world CVEs in popular software"
             ).min_stars is None
    assert t("a browser extension that works across popular browsers").min_stars is None
    assert t("a mature, well-known ORM for Go").min_stars == 1000
    assert t("lib for parsing version numbers and checking which one is newer").created_after is None  # what it tells
    new = t("new python testing tools")
    assert new.min_stars is None and new.max_stars is None
    assert new.created_after == TODAY - timedelta(days=365)
    assert t("emerging rust databases").sort == "growth"


@pytest.mark.parametrize("text", [
    "npm package that returns random popular dog names",
    "R color palettes inspired by paintings in a famous New York art museum",
    "take over an established TCP session on the local network, tool written in Rust",
    "simplest way to get browser-trusted certificates on localhost",
])
def test_popularity_words_about_something_else_set_no_filter(text: str) -> None:
    assert (t(text).min_stars, t(text).max_stars) == (None, None)


def test_popularity_words_about_the_software_asked_for_set_a_filter() -> None:
    assert t("is there a mature open source learning management system?").min_stars == 1000
    assert t("which is most popular?").min_stars == 10_000


def test_explicit_stars_beat_popularity_words() -> None:
    p = t("popular ones under 500 stars in rust")
    assert (p.min_stars, p.max_stars) == (None, 500)


def test_recency_words() -> None:
    assert t("actively maintained python orm").pushed_after == TODAY - timedelta(days=180)
    assert t("rust parsers updated this year").pushed_after == date(2026, 1, 1)
    assert t("recently updated go cli").pushed_after == TODAY - timedelta(days=90)
    created = t("rust projects created this year")
    assert created.created_after == date(2026, 1, 1) and created.pushed_after is None
    assert t("python orm active in the last 3 months").pushed_after == TODAY - timedelta(days=90)
    assert t("an active ldap library").pushed_after == TODAY - timedelta(days=180)
    assert t("a still active fork of moment").pushed_after == TODAY - timedelta(days=180)
    # "active" about what a tool handles, not about the tool
    assert t("a CLI that stores multiple ssh keys and switches which one is active").pushed_after is None
    assert t("a deliberately vulnerable active directory lab for red team training").pushed_after is None
    assert t("rust repos from the last month").pushed_after == TODAY - timedelta(days=30)


@pytest.mark.parametrize("text", [
    "someone pushed an AWS key to our repo last week, how do we catch that next time?",
    "rm -rf burned me twice this year. want a command that moves files to the trash",
    "I can never find that long ffmpeg command I ran last month on my other laptop",
    "a dropdown for picking a date range with presets like 'last 30 days'",
])
def test_a_period_when_something_happened_to_the_asker_sets_no_date_filter(text: str) -> None:
    assert (t(text).pushed_after, t(text).created_after) == (None, None)


def test_top_as_a_place_does_not_sort() -> None:
    assert t("a friendly dsl on top of selenium for browser tests").sort == "best"
    assert t("the camera cutout at the top of my screen wastes space").sort == "best"
    assert t("top rust web frameworks").sort == "stars"


def test_sort_and_limit() -> None:
    p = t("top 5 most starred javascript repos")
    assert p.limit == 5 and p.sort == "stars" and p.language == "JavaScript"
    assert t("show me 3 python orm libraries").limit == 3
    assert t("recently updated react libraries").sort == "best"


# -- follow-ups -----------------------------------------------------------------------------------

PREVIOUS = t("find React state management libraries")


def test_what_about_language_keeps_the_query() -> None:
    p = t("what about Python?", PREVIOUS)
    assert p.language == "Python"
    assert p.keywords == PREVIOUS.keywords and p.synonym_groups == PREVIOUS.synonym_groups


def test_only_popular_ones() -> None:
    p = t("only popular ones", PREVIOUS)
    assert p.min_stars == 1000 and p.keywords == ["react"]


def test_newer_ones() -> None:
    popular = t("only popular ones", PREVIOUS)
    p = t("newer ones?", popular)
    assert p.min_stars is None and p.created_after == TODAY - timedelta(days=365)
    assert p.keywords == ["react"]


def test_in_rust_instead() -> None:
    python = t("what about Python?", PREVIOUS)
    p = t("in rust instead", python)
    assert p.language == "Rust" and p.synonym_groups == PREVIOUS.synonym_groups


def test_what_about_another_framework_swaps_the_keyword_keeps_the_concept() -> None:
    p = t("what about vue?", PREVIOUS)
    assert p.keywords == ["vue"] and p.synonym_groups == PREVIOUS.synonym_groups


def test_any_language_clears_the_language() -> None:
    python = t("what about Python?", PREVIOUS)
    assert t("any language", python).language is None


def test_a_choice_of_languages_filters_by_either() -> None:
    p = t("rate limiter library in go or rust")
    assert (p.language, p.also_languages, p.languages) == ("Go", ["Rust"], ("Go", "Rust"))
    assert "rust" not in p.keywords and p.describe() == "rate limiter (Go or Rust)"
    assert t("a rust/go library for rate limiting").languages == ("Rust", "Go")
    assert t("static site generator in rust or in go").languages == ("Rust", "Go")
    assert t("a visual debugger for Python or C++").language is None  # it serves both
    assert t("desktop app in C# with an HTML/CSS web frontend").languages == ("C#",)  # markup is what it shows
    assert t("what about Python?", p).languages == ("Python",)  # a follow-up's language replaces the choice
    assert t("any language", p).languages == ()
    # one the asker would take as well, said apart
    zig = t("progress bars and spinners for a C++ command line tool, header-only please. zig would also be ok")
    assert zig.languages == ("C++", "Zig") and "zig" not in zig.keywords and "ok" not in zig.keywords
    assert t("a markdown parser in rust, go is fine too").languages == ("Rust", "Go")
    assert t("rust is great, but I need a markdown parser in go").languages == ("Go",)
    assert t("placeholder avatars with initials. our app is Swift on iOS, or Kotlin if you know one").languages \
        == ("Swift", "Kotlin")
    # what is imitated is not what is asked for
    assert t("a job queue like the python one, but in rust").languages == ("Rust",)
    assert t("job scheduling like the classic Java enterprise scheduler, but for our Go service, "
             "or .NET for the other one").languages == ("Go", "C#")


def test_the_markup_the_asker_has_is_no_filter() -> None:
    assert t("all our CSS is Bulma already; looking for a Vue component library built on top of it").language is None
    assert t("a CSS framework for dashboards").language == "CSS"


def test_a_new_full_query_starts_over() -> None:
    p = t("find go web frameworks", PREVIOUS)
    assert p.language == "Go" and p.keywords == [] and "react" not in p.keywords
    assert group_of(p, "web framework")
    fresh = t("show me the most starred javascript repos", PREVIOUS)
    assert fresh.keywords == [] and fresh.synonym_groups == [] and fresh.language == "JavaScript"


def test_refined_text_records_both_turns() -> None:
    p = t("what about Python?", PREVIOUS)
    assert PREVIOUS.text in p.text and "Python" in p.text


def test_refine_search_is_additive() -> None:
    p = t("Refine search: hooks", PREVIOUS)
    assert p.keywords == ["react", "hooks"] and p.synonym_groups == PREVIOUS.synonym_groups
    assert t("Refine search: TypeScript", PREVIOUS).language == "TypeScript"


def test_a_rambling_message_is_capped() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    assert len(t(words).keywords) == 8


def test_exclusions_contractions_and_noise() -> None:
    p = t("java microservice frameworks other than spring")
    assert p.exclude == ["spring"] and "spring" not in p.keywords and p.language == "Java"
    assert t("orm's for python besides sqlalchemy").exclude == ["sqlalchemy"]
    assert t("what's the go-to testing framework for rust these days").keywords == ["framework"]
    assert t("hey, we're starting a new dashboard at work").created_after is None
    assert group_of(t("component libraries for svelte"), "component library")


def test_follow_up_modes() -> None:
    assert t("any async ones?", PREVIOUS).keywords == ["react", "async"]
    assert t("and for angular?", PREVIOUS).keywords == ["angular"]
    assert t("what about Go?", PREVIOUS).language == "Go"
    fresh = t("now find me routing libraries", PREVIOUS)
    assert fresh.keywords == ["routing"] and fresh.synonym_groups == []


def test_a_question_with_its_own_subject_is_a_new_search() -> None:
    p = t("which auth library should i use with next.js?", PREVIOUS)
    assert "react" not in p.keywords and group_of(p, "auth")
    assert t("any good python orm?", PREVIOUS).keywords == []


def test_a_pure_language_implementation_names_the_language() -> None:
    assert t("pure-Python implementation of the DDS publish/subscribe standard, no C++ build needed").language == "Python"
    assert t("a pure-Go SQLite driver").language == "Go"
    assert t("a SQLite driver in pure go").language == "Go"
    assert t("load settings with python-dotenv").language is None  # a package named after the language
    assert t("a pure function memoizer").language is None


def test_the_language_a_tool_is_written_in_wins_over_the_one_it_handles() -> None:
    assert t("fast JavaScript and CSS bundler written in Go").language == "Go"
    assert t("a JavaScript runtime written in Rust").language == "Rust"
    # beside a programming language, a markup one is what the tool works on
    assert t("render our HTML email templates with Razor from a .NET background worker").language == "C#"
    assert t("html parser for python").language == "Python"
    assert t("html email templates").language == "HTML"
    assert t("our lab wants collaborative latex editing on our own server").language is None  # what is edited
    # markup a tool makes, a few words after the making, or laid out as tables: a format, no filter
    assert t("our transactional emails are gnarly html tables. want to write them as react components and "
             "render email-client-safe html").language is None
    assert t("a static site generator that outputs clean html").language is None
    assert t("a latex editor for the web").language is None
    assert t("my plots come out of MATLAB and look awful in LaTeX, convert them to TikZ").language == "MATLAB"
    assert t("a LaTeX editor written in LaTeX").language == "TeX"  # unless a tool is written in it


def test_a_tool_for_a_language_keeps_the_language() -> None:
    # the named-language search also takes repositories whose description mentions the language
    assert t("python linter").language == "Python"
    assert t("what's faster for Python dependencies?").language is None  # uv is Rust


def test_what_a_request_leaves_behind_or_handles_is_not_a_language_filter() -> None:
    assert t("markup-based typesetting system, modern alternative to LaTeX").language is None
    assert t("I want to compare how long two shell commands take").language is None
    assert t("rewrite of our PHP app in Go").language == "Go"
    assert t("our API returns giant JSON blobs and I need to slice them up in the shell").language is None
    assert t("pip is so slow, is there something faster for installing python packages").language is None  # uv
    assert t("code review in our TypeScript repo keeps turning into arguments about semicolons").language is None
    assert t("a python package manager").language is None
    assert t("python packages for parsing PDFs").language == "Python"
    assert t("Dart package implementing Bloom filters for a Flutter app's offline cache").language == "Dart"
    assert t("dart/flutter client for meilisearch").language == "Dart"  # the framework after it keeps it a language
    assert t("a lua-native replacement for copilot.vim, without the vimscript plugin").language == "Lua"
    assert t("export MATLAB figures as LaTeX-native vector graphics code").language is None  # what it writes


def test_a_language_the_request_leaves_runs_in_or_serves_among_others_is_not_a_filter() -> None:
    assert t("I'm so done with LaTeX compile errors in my thesis, anything more modern?").language is None
    assert t("a task runner to replace a Makefile full of shell snippets").language is None
    assert t("a replacement for moment.js in TypeScript").language == "TypeScript"
    assert t("a fast prompt that also works in fish and PowerShell").language is None
    assert t("a version manager for Node, Python, Ruby and Go").language is None
    assert t("a visual debugger in Vim for Python and C++").language is None  # two a tool is for
    # what is installed
    assert t("a Linux command line on my Android phone with a package manager, so I can install git, python "
             "and ssh").language is None
    assert t("apt repositories that install up-to-date Node.js builds on Debian").language is None
    assert t("how do I install a Go web framework").language == "Go"
    assert t("writing my thesis in LaTeX and the plots come out blurry").language is None
    assert t("our docs are all written in Markdown, what builds a site from them?").language is None
    assert t("a thesis template in LaTeX").language == "TeX"
    assert t("PostgreSQL log analyzer that produces HTML performance reports").language is None
    # a maker named by its noun is written in the language after it; markup after it is what it makes
    assert t("a static site generator in Rust instead of Hugo").language == "Rust"
    assert t("a pdf renderer in rust").language == "Rust"
    assert t("a report generator in HTML").language is None
    # the language left behind is no word to search for
    left = t("write small ops scripts in scala instead of bash")
    assert left.language == "Scala" and "bash" not in left.keywords
    assert "bash" in t("a shell instead of bash").keywords  # no language asked for: what it replaces
    # a language in brackets, or the kind of shop a team is
    assert t("rate limiter library (go)").language == "Go"
    assert t("we're a go shop, need a rate limiter").language == "Go"
    assert t("a todo app (c) 2024").language is None  # a sign
    assert t("a property-based fuzzer for our Solidity contracts").language is None
    assert t("our engineers do their calcs in Jupyter and want them rendered as equations").language is None
    assert t("ORM for TypeScript and Node.js").language == "TypeScript"  # two are one ecosystem
    assert t("Jupyter notebooks in git are a mess of JSON diffs, is there a better notebook?").language is None
    assert t("a jupyter notebook about pandas").language == "Jupyter Notebook"
    assert t("LaTeX error messages are ruining my paper, anything more modern?").language is None
    assert t("turn PostgreSQL server logs into HTML reports").language is None
    assert t("turns PostgreSQL log files into detailed HTML performance reports").language is None
    assert t("turn my scripts into a Go binary").language is None  # what it becomes, not what it is written in
    assert t("call our R model over HTTP instead of rewriting it in python").language is None
    assert t("a database GUI lighter than the big Java IDE-style ones").language is None
    # what it turns things into, and where it is driven from
    assert t("tool for exporting Discord channel history to HTML, JSON or plain text files").language is None
    assert t("html to pdf converter").language == "HTML"
    assert t("where can I get nice html performance reports out of my postgresql log files?").language is None
    assert t("one tool that converts documents between markdown, docx, latex, html and epub").language is None
    assert t("html email templates").language == "HTML"
    assert t("our lab wants collaborative latex editing on our own server").language is None  # what is edited
    # markup a tool makes, a few words after the making, or laid out as tables: a format, no filter
    assert t("our transactional emails are gnarly html tables. want to write them as react components and "
             "render email-client-safe html").language is None
    assert t("a static site generator that outputs clean html").language is None
    assert t("a latex editor for the web").language is None
    assert t("menu bar indicator whose colour can be changed from shell scripts").language is None
    assert t("bash script to back up postgres").language == "Shell"
    assert t("command-line tool to parse and manipulate URLs inside shell scripts").language is None
    assert t("slice json in our bash scripts").language is None
    assert t("a tool written in bash scripts").language == "Shell"
    # "shell" alone is the program people type into, unless something says it is the language
    assert t("terminal emulator component for our Vue admin page (fake shell where users type commands)"
             ).language is None
    assert t("carry your own shell setup and plugins to any remote host you ssh into").language is None
    assert t("a shell script to rotate logs").language == "Shell"
    assert t("a prompt theme written in shell").language == "Shell"
    assert t("shell library for parsing arguments").language == "Shell"
    assert t("on Windows 11 with PowerShell I need to hop between Node 18 and 22, no WSL").language is None
    assert t("a powershell module for active directory").language == "PowerShell"
    # scripting in a language is what a tool offers, not what it is written in
    assert t("which multi-system emulator has frame advance, input recording and lua scripting for tas work?"
             ).language is None
    assert t("a lua library for parsing json").language == "Lua"
    assert t("a Datalog database for my ClojureScript app").language == "Clojure"  # compiles from Clojure
    assert t("Dart port of Google's libphonenumber").language == "Dart"  # "dart" alone may be the game
    # two languages named alike: the one in the sentence that asks, not the one in the background
    assert t("data science trains models in Python and we don't want a Python sidecar. anything that loads "
             "those model files and predicts natively in Go?").language == "Go"
    # ...or the one whose own word for packages the request uses
    assert t("Our Clojure service emits EDN and a new Rust service has to consume it. Any crate for reading "
             "and writing EDN?").language == "Rust"
    assert t("our Python scripts call a Ruby tool; is there a gem that reads TOML?").language == "Ruby"
    # what is moved from is left behind: the language moved to is the request's
    assert t("moving a course from MATLAB's control toolbox to Julia: need transfer functions and "
             "bode plots").language == "Julia"
    assert t("switching our build scripts from Perl to Python, any task runner?").language == "Python"
    assert t("a Go library that reads from Python pickles").language == "Go"
    assert t("I come from Python and want a Go web framework").language == "Go"
    assert t("Coming from Kotlin, I really miss Sequence when writing Go. Is there a generics package modeled "
             "on Kotlin's collections?").language == "Go"
    # what is imitated is not what the one wanted is written in
    assert t("a job queue in the spirit of Ruby's Sidekiq, for Go").language == "Go"
    # the asker's own program is in the language: so is the library it calls
    assert t("parse PHP source code into a syntax tree from a Go program").language == "Go"
    # a LaTeX package is written in TeX, whatever it builds on
    assert t("LaTeX package for colorized code listings, powered by a Python highlighter").language == "TeX"
    assert t("Haskell command-line program that renders database diagrams").language == "Haskell"  # not "commands"
    assert t("run two shell commands in parallel").language is None
    assert t("Rust command that blocks until a set of TCP services accept connections").language == "Rust"
    # a virtual machine, runtime or interpreter is what a tool works on or is
    assert t("dashboard for Phoenix apps showing metrics and Erlang VM internals").language is None
    assert t("a JavaScript runtime written in Rust").language == "Rust"
    assert t("embed a Lua interpreter in my C++ game").language == "C++"
    # a language's spec, grammar or proposals are what a document or a parser is about
    assert t("where does the actual ecmascript language spec text live?").language is None
    assert t("tree-sitter python grammar").language is None
    assert t("python language server").language == "Python"
    # the language's command run with a flag is what the asker runs; "a single Go binary" is wanted
    assert t("tired of running python -m http.server, want a single Go binary that serves a folder").language == "Go"
    assert t("a GUI for node --inspect sessions").language is None
    # what is ruled out
    assert t("train small neural nets inside our legacy HPC code, with no python in the loop").language is None
    assert t("a json parser without javascript").language is None
    assert t("jieba-style word segmentation inside a go service without running a python sidecar. any go port?"
             ).language == "Go"
    # "X-based" says what it is written in, before what it serves
    assert t("heard there's a Go-based PHP app server that keeps workers alive").language == "Go"
    assert t("a Python-based static site generator").language == "Python"
    assert t("open-source 2D graphics editor with a node-based procedural workflow").language is None


def test_the_gate_reads_a_library_request_without_the_language_that_names_its_kind() -> None:
    from core.search.fit import evidence_query

    assert evidence_query(t("clojure library for generating QR codes")) == "library for generating QR codes"
    assert evidence_query(t("Kotlin/JVM library for reading HDF5 files")) == "library for reading HDF5 files"
    assert evidence_query(t("Go parser for HL7 v2 messages")) == "parser for HL7 v2 messages"
    # who asks shares the language with every candidate too
    assert evidence_query(t("we're a Haskell team starting to use Kafka; is there a maintained Haskell client?")) \
        == "we're a team starting to use Kafka; is there a maintained client?"
    assert evidence_query(t("Elixir client driver for the ClickHouse database")) == "client driver for the ClickHouse database"
    assert evidence_query(t("tool that flags bugs in Clojure programs")) is None  # what the need is about
    # ...and so does the asker's own code
    assert evidence_query(t("need to read ESRI shapefiles in a rust service, is there a crate for that?")) \
        == "need to read ESRI shapefiles in a service, is there a library for that?"
    # a language's own word for the package wanted says the language too; the asker's own crate stays
    assert evidence_query(t("Rust crate to read ESRI shapefiles")) == "library to read ESRI shapefiles"
    assert evidence_query(t("a ruby gem for generating pdf invoices")) == "a library for generating pdf invoices"
    assert evidence_query(t("our rust crate shows 95% line coverage but the tests assert nothing")) \
        == "our crate shows 95% line coverage but the tests assert nothing"
    assert evidence_query(t("library for generating QR codes")) is None  # no language


def test_the_meaning_leaves_out_what_the_software_is_written_in() -> None:
    from core.search.fit import semantic_query

    assert semantic_query(t("find a static site generator written in Go")) == "find a static site generator"
    assert semantic_query(t("modal text editor in Rust")) == "modal text editor"
    assert semantic_query(t("modal text editor in Rust or Go")) == "modal text editor"
    assert semantic_query(t("python linter")) == "python linter"  # the language qualifies the need
    assert semantic_query(t("static analysis for javascript")) == "static analysis"  # what it is for ends the clause
    assert "JavaScript" in semantic_query(t("build system for JavaScript monorepos"))  # qualifies the need
    # what a tool works on, not what it is written in: it stays (a filter all the same)
    clojure = t("tool that flags bugs and unidiomatic code in Clojure programs without running them")
    assert clojure.language == "Clojure" and "in Clojure programs" in semantic_query(clojure)


def test_search_is_a_keyword_when_it_is_the_thing_asked_for() -> None:
    assert "search" in t("full text search engine").keywords
    assert "search" in t("we want to add full text search to our postgres app").keywords
    assert "search" not in t("search for a markdown editor").keywords
