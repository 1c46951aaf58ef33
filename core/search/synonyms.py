"""What the rule-based translator and the relevance scorer know about concepts.

``SYNONYMS``: one entry per concept, ``(triggers, equivalents, related)``.

- *triggers* are found in the user's words (the first one found leads the group);
- *equivalents* say the same thing ("state container" for "state management"), or something
  narrower that is still what was asked ("deep learning" for "machine learning"), and count almost
  as much as the user's own word;
- *related* terms are broader or neighbouring ("store", "database" for an ORM): they widen the
  search but are weak evidence of relevance (see SCORING.md, "Relevance").

Expansions never trigger on their own, so "store" alone stays a keyword.

``QUALIFIERS`` are platform, framework and ecosystem words that say what a project is *for*
("react", "android", "kubernetes", "self-hosted"): they qualify the core concept of a query
("react state management") but do not carry a result on their own. ``GENERIC`` head nouns
("framework", "app") say little about what is wanted. Both become core concepts when a query has
nothing else ("react", "desktop app framework").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

Entry = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

SYNONYMS: list[Entry] = [
    (("state management", "state manager", "state container"), ("state library", "global state"),
     ("store", "state machine")),
    # an API framework or an HTTP routing / request-handling library is what a web framework is
    # for most backend queries (FastAPI, axum); "routing" alone is not (network, UI routers)
    (("web framework", "web frameworks", "http framework"),
     ("web application framework", "micro framework", "microframework", "api framework", "rest framework",
      "http routing", "http router", "request handling"),
     ("http server", "web server", "rest api")),
    (("web server", "http server"), ("webserver",), ("reverse proxy", "web framework")),
    (("machine learning", "ml"), ("deep learning", "neural network", "neural networks"), ()),
    (("deep learning", "neural network", "neural networks"), (), ("machine learning",)),
    (("orm", "orms", "object relational mapper"), ("object relational mapping", "object-relational"),
     ("query builder", "sql mapper", "data mapper")),  # not "database": a database is not an ORM
    (("database", "databases", "db"), ("datastore", "data store"), ("storage engine", "key-value store")),
    (("llm", "llms", "large language model", "large language models"), ("language model", "language models"),
     ("gpt",)),
    (("ai agent", "ai agents", "agent framework", "agentic"),
     ("agents framework", "multi-agent", "autonomous agent", "autonomous agents"), ("agent", "agents")),
    (("cli", "command line", "command-line", "terminal app"), ("command line interface", "cli tool"),
     ("terminal", "console")),
    (("testing", "test framework", "test runner", "unit testing", "unit test"),
     ("testing framework", "testing library", "end-to-end testing"), ("test", "tests", "e2e")),
    (("http client", "rest client", "api client"), ("http library", "http networking", "http request"),
     ("http", "requests", "networking")),
    (("ui components", "component library", "ui kit", "ui library", "design system"),
     ("ui component", "ui framework", "component framework", "components library"), ("components", "ui")),
    (("static site generator", "ssg", "static site"), ("site generator", "static website"),
     ("blog", "website generator")),
    (("game engine", "gamedev", "game development"), ("game framework", "game development framework"),
     ("game", "games")),
    (("authentication", "auth", "oauth", "login", "sso"), ("single sign-on", "identity and access management"),
     ("authorization", "identity")),
    (("visualization", "data visualization", "charts", "charting", "plotting"),
     ("chart", "charting library", "plot", "graphing library"), ("dashboard", "diagram")),
    (("web scraping", "scraping", "scraper", "crawler", "crawling"), ("web crawler", "spider", "scrape"), ()),
    (("logging", "logger"), ("structured logging", "log library"), ("log", "logs")),
    (("message queue", "job queue", "task queue", "background jobs", "queue"), ("message broker",),
     ("worker", "workers")),
    (("text editor", "code editor", "ide"), ("source code editor",), ("editor",)),
    (("linter", "linting", "static analysis"), ("lint", "static analyzer", "code analyzer"), ()),
    (("bundler", "build tool", "module bundler"), ("bundling", "build system"), ("build", "frontend tooling")),
    (("kubernetes", "k8s"), (), ()),
    (("monitoring", "observability"), ("monitoring system", "monitoring tool", "uptime monitoring"),
     ("metrics", "alerting")),
    (("computer vision", "object detection", "image recognition"), ("image segmentation", "instance segmentation"),
     ("vision", "image")),
    (("nlp", "natural language processing"), ("text processing",), ("text",)),
    (("self-hosted", "self hosted", "selfhosted"), ("self-host", "self-hostable"), ()),
    (("note taking", "note-taking", "notes app", "knowledge base"), ("knowledge management", "note app"),
     ("notes", "markdown", "wiki")),
    (("password manager",), ("password vault", "password safe"), ("password", "vault")),
    (("tutorial", "tutorials", "learning resources", "course", "courses", "roadmap"), (),
     ("learn", "guide", "tutorial")),
    (("interview prep", "coding interview", "interview questions", "leetcode"), (), ("interview", "algorithms")),
    (("awesome list", "awesome lists", "awesome-list", "curated list", "curated lists"), (), ("awesome", "curated")),
    (("dataframe", "dataframes", "data analysis"), ("data frame", "data frames", "tabular data"), ()),
    (("reverse proxy",), ("proxy server", "application proxy", "edge proxy"), ("proxy", "load balancer", "web server")),
    (("load balancer", "load balancing"), (), ("reverse proxy", "proxy")),
    (("dashboard", "dashboards"), ("admin panel", "control panel", "web ui", "gui", "management ui"),
     ("ui", "panel", "console")),
    (("container", "containers", "docker"), (), ("docker", "container")),
]

QUALIFIERS = frozenset(
    """
    react reactjs react-native vue vuejs vue.js angular angularjs svelte sveltekit solidjs nextjs next.js
    nuxt nuxtjs deno django flask fastapi rails laravel symfony spring express expressjs nestjs phoenix
    flutter android ios ipados macos osx mac iphone ipad windows linux unix web browser chrome chromium
    firefox safari vscode neovim nvim vim emacs jetbrains intellij kubernetes k8s docker aws azure gcp
    cloudflare tailwind tailwindcss bootstrap jquery unity unreal godot obsidian wordpress shopify discord
    slack telegram whatsapp youtube twitter reddit github gitlab self-hosted selfhosted mobile desktop
    arduino esp32 raspberry electron tauri jupyter excel minecraft
    """.split()
) | {"self hosted", "ruby on rails", "spring boot", "raspberry pi", "vs code", "react native"}

GENERIC = frozenset(
    """
    framework frameworks app apps application applications system systems platform platforms service
    services software program programs ui gui solution solutions
    """.split()
)


# what a repository's language implies about a qualifier: only languages that (nearly) always mean
# it -- a Dart repository is for Flutter, a "Vue" one (single-file components) for Vue, a Ruby one
# (nearly always) for Rails. A general language implies no framework: a JavaScript repository is
# not a Vue (or React) library.
QUALIFIER_LANGUAGES: dict[str, frozenset[str]] = {
    word: frozenset(langs.split(","))
    for words, langs in [
        ("vue vuejs vue.js nuxt nuxtjs", "Vue"), ("svelte sveltekit", "Svelte"),
        ("flutter", "Dart"), ("rails", "Ruby"), ("ios ipados macos osx iphone ipad", "Swift,Objective-C"),
        ("vim", "Vim Script"), ("neovim nvim", "Vim Script"), ("emacs", "Emacs Lisp"), ("godot", "GDScript"),
        ("jupyter", "Jupyter Notebook"),
    ]
    for word in words.split()
}
# how a description names a language; () when its name is an everyday word or letter
_LANGUAGE_MENTIONS: dict[str, tuple[str, ...]] = {"go": ("golang",), "c": (), "r": (), "d": (), "dm": (),
                                                  "shell": ("shell", "shells", "bash", "zsh")}


def language_mentions(language: str) -> tuple[str, ...]:
    """Words that name ``language`` in a description ("golang" for Go, "bash" for Shell; nothing for C or R)."""
    key = language.lower()
    return _LANGUAGE_MENTIONS.get(key, (key,))


# a language a query names also covers these: most JavaScript libraries are written in TypeScript
# (and some in CoffeeScript), what runs on the JVM is used from Java, and a curated list of C and
# C++ libraries alike leaves many of its entries "C/C++" (``core.catalog.lists.c_or_cpp``)
LANGUAGE_FAMILY: dict[str, tuple[str, ...]] = {
    "JavaScript": ("TypeScript", "CoffeeScript"),
    "Java": ("Kotlin", "Scala", "Groovy", "Clojure"),
    "C": ("C/C++",),
    "C++": ("C/C++",),
}


def with_families(languages: Iterable[str]) -> tuple[str, ...]:
    """``languages`` and their families: ("JavaScript", "Go") -> JavaScript, TypeScript,
    CoffeeScript, Go."""
    return tuple(dict.fromkeys(member for language in languages
                               for member in (language, *LANGUAGE_FAMILY.get(language, ()))))


_COMPOUND = re.compile(r"\b([A-Z]?[a-z]+)([A-Z]{2,})\b")
_MAYBE_COMPOUND = re.compile(r"[a-z][A-Z]{2}")  # what every compound spells: far cheaper to look for (~2 us a text)


def spell_out_compounds(text: str) -> str:
    """Product names glued to an acronym spelled out after the name: "FastAPI framework" ->
    "FastAPI Fast API framework", so "api framework" matches. Only a trailing acronym of two or
    more capitals is split ("GraphQL", "PostgreSQL", "WebUI"; not "JavaScript": "java" must not
    match it)."""
    return _COMPOUND.sub(r"\1\2 \1 \2", text) if _MAYBE_COMPOUND.search(text) else text


@lru_cache(maxsize=1024)
def related_terms(group: tuple[str, ...]) -> frozenset[str]:
    """The weak alternatives of a synonym group: the *related* terms of the vocabulary entry it
    came from (found by its leading word), minus anything the entry also lists as a trigger or
    equivalent. Empty for a group the vocabulary does not know (an LLM's, say)."""
    if not group:
        return frozenset()
    lead = group[0].lower()
    for triggers, equivalents, related in SYNONYMS:
        if lead in triggers:
            strong = set(triggers) | set(equivalents)
            return frozenset(t for t in related if t not in strong)
    return frozenset()
