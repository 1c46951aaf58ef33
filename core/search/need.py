"""The need behind a search request, as the meaning-led ranking reads it.

People describe a need by what they use today ("redux feels way too heavy", "like Trello but ours",
"a nicer htop", "stop paying for Slack"), while descriptions say what a project is. So the need is:

- ``text``: the request without the asking (``core.search.semantic.query_text``), its abbreviations
  spelled out beside them (``core.search.abbreviations``: "a11y (accessibility) linter"), plus what
  each named product or tool is (``core.search.products``): "... Slack: team chat and messaging platform";
- ``compared``: the names the request compares with or wants to replace; repositories of that
  name are not the answer, and when one is in the catalog its meaning joins the query's (what
  people want instead of Redux is a state manager, like Redux);
- ``owned``: what the asker already runs ("my karabiner-elements json", "our Selenium suite"): that
  product itself is no answer, its add-ons and the tools made for it are;
- ``wants_resources``: whether curated lists, tutorials and books are what is asked for; otherwise
  they are not software and rank after it;
- ``calls``: the product the wanted code talks to ("a Rust crate for the Paystack payments API"):
  a client of a product names it, so a repository whose texts never do is no answer
  (``core.search.fit``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.search.abbreviations import spelled_out
from core.search.products import PRODUCTS, named_products
from core.search.semantic import query_text
from core.search.vocabulary import CHAT_WORDS, CODE_KINDS, DESCRIPTION_NOISE, KIND_OF_SOFTWARE_AFTER, LANGUAGES

_NAME = r"([a-z0-9][\w.+-]*(?:\s+(?:photos|analytics|docs|drive|sheets|forms|meet|maps|translate|teams|office|code|text|pages|actions|copilot|hub|research))?)"
_COMPARED = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:alternatives?|replacements?|substitutes?|successors?|competitors?)\s+(?:to|for|of)\s+{_NAME}",
        rf"\binstead\s+of\s+(?:using\s+)?{_NAME}",
        rf"\b(?:replace|replacing|ditch|ditching|drop|leave|leaving|migrate\s+off|move\s+off|get\s+off)\s+{_NAME}",
        rf"\bstop\s+(?:paying\s+for|using)\s+{_NAME}",
        rf"\b(?:like|similar\s+to)\s+{_NAME}\s*,?\s+but\b",
        rf"\b{_NAME}\s+but\s+(?:self[- ]?hosted|ours|open[- ]source|faster|prettier|nicer|lighter|simpler|modern|"
        rf"free|better|for|with|without|in|easier|smaller|local)",
        rf"\b{_NAME}-like\b",
        rf"\b(?:an?|some)\s+{_NAME}\s+(?:replacements?|alternatives?|clones?|substitutes?)\b",
        rf"\b{_NAME}\s+(?:is|feels|got|seems|was|gets|has\s+become)\s+(?:\w+\s+){{0,2}}(?:too|so|really|painful|slow|"
        rf"heavy|bloated|expensive|annoying|clunky|ugly|hard)",
        rf"\b(?:a|an|some)\s+(?:nicer|better|faster|prettier|lighter|simpler|modern|modernized|friendlier|smaller|"
        rf"easier|cheaper|open[- ]source|self[- ]hosted|free|rust|go)\s+{_NAME}",
        rf"\b(?:our|my|your)\s+own\s+{_NAME}",
        rf"\b(?:other\s+than|besides|except(?:\s+for)?|excluding|apart\s+from)\s+{_NAME}",
    )
]
# ruled out in passing: "SQL-first Go ORM? not gorm, too magic", "an actual server, not a bouncer like ZNC";
# "not" says less than "instead of", so what it rules out must not be an everyday word ("fast, not slow")
_RULED_OUT = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"(?:[,;(.?!\u2014]|\s-|\bbut)\s*not\s+{_NAME}\s*(?:[,;.!?)\u2014]|\s-|$)",
        rf"\bnot\s+(?:an?\s+)?\w+\s+like\s+{_NAME}",
    )
]
_NOT_RULED_OUT = DESCRIPTION_NOISE | frozenset("""
slow slower bloated heavy expensive pricey ugly paid cloud hosted proprietary closed complicated complex
overkill abandoned dead enterprise cheap perfect ideal necessary required needed mandatory
""".split())
SPOKEN_WORDS = 9  # descriptions and keyword searches are shorter
SPOKEN_WORD_TRUST = 0.3
# "me" after "show", "find", "give" or "tell" is chat filler ("show me rust web frameworks"), not the asker
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i'd|i've|(?<!show )(?<!find )(?<!give )(?<!tell )me|my|we|we're|we'd|our|us)\b",
                           re.IGNORECASE)
_WITHOUT = re.compile(rf"\b{_NAME}\s+without\b", re.IGNORECASE)  # "google analytics without the tracking"
_NOT_NAMES = frozenset({
    "a", "an", "the", "it", "this", "that", "one", "something", "anything", "some", "any", "what", "which",
    "option", "options", "alternative", "choice", "solution", "version", "thing",
    "more", "less", "other", "others", "them", "these", "those", "stuff", "things", "way", "too", "so",
    "server", "servers", "app", "apps", "tool", "tools", "code", "data", "files", "team", "stack",
    "python", "javascript", "typescript", "java", "go", "golang", "rust", "ruby", "php", "c", "c++", "c#",
    "kotlin", "swift", "scala", "elixir", "haskell", "node", "react", "setup", "current",
    "core", "backend", "frontend", "engine", "library", "framework", "ui", "api", "cli", "service", "database",
    # "what can I drop in that stores bookmarks": a particle or a possessive after the verb, no name
    "in", "into", "on", "off", "out", "up", "down", "for", "to", "of", "with", "by", "at", "from",
    "my", "our", "your", "their", "all", "everything",
})
_NOT_ABOUT_LEARNING = r"(?<!easy to )(?<!easier to )(?<!simple to )(?<!simpler to )(?<!hard to )(?<!quick to )"
_RESOURCES_ASKED = re.compile(
    _NOT_ABOUT_LEARNING + r"\b(?:awesome|lists?|tutorials?|learn|learning|course|courses|books?|resources|guides?|"
    r"roadmaps?|"
    r"cheat\s?sheets?|interviews?|examples|dotfiles|curated|study|exercises|free\s+apis?|"
    r"programming\s+languages?|compilers?|interpreters?)\b",
    re.IGNORECASE,
)
_RESOURCE_NAME = re.compile(
    r"^(?:awesome|free-|public-apis)|(?:^|[-_.])(?:awesome|dotfiles|interview|tutorials?|cheatsheets?|roadmap|"
    r"books?|course|learn|examples|resources|guide)(?:$|[-_.])|days-of|-\d+-days$|build-your-own|\.dotfiles$",
    re.IGNORECASE,
)
_RESOURCE_DESCRIPTION = re.compile(
    r"\b(?:curated\s+list|a\s+list\s+of|list\s+of\s+(?:awesome|useful|free|public)|collection\s+of\s+(?:awesome|"
    r"useful|free|resources|links|tutorials|books)|awesome\s+list|free\s+programming\s+books|interview\s+questions|"
    r"tutorials?\s+(?:for|on|about)|learn\s+\w+\s+in|roadmap\s+to|cheat\s?sheet|my\s+dotfiles|dotfiles\s+for|"
    r"\d+\s+days\s+of|resources\s+for|study\s+guide|course\s+(?:materials?|for|on)|"
    r"(?:free|programming|golang|python|java|javascript|rust)\s+e-?books?|learn\s+how\s+to|"
    r"master\s+the|all\s+algorithms\s+implemented|entry-level\s+open\s+source\s+projects|"
    r"algorithms\s+and\s+data\s+structures|data\s+structures\s+and\s+algorithms|style\s+guide|"
    r"concepts\s+(?:every|adapted))\b"
    r"|教程|入门|新手|进阶|面试",  # tutorial, introduction, beginner, advanced study, interview
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Need:
    text: str
    compared: tuple[str, ...] = ()
    wants_resources: bool = False
    spoken: bool = False  # worded as people talk ("my team keeps ..."), not as a description
    situated: bool = False  # tells about the asker's situation: the first person, or a question
    asks_common: bool = False  # asks what most people use ("what do people normally use?")
    owned: tuple[str, ...] = ()  # what the asker already runs: "my karabiner-elements json", "our kubernetes clusters"
    calls: tuple[str, ...] = ()  # the words of the product the wanted code talks to: ("Have", "I", "Been", "Pwned")

    @property
    def word_trust(self) -> float:
        """How far the request's words can be taken as search terms: fully for a description
        ("react state management"), little for a spoken request, whose words are mostly about
        the asking and the situation."""
        return SPOKEN_WORD_TRUST if self.spoken else 1.0

    def replaces(self, full_name: str) -> bool:
        """Whether the repository is what the request compares with ("redux" for reduxjs/redux,
        "Node.js" for nodejs/node)."""
        if not self.compared:
            return False
        names = set(full_name.lower().split("/", 1))
        return any(spelling in names for c in self.compared for spelling in _spellings(c))

    def left_out(self, full_name: str) -> bool:
        """Whether the repository is no answer: what the request compares with (``replaces``), or
        the very product the asker already runs ("my karabiner-elements json", "our Selenium
        suite": its add-ons and tools for it are answers, it is not)."""
        if self.replaces(full_name):
            return True
        name = full_name.lower().split("/", 1)[-1]
        return any(name in _spellings(o) for o in self.owned)

    def stands_in(self, description: str | None) -> bool:
        """Whether the repository's description offers it in place of what the request compares
        with: "a cat replacement" -> sharkdp/bat, "A cat(1) clone with wings"."""
        return description is not None and any(_stands_in_for(c, description) for c in self.compared)

    def serves(self, full_name: str) -> bool:
        """Whether the repository is an add-on of what the request compares with, not a
        replacement: the compared name is one part of its name ("tmux but easier" -> gpakosz/.tmux,
        tmux-plugins/tpm, reduxjs/redux-toolkit for "instead of redux"). A description that
        mentions it proves nothing ("our own git server" -> Gitea, "a painless self-hosted Git
        service"), nor does a name that merely contains it (ripgrep is no add-on of grep). Only
        a known product has add-ons ("some free APIs" compares with nothing)."""
        if not self.compared:
            return False
        parts = set(re.split(r"[-_./]+", full_name.lower()))
        return any(c in parts and c in PRODUCTS for c in self.compared) and not self.replaces(full_name)


_STAND_IN_WORDS = ("clone", "alternative", "replacement", "substitute", "drop-in", "compatible", "rewrite", "successor",
                   "instead")
_STAND_IN = "(?:" + "|".join(re.escape(word) for word in _STAND_IN_WORDS) + ")"


def _stands_in_for(name: str, description: str) -> bool:
    """"A cat(1) clone with wings", "a modern replacement for ls", "Redis-compatible", "an
    open-source Firebase alternative": the description offers itself in place of ``name``."""
    if description.isascii() and name.isascii():  # then matching any case is matching the lower case
        lowered = description.lower()
        if not any(word in lowered for word in _STAND_IN_WORDS):
            return False  # most descriptions offer themselves in place of nothing: the pattern costs ~10 us
        if not any(spelling.lower() in lowered for spelling in _spellings(name) if spelling):
            return False
    return bool(_stand_in_pattern(name).search(description))


@lru_cache(maxsize=256)  # asked of every candidate's description
def _stand_in_pattern(name: str) -> re.Pattern[str]:
    spelled = "|".join(re.escape(s) for s in sorted(_spellings(name), key=len, reverse=True) if s)
    named = rf"\b(?:{spelled})(?:\(\d\))?"
    near = r"(?:\W+\w+){0,3}?\W+"
    return re.compile(rf"{named}(?:-|{near}){_STAND_IN}|{_STAND_IN}\w*{near}(?:\w+\W+){{0,2}}?{named}", re.IGNORECASE)


def _spellings(name: str) -> set[str]:
    return {name, name.replace(" ", "-"), name.replace(".", ""), name.removesuffix(".js")}


_CONTENT_WORD = re.compile(r"[a-z]{4,}")
_COMMON = frozenset("""
about above after again against also another anything anyway around away back because been before
being below better between both bunch cheap could does doing done down during each easier easiest
easy else enough even every everything fast faster find from give good great have having help here
into just keep kind know less like little look looking lots make many more most much must need
needs nice nicer only other ought over people please pretty quick quickly rather real really
same should show simple since some something stuff such sure than that their them then there these
they thing things this those though through today tool tools under until very want wants well were
what when where which while whole will with within without work works would your yours ours myself
ourselves instead using used
""".split()) | CHAT_WORDS


def content_words(message: str) -> list[str]:
    """The words of a request that can name what it is about (four letters or more, no chat filler)."""
    return [w for w in _CONTENT_WORD.findall(query_text(message).lower()) if w not in _COMMON]


# an acronym or a code written as one: "FDM", "VBA", "C2PA", "J1939"; not a size, speed or version
_CODED = re.compile(r"(?<![\w.-])(?:[A-Z]{2,5}|[A-Za-z]+\d[A-Za-z\d]*|\d+[A-Za-z]+\d*[A-Za-z]*)(?![\w-])")
_MEASURE = re.compile(
    r"\d+(?:k|m|g|t|kb|mb|gb|tb|px|fps|hz|khz|mhz|ghz|ms|s|h|d|x|gbps|mbps|st|nd|rd|th|bits?|v|w|kw|mm|cm|km|in|p)?"
    r"|v\d+|\d+[a-z]",
    re.IGNORECASE,
)


def coded_words(message: str) -> list[str]:
    """The acronyms and codes of a request ("FDM printer", "C2PA credentials", "SAE J1939"),
    lower-cased: too short or too odd for ``content_words``, and as telling of its subject."""
    return [w.lower() for w in _CODED.findall(query_text(message)) if not _MEASURE.fullmatch(w)]


# a word as written: "nginx.conf", "C++", "HealthKit", "I"
_WRITTEN = re.compile(r"[A-Za-z][\w.+#-]*[A-Za-z0-9+#]|[A-Za-z]")
_WORD_PART = re.compile(r"[a-z][a-z0-9+#]*")


def named_words(message: str) -> list[str]:
    """The words a request writes as names, lower-cased and split at dots and dashes: those
    capitalised after its first word ("an Elixir implementation of PASETO", "export my Kindle
    highlights"), and acronyms and codes anywhere. A product, format or standard keeps its name
    however the request is worded, so an answer's texts name it too."""
    named: list[str] = []
    for i, word in enumerate(_WRITTEN.findall(message)):
        if (i > 0 and word[0].isupper() and word != "I") or (len(word) > 1 and word.isupper()) \
                or any(c.isdigit() for c in word):
            named.extend(_WORD_PART.findall(word.lower()))
    return list(dict.fromkeys(named))


def telling_words(message: str) -> list[str]:
    """The words that can tell what a request is about: its content words, then its acronyms and
    codes, each once."""
    return list(dict.fromkeys([*content_words(message), *coded_words(message)]))


# "a TypeScript client for the Calendly v2 API", "Python library for Tableau Server": the product is
# what the wanted code talks to, not the kind of software wanted, so what it is is not glossed (a
# scheduling app is no answer to a request for a Calendly client); "a terminal client for Discord"
# still is glossed: a chat client is what is wanted
_API_CLIENT_BEFORE = re.compile(
    r"\b(?:sdks?|wrappers?|bindings|librar(?:y|ies)|crates?|gems?|packages?|modules?)\s+(?:for|to|around|of)\s+"
    r"(?:the\s+)?$", re.IGNORECASE)
_API_AFTER = re.compile(r"\s+(?:v\d+\s+)?(?:rest\s+|graphql\s+|web\s+)?(?:apis?|sdks?|webhooks?|server)\b", re.IGNORECASE)


def _called_through_its_api(message: str, product: str) -> bool:
    """Whether ``message`` names ``product`` as what the wanted code calls: "the Calendly v2 API",
    "Tableau Server", "a wrapper for Statuspage"."""
    for m in re.finditer(rf"(?<![\w/.-]){re.escape(product)}(?![\w/-])", message, re.IGNORECASE):
        if _API_AFTER.match(message, m.end()) or _API_CLIENT_BEFORE.search(message, 0, m.start()):
            return True
    return False


# "a TypeScript client for the Calendly v2 API", "Python wrapper for the AniList GraphQL API",
# "control library for Tuya smart plugs", "an implementation of the Matter protocol": a kind of
# code, then the proper name of what it talks to, extends or implements.
# A name in capitals alone is as often a protocol or a field ("the UDP messaging protocol", "DNA
# sequence manipulation"): it is a product only before "API" or "SDK" ("the IGDB video game
# database API"). Languages and platforms around the name are not it, nor an owner before it
# ("Apple's DeviceCheck API").
_CODE_KIND = (rf"(?i:{CODE_KINDS}|bindings|cli|command-line\s+tool|providers?|exporters?|add-?ons?|integrations?|"
              r"bridges?)")
_PROPER = r"(?:[A-Z][\w.+]*(?:'s)?|[a-z]+[A-Z][\w.+]*|I)"  # "Nordic nRF" too
_CALLED = re.compile(
    rf"\b{_CODE_KIND}\s+(?:for|to|around|of)\s+(?:the\s+)?(?P<name>{_PROPER}(?:\s+{_PROPER})*)"
    r"(?P<api>(?:\s+v\d+)?(?:\s+[a-z][\w-]*){0,3}?\s+(?i:apis?|sdks?)\b)?")
# ...or typed in lower case, right before "API" or "SDK": "a python wrapper for the anilist graphql api"
_CALLED_API = re.compile(
    rf"\b{_CODE_KIND}\s+(?:for|to|around|of)\s+(?:the\s+)?(?P<name>[a-z][\w.+-]*)(?:\s+v\d+)?"
    r"(?:\s+[a-z][\w-]*){0,2}?\s+(?i:apis?|sdks?)\b")
# ...or named right before the kind of client: "an Auth0 SDK for Flutter", "a Swift Keychain wrapper"
# ("relay server for WebRTC clients" serves clients, it is none)
_CALLED_BEFORE = re.compile(r"(?<!\bfor )(?<![\w/.-])(?P<name>[A-Z][\w.+]*)\s+(?P<kind>(?i:sdk|client|wrapper|bindings|driver))\b")
_NOT_CALLED = frozenset(LANGUAGES) | frozenset("""
i a an the we my our is any rest graphql http json yaml cli api sdk openapi android ios linux windows macos
jvm node web unix posix flutter react vue angular svelte django rails laravel phoenix spring electron tauri
deno bun unity godot
""".split())


def called_product(message: str) -> tuple[str, ...]:
    """The words of the product the wanted code talks to (``Need.calls``); none when the request
    names none."""
    for m in _CALLED.finditer(message):
        words = m.group("name").split()
        while words and words[-1].lower() in _NOT_CALLED:
            words.pop()
        owner = max((i for i, word in enumerate(words[:-1]) if word.endswith("'s")), default=-1)
        words = [word.removesuffix("'s") for word in words[owner + 1:]]
        while words and words[0].lower() in _NOT_CALLED:
            words.pop(0)
        if words and (m.group("api") or not all(word.isupper() for word in words)):
            return tuple(words)
    for m in _CALLED_BEFORE.finditer(message):
        name = m.group("name")
        if name.lower() not in _NOT_CALLED and (not name.isupper() or m.group("kind").lower() == "sdk"):
            return (name,)
    for m in _CALLED_API.finditer(message):
        if m.group("name") not in _NOT_CALLED:
            return (m.group("name"),)
    return ()


@lru_cache(maxsize=512)
def read_need(message: str) -> Need:
    compared = tuple(dict.fromkeys(_compared_names(message)))
    compared += tuple(p for p in _WITHOUT.findall(message.lower()) if p in PRODUCTS and p not in compared)
    products = named_products(message, compared=frozenset(compared))
    lived_in = set(_lived_in(message))
    glosses = [f"{name}: {PRODUCTS[name]}" for name in products
               if not _called_through_its_api(message, name) and name not in lived_in]
    text = spelled_out(query_text(message))
    if glosses:
        text = f"{text}. {'; '.join(glosses)}"
    return Need(text=text, compared=compared, owned=tuple(dict.fromkeys(_owned_names(message))),
                wants_resources=_wants_resources(message), calls=called_product(message),
                spoken=is_spoken(message), situated=is_situated(message),
                asks_common=bool(_ASKS_COMMON.search(message)))


# "manage my dotfiles across machines" asks for a tool, not for someone's dotfiles
_TOOL_FOR_DOTFILES = re.compile(
    r"\b(?:manag\w*|sync\w*|track\w*|back\s?up|version\w*|symlink\w*|deploy\w*)\b.*\bdotfiles\b"
    r"|\bdotfiles\b.*\b(?:across|between|on all|manager|tool)\b",
    re.IGNORECASE,
)


def _wants_resources(message: str) -> bool:
    asked = [m.group(0).lower() for m in _RESOURCES_ASKED.finditer(message)]
    if asked and set(asked) == {"dotfiles"} and _TOOL_FOR_DOTFILES.search(message):
        return False
    return bool(asked)


# "what do people normally use?", "what library does everyone use", "the go-to tool": the widely
# used answer is wanted
_ASKS_COMMON = re.compile(
    r"\bwhat\s+(?:\w+\s+){0,2}(?:do|does|would)\s+(?:most\s+)?(?:people|everyone|everybody|folks|teams|devs|"
    r"developers)\s+(?:normally\s+|usually\s+|typically\s+|generally\s+|actually\s+)?use\b"
    r"|\b(?:go-to|industry[- ]standard|de[- ]facto)\b",
    re.IGNORECASE,
)


def is_spoken(message: str) -> bool:
    """A request in the first person, a question, or a sentence longer than a description."""
    words = re.findall(r"[\w'+#.-]+", message.lower())
    return is_situated(message) or len(words) > SPOKEN_WORDS


def is_situated(message: str) -> bool:
    """A request in the first person or a question: its words tell about the asker ("our Jest
    suite got painfully slow"), not only about the software wanted."""
    return bool(_FIRST_PERSON.search(message)) or message.rstrip().endswith("?")


# "my karabiner-elements json", "our legacy Selenium suite", "our kubernetes clusters"
_OWNED = re.compile(r"\b(?:my|our)\s+(?:(?:new|old|current|existing|legacy|main|whole)\s+)?"
                    r"([a-z0-9][\w.+-]*)(?:\s+([a-z0-9][\w.+-]*))?", re.IGNORECASE)
_NOT_OWNED = frozenset("""
team teams company office org organisation organization users customers clients laptop laptops phone
machine machines box server servers site website project projects repo repos codebase docs home family
kids club own local small big old new internal production staging dev test tests app apps
browser editor ide terminal shell desktop mobile web
""".split())


# "we use Keycloak for SSO", "we run Airflow and dbt": what the asker runs is the setting, not an
# answer (a name, or a known product: "we run console commands" runs no console)
_WE_RUN = re.compile(r"\b(?:we|i)\s+(?:already\s+)?(?:use|run|have|host|deploy)\s+"
                     r"([a-z0-9][\w.+-]*)(?:\s*(?:,|and|&)\s*([a-z0-9][\w.+-]*))?", re.IGNORECASE)


# "I basically live in tmux", "i live in emacs org-mode": where the asker works all day is the
# setting the wanted tool runs in, neither an answer nor a kind of software to look for
_LIVES_IN = re.compile(r"\b(?:i|we)\s+(?:\w+\s+)?(?:live|living)\s+in\s+(?:the\s+|my\s+|our\s+)?([a-z0-9][\w.+-]*)",
                       re.IGNORECASE)


def _lived_in(message: str) -> list[str]:
    """Where the asker says they live all day, lower-cased ("I basically live in tmux": "tmux")."""
    return [match.group(1).lower() for match in _LIVES_IN.finditer(message)]


# what an add-on is for is the platform the asker runs, not an answer: "a terraform provider for
# proxmox", "Kubernetes operator that snapshots etcd", "Godot addon", "Anki add-on"
_ADD_ON_FOR = re.compile(
    r"\b([a-z0-9][\w.+-]*)\s+(?:plugins?|extensions?|add-?ons?|providers?|operators?|controllers?)\b", re.IGNORECASE
)


def _owned_names(message: str) -> list[str]:
    """What the asker says they already run, one word or two ("our Selenium suite": "selenium",
    "selenium suite"; "we use Keycloak for SSO": "keycloak"; "I live in tmux": "tmux"), or what the add-on they ask for
    plugs into ("a terraform provider"); not the asker's team, laptop or project, nor a language
    ("our React app")."""
    names: list[str] = [name for match in _ADD_ON_FOR.finditer(message)
                        if (name := match.group(1).lower()) not in _NOT_NAMES and name not in _COMMON
                        and name not in _NOT_OWNED]
    for match in _WE_RUN.finditer(message):
        names += [name for group in match.groups() if group and (group[0].isupper() or group.lower() in PRODUCTS)
                  and (name := group.lower()) not in _NOT_NAMES and name not in _NOT_OWNED and name not in _COMMON]
    names += [name for name in _lived_in(message) if name not in _NOT_NAMES and name not in _NOT_OWNED and name not in _COMMON]
    for match in _OWNED.finditer(message):
        first, second = (g.lower() for g in (match.group(1), match.group(2) or ""))
        for name in (first, f"{first} {second}" if second else ""):
            if name and first not in _NOT_NAMES and first not in _NOT_OWNED and first not in _COMMON:
                names.append(name)
    return names


def _compared_names(message: str) -> list[str]:
    names: list[str] = []
    matches = [(match, False) for pattern in _COMPARED for match in pattern.finditer(message)]
    matches += [(match, True) for pattern in _RULED_OUT for match in pattern.finditer(message)]
    for match, in_passing in matches:
        if KIND_OF_SOFTWARE_AFTER.match(message[match.end(1):]):
            continue  # "instead of desktop software": a kind of software, no product
        name = match.group(1).lower().strip(".,!?'\"")
        if in_passing and name not in PRODUCTS and (name in _COMMON or name in _NOT_RULED_OUT):
            continue
        if name in PRODUCTS or name.split()[0] not in _NOT_NAMES:
            names.append(name if name in PRODUCTS else name.split()[0])
    return [n for n in names if n not in _NOT_NAMES]


_LANGUAGE_ITSELF = re.compile(
    r"\b(?:the\s+\w+\s+programming\s+language|programming\s+language\b(?!s))|^the\s+\w+\s+(?:interpreter|compiler)\b",
    re.IGNORECASE,
)


# every English alternative of _RESOURCE_DESCRIPTION, and every alternative of _LANGUAGE_ITSELF,
# spells one of these words: an ASCII description that spells none cannot match (most spell none,
# and the patterns cost ~15 us a description)
_RESOURCE_WORDS = ("list", "collection", "book", "interview", "tutorial", "learn", "roadmap", "cheat", "dotfiles",
                   "days", "resources", "study", "course", "master", "algorithms", "entry-level", "style", "concepts")
_LANGUAGE_WORDS = ("programming", "interpreter", "compiler")


@lru_cache(maxsize=4096)  # asked of every candidate, and of the catalog's nearest records, at every search
def is_resource(full_name: str, description: str | None) -> bool:
    """A curated list, tutorial, book, course or dotfiles collection, or a programming language
    itself ("python/cpython" for "a Python library for PDFs"): not the software asked for."""
    if _RESOURCE_NAME.search(full_name.split("/", 1)[-1]):
        return True
    text = description or ""
    lowered = text.lower() if text.isascii() else None
    return bool((_spells(lowered, _RESOURCE_WORDS) and _RESOURCE_DESCRIPTION.search(text))
                or (_spells(lowered, _LANGUAGE_WORDS) and _LANGUAGE_ITSELF.search(text)))


def _spells(lowered: str | None, words: tuple[str, ...]) -> bool:
    """Whether a lower-cased ASCII text spells one of ``words``; True for a text that is not ASCII
    (``None``), where case-insensitive matching is more than ``str.lower``."""
    return lowered is None or any(word in lowered for word in words)
