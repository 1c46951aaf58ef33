"""Small readings of a message that shape a clarification: the request behind a referent that
cannot be resolved ("analyze the second one" with nothing listed), and links to code hosts
other than GitHub (which we cannot analyze)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.classifier.context import ThreadContext
from core.classifier.mentions import Mention, MentionKind
from core.classifier.vocabulary import LANGUAGES
from core.models import Intent

_COMPARE_WORDS = re.compile(
    r"\b(?:compar\w*|vs\.?|versus|side[\s-]by[\s-]side|head[\s-]to[\s-]head|against each other|"
    r"differences?|which (?:is|one is) better)\b",
    re.I,
)
# "analyze", "an analysis of", "analysis: X", but not a kind of software: "static analysis" (a word
# before it, the lookbehinds), "a log analyzer"
_ANALYZE_WORDS = re.compile(
    r"\b(?:analy[sz](?:e|es|ed|ing)\b|(?:an?|the|full|quick|deep|detailed|your|some)\s+analysis|analysis\s+of|"
    r"(?<!\w\s)(?<!\w\s\s)analysis|tell me (?:more )?about|more (?:on|about)|details?|dig into|look (?:at|into)|"
    r"deep[\s-]dive|review|audit|check(?: out)?(?!\s*(?:[,.;:!?\u2014)]|-\s|$))|open(?![\s-]+source)|show me)\b",
    re.I,
)
_PLURAL = {MentionKind.BOTH, MentionKind.ALL, MentionKind.OTHERS, MentionKind.RANGE}
_FOREIGN_HOST = re.compile(
    r"(?:https?://)?(?:www\.)?((?:gitlab\.com|bitbucket\.org|codeberg\.org|gitee\.com|sr\.ht|git\.sr\.ht|"
    r"sourceforge\.net|gitea\.com|sourcehut\.org)/[^\s)>,]+)",
    re.I,
)


def referent_intent(message: str, mentions: Sequence[Mention]) -> Intent | None:
    """Analyze or compare, when ``message`` points at results ("the second one", "compare them");
    None when it holds no reference to results, or only a pronoun and no request ("is it good?")."""
    references = [m for m in mentions if m.kind in (*_PLURAL, MentionKind.POSITION, MentionKind.PRONOUN)]
    if not references:
        return None
    if _COMPARE_WORDS.search(message):
        return Intent.COMPARE
    if any(m.kind in _PLURAL or len(m.positions) > 1 for m in references) or \
            sum(m.kind is MentionKind.POSITION for m in references) > 1:
        return Intent.COMPARE
    if _ANALYZE_WORDS.search(message) or any(m.kind is MentionKind.POSITION for m in references):
        return Intent.ANALYZE
    return None


_WORD = re.compile(r"[\w'+#.-]+")
DESCRIPTION_MIN_WORDS = 4
DESCRIPTION_MIN_CONTENT = 2  # of which words that say something ("which one should I pick?" says nothing)


def names_no_target(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """True when the message describes a kind of software rather than pointing at a repository
    ("S3 compatible object storage server", "host my own git server with code review"): several
    words, no analyze/compare wording, no repository name, link or reference to results, and
    nothing listed before. An analysis or comparison needs a target, so none can be meant; words
    such as "server" or "git" inside the description are not names."""
    if context.known_names or requested_intent(message) is not None:
        return False
    if len(_WORD.findall(message)) < DESCRIPTION_MIN_WORDS:
        return False
    return not mentions


_WORDS_OF_A_NEED = (MentionKind.NAME, MentionKind.PRONOUN)  # mentions that point at nothing listed
_SEARCH_COMMAND = re.compile(
    r"^\s*(?:search(?:\s+for)?\s*:|search\s+for\b|find\s+(?:me\s+)?(?:an?|some)\b"
    # "jq but for yaml?", "htop but for GPUs": the named tool's counterpart for something else
    r"|(?:(?:something|anything)\s+)?(?:like\s+)?[\w.+-]+\s+but\s+for\b)",
    re.I,
)


def commands_search(message: str, mentions: Sequence[Mention]) -> bool:
    """"Search for: ...", "search for ...", "find me a ...", "jq but for yaml?": a search by its
    wording, unless the message points at listed results or a repository by owner/name."""
    return bool(_SEARCH_COMMAND.match(message)) and all(m.kind in _WORDS_OF_A_NEED for m in mentions)


# "I'd like one graphical app that ...", "is there a tool to ...", "we need a library for ...": the
# message asks for software, whatever names its situation mentions
_ASKS_FOR_SOFTWARE = re.compile(
    r"\b(?:i'?d like|we'?d like|i want|we want|i need|we need|need|want|looking for|(?:i'?m|we'?re) after|is there|"
    r"are there|recommend|any)\s+"
    r"(?:(?:an?|one|some|any)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:apps?|tools?|librar(?:y|ies)|programs?|utilit(?:y|ies)|services?|frameworks?|clis?|guis?|packages?|"
    r"crates?|plugins?|extensions?|software|connectors?|bridges?|integrations?|scripts?|dashboards?|scanners?|"
    r"checkers?|collectors?|something)\b",
    re.I,
)


# "what do you all use for backups?", "what are you folks running for error tracking?": the people in
# the thread are asked which software they use, which is a search for it (a lone "you" may be the bot)
_ASKS_WHAT_OTHERS_USE = re.compile(
    r"\bwhat\s+(?:do|does|are|would|did)\s+(?:you\s+all|y'?all|you\s+guys|you\s+folks|you\s+lot|folks|people|"
    r"everyone|everybody|teams|devs)\s+(?:\w+\s+)?(?:use|using|run|running|recommend|pick|choose)\s+(?:for|to|as)\s+\w",
    re.I,
)


# "is Pandoc still the best choice for converting docs?", "is three.js still the go-to for 3d on the
# web?": what is best for the job now is asked, not an analysis of the name
_STILL_THE_BEST = re.compile(
    r"\bis\s+(?!(?:it|this|that|the\s+(?:first|second|third|last)(?:\s+one)?)\s+still\b)(?:[\w+#./-]+\s+){1,2}still\s+the\s+(?:best|go-to|standard|default|right|top)\b", re.I)


def asks_what_others_use(message: str) -> bool:
    """True when the people in the thread are asked which software they use for something, or
    whether what they use is still the best for it."""
    return bool(_ASKS_WHAT_OTHERS_USE.search(message) or _STILL_THE_BEST.search(message))


def asks_for_software(message: str, context: ThreadContext) -> bool:
    """True when the message asks for a kind of software in so many words, with nothing listed
    before that it could be choosing among."""
    return not context.known_names and requested_intent(message) is None and bool(_ASKS_FOR_SOFTWARE.search(message))


def asks_one_tool_for_them(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """"is there one GUI that drives all of them?" after naming winget, scoop and chocolatey, with
    nothing listed before: "them" are the names just said, and what is asked for is a tool that
    works with them all, not a comparison of them."""
    plural = any(m.kind in (MentionKind.ALL, MentionKind.BOTH) for m in mentions)
    return plural and asks_for_software(message, context)


_KIND_WORDS = re.compile(r"^[a-z0-9][\w+#./-]*(?:\s+[a-z0-9][\w+#./-]*){1,3}$", re.I)


def names_a_kind(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """A short phrase of two to four plain words with nothing listed before and no name in it
    ("javascript bundler", "container orchestration"): when the model leans to a search, it is one."""
    return not mentions and not context.known_names and bool(_KIND_WORDS.match(message.strip()))


# "k8s tui", "kafka ui", "terraform linter", "nginx log analyzer", "S3 browser", "slack standup bot",
# "godot inventory addon", "sprite sheet packer cli", "proxmox backup tool with deduplication",
# "sqlite gui mac", "lottie player android": a name or a few words and the kind of software wanted
# for it (with what it should have, and the platform it runs on)
_TOOL_FOR = re.compile(
    r"^\s*(?!(?:hey|hi|hello|yo|good|thanks|thank|ok|okay|morning|evening|night|bye)\b)"  # "hey bot", "good morning bot"
    r"(?:[\w+#./-]+\s+){1,3}(?P<wanted>t?uis?|guis?|clis?|clients?|linters?|formatters?|dashboards?|"
    r"exporters?|operators?|orms?|drivers?|sdks?|bindings|wrappers?|plugins?|extensions?|libraries|"
    r"frameworks|alternatives?|replacements?|analy[sz]ers?|browsers?|explorers?|viewers?|bots?|backups?|"
    r"gateways?|scripts?|playgrounds?|add-?ons?|players?|widgets?|themes?|templates?|honeypots?|packers?)"
    r"(?:\s+tools?)?(?:\s+with(?:out)?\s+[\w+#./-]+(?:\s+[\w+#./-]+)?)?"
    r"(?:\s+(?:on\s+|for\s+)?(?:mac|macos|windows|linux|android|ios))?\s*\??\s*$",
    re.I,
)


# "tmux on windows without wsl?", "htop for android", "virtual webcam background removal on windows
# without an nvidia card": the named tool or the kind of software, wanted on another platform
_ON_PLATFORM = re.compile(
    r"^\s*(?!(?:is|are|does|do|did|can|could|will|would|should|how|why|what|which)\b)"  # "is zustand good on ios?"
    r"(?:[\w+#./-]+\s+){0,3}[\w+#./-]+\s+(?P<wanted>(?:on|for)\s+(?:windows|mac|macos|osx|linux|android|ios|iphone|"
    r"ipad|freebsd|raspberry\s+pi)\b(?:\s+(?:without|with\s+no|no)\s+(?:an?\s+)?(?P<left>[\w+#./-]+)(?:\s+\w+)?)?)\s*\??\s*$",
    re.I,
)


def names_tool_for(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """A name or two followed by the kind of software wanted for it ("k8s tui", "kafka ui",
    "terraform linter") or the platform it is wanted on ("tmux on windows without wsl?"): a search,
    not an analysis of the named repository, when nothing was listed before and no other wording
    asks for one."""
    match = _TOOL_FOR.match(message) or _ON_PLATFORM.match(message)
    if match is None or context.known_names or requested_intent(message) is not None:
        return False
    left_behind = match.groupdict().get("left") and match.span("left")  # "without wsl"
    return all(m.kind is MentionKind.NAME and (m.end <= match.start("wanted") or (m.start, m.end) == left_behind)
               for m in mentions)


# a few words, then a kind of code (the alternation is closed by the patterns that use it)
_KIND_OF_CODE = (r"^\s*(?:(?:an?|the|some|any)\s+)?(?:[\w+#./-]+\s+){0,3}?(?:sdks?|clients?|wrappers?|bindings|"
                 r"librar(?:y|ies)|crates?|gems?|packages?|modules?|drivers?|plugins?|extensions?|")
# code for a named product or between two: what the message asks for is that code, not an
# analysis or a comparison of the names. "Rust SDK for the Stripe API", "Terraform provider for
# NetBox" (a kind of code first, then what it is for):
_CODE_FOR = re.compile(_KIND_OF_CODE + r"providers?|exporters?|connectors?|adapters?)\s+(?:for|to|around)\s+", re.I)
# ...or described by what it does: "Node.js module that checks whether the internet connection is
# available", "Go library which renders QR codes"
_CODE_THAT = re.compile(_KIND_OF_CODE + r"components?|widgets?|tools?|clis?|utilit(?:y|ies))\s+(?:that|which)\s+\w", re.I)
# "mysql to clickhouse cdc", "kafka to s3 sink", "docker compose -> nomad job" (a short phrase from
# one thing to another with more than the two names: "react to vue?" may be a comparison):
_FROM_TO = re.compile(
    r"^\s*(?=\S+\s+\S+\s+\S+\s+\S)[\w+#./-]+(?:\s+[\w+#./-]+)?\s+(?:to|->|\u2192|into)\s+[\w+#./-]+"
    r"(?:\s+[\w+#./-]+){0,2}\s*\??\s*$", re.I)
# "migrating from Redux to Zustand, any codemod?", "going from moment.js to date-fns - codemod?":
_MOVING = re.compile(
    r"\b(?:migrat\w*|mov(?:e|es|ed|ing)|go(?:es|ing)?|switch\w*|port(?:s|ed|ing)?)\s+(?:\w+\s+){0,2}?from\s+"
    r"[\w+#./-]+(?:\s+[\w+#./-]+)?\s+(?:to|->|\u2192)\s+", re.I)
_TOOLISH = re.compile(r"\b(?:codemods?|converters?|migrators?|tools?|scripts?|automat\w*|something|anything)\b", re.I)
# "row level data diff between Postgres and Snowflake", "move terraform state between two backends":
_BETWEEN = re.compile(
    r"\b(?:diffs?|diffing|sync\w*|mov(?:e|es|ed|ing)|migrat\w*|replicat\w*|transfer\w*|cop(?:y|ies|ying)|"
    r"mirror\w*|bridg\w*|relay\w*)\b[^.?!]{0,40}\bbetween\b", re.I)


def asks_for_code_between(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """Code for a named product ("Go SDK for the Ollama API") or described by what it does ("Node.js
    module that checks whether ..."), from one thing to another ("kafka to
    s3 sink", "migrating from Redux to Zustand, any codemod?") or moving data between two ("row
    level data diff between Postgres and Snowflake"): a search, when nothing was listed before, no
    repository is named by owner/name and no other wording asks for an analysis or a comparison."""
    if context.known_names or requested_intent(message) is not None:
        return False
    if any(m.kind is not MentionKind.NAME and not pair_of_words(m) for m in mentions):
        return False
    return bool(_CODE_FOR.match(message) or _CODE_THAT.match(message) or _FROM_TO.match(message) or _BETWEEN.search(message)
                or (_MOVING.search(message) and _TOOLISH.search(message)))


# "can I run clojure code inside jupyter lab?", "write rust in jupyter": a language wanted inside a
# named tool, which takes a kernel, plugin or bridge to find, not an analysis of the tool
_LANGUAGE_INSIDE = re.compile(
    r"\b(?:run|running|write|writing|use|using|execute|executing|code|coding|script|scripting|program|programming)\s+"
    r"(?:my\s+|our\s+|some\s+)?(?:" + "|".join(re.escape(language) for language in sorted(LANGUAGES, key=len, reverse=True))
    + r")(?:\s+(?:code|scripts?|programs?|cells?))?\s+(?:in|inside|within)\s+(?:an?\s+|the\s+|my\s+|our\s+)?"
    r"(?P<tool>[\w+#./-]+(?:\s+[\w+#./-]+)?)\s*\??\s*$",
    re.I,
)


def runs_a_language_inside(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """A programming language wanted inside the one tool named ("can I run clojure code inside
    jupyter lab?"): a search for what makes that possible, when nothing was listed before and no
    other wording asks for an analysis or comparison."""
    match = _LANGUAGE_INSIDE.search(message)
    if match is None or context.known_names or requested_intent(message) is not None:
        return False
    return bool(mentions) and all(m.kind is MentionKind.NAME and m.start >= match.start("tool") for m in mentions)


_LANGUAGE_NAME = "(?:" + "|".join(re.escape(language) for language in sorted(LANGUAGES, key=len, reverse=True)) + ")"
# "interactive selector for Terraform resources to plan or apply, in Go or Rust": a described need
# whose last words offer a choice of languages to write it in (not "should we write it in go or rust?")
_IN_EITHER_LANGUAGE = re.compile(
    rf"^(?!\s*(?:should|shall|would|which|what|is|are|do|does|can|could)\b)(?P<need>.+?)"
    rf"(?:,\s*|\s+(?:written\s+)?in\s+)(?:either\s+)?{_LANGUAGE_NAME}\s*(?:or|/)\s*(?:in\s+)?{_LANGUAGE_NAME}\s*[.!?]*\s*$",
    re.I,
)
_WEIGHS_LANGUAGES = re.compile(r"\b(?:decid\w*|choos\w*|pick\w*|whether|between|learn\w*|rewrit\w*|port\w*)\b", re.I)


def offers_a_language_choice(message: str, context: ThreadContext) -> bool:
    """A described need that ends by offering a choice of two languages to have it in ("..., in Go
    or Rust"): a search in either, not a comparison of the languages, when nothing was listed before
    and no wording asks for an analysis or comparison or weighs the languages themselves."""
    match = _IN_EITHER_LANGUAGE.match(message)
    if match is None or context.known_names or requested_intent(message) is not None:
        return False
    return len(_WORD.findall(match.group("need"))) >= DESCRIPTION_MIN_WORDS and not _WEIGHS_LANGUAGES.search(message)


# names set apart as alternatives stand close ("zustand or jotai", "is vitest faster than jest",
# "replace moment with dayjs"); two names further apart are words of one description ("finite
# element analysis ... with beam and shell elements"), and so are two with a new clause between
# them ("write the OpenAPI YAML and it routes requests")
APART_MAX_WORDS = 4
_NEW_CLAUSE = re.compile(r"\b(?:it|they|we|i|you|he|she)\b", re.I)
# ...unless the message opens with the kind of software it asks for, and the names are what that
# serves: "backup tool for MySQL or Postgres", "script that reviews a MySQL or MariaDB server"
_KIND_FIRST = re.compile(
    r"^\s*(?:(?:an?|the|some|any)\s+)?(?:[\w+#.-]+\s+){0,3}?(?:tools?|scripts?|librar(?:y|ies)|clients?|apps?|"
    r"applications?|frameworks?|guis?|plugins?|extensions?|drivers?|utilit(?:y|ies)|clis?|programs?|services?|"
    r"dashboards?|exporters?|wrappers?|bindings|sdks?|engines?|editors?|viewers?|managers?|software|systems?|"
    r"platforms?|servers?|packages?|components?|connectors?|bridges?|integrations?)\b(?!\s*[?:])",
    re.I,
)
_APART = re.compile(r"[,/&]|\b(?:or|and|vs|versus|than|against|over|with|to|from|instead|like|nor)\b", re.I)
# ...nor names joined by "or" / "and" after a preposition that says what the wanted tool works
# on: "pipe live streams straight into mpv or VLC", "backups for MySQL and Postgres"
_SERVED = re.compile(r"\b(?:into|onto|for|on|in|inside|within|via|through)\s+(?:(?:the|a|an|my|our|your)\s+)?$", re.I)
_JOINED = re.compile(r"\s*(?:,|/|or|and)\s*", re.I)
# ...nor names joined after what the asker already runs: "we run Airflow and dbt", "we deploy with
# Nomad and Consul", "we store configs in Consul and etcd"
_RUN_BY_ASKER = re.compile(
    r"\b(?:we|i)\s+(?:use|run|have|deploy\s+with|work\s+with|build\s+with|store\s+\w+\s+in)\s+$", re.I
)
# ...each with what it is for, when a tool is asked for: "we run WooCommerce for the shop and Odoo
# for accounting; need a connector that syncs orders between them" ("we use Postgres in prod and
# MySQL in staging, which is faster?" still compares them)
_JOINED_WITH_ROLE = re.compile(r"\s+(?:for|in|on|at|as)\s+(?:(?:the|our|my|a)\s+)?[\w-]+\s*(?:,|and|&)\s*", re.I)


def describes_need(message: str, mentions: Sequence[Mention], context: ThreadContext) -> bool:
    """True when the message describes a need in which bare names are only words of it ("our
    docker image is 2GB and I want to see which layer is bloating it", "rich text WYSIWYG editor
    for the web"): no analyze/compare wording, nothing listed before, no link, owner/name or
    reference to results, no two names set apart ("zustand or jotai", "is vitest faster than
    jest", "replace X with Y"; names in one phrase, "rich text WYSIWYG editor", are not), and at
    least ``DESCRIPTION_MIN_WORDS`` words besides the names, ``DESCRIPTION_MIN_CONTENT`` of them
    more than function words."""
    if context.known_names or requested_intent(message) is not None:
        return False
    if any(m.kind not in (*_WORDS_OF_A_NEED, MentionKind.ALL, MentionKind.BOTH) and not pair_of_words(m)
           for m in mentions):
        return False  # with nothing listed, "them", "these" and "both" are only words of the need
    names = sorted((m for m in mentions if m.kind is MentionKind.NAME), key=lambda m: m.start)
    if names and not _KIND_FIRST.match(message[:names[0].start]) and any(
            _APART.search(between) and len(between.split()) <= APART_MAX_WORDS and not _NEW_CLAUSE.search(between)
            and not (_JOINED.fullmatch(between)
                     and (_SERVED.search(message[:a.start]) or _RUN_BY_ASKER.search(message[:a.start])))
            and not (_JOINED_WITH_ROLE.fullmatch(between) and _RUN_BY_ASKER.search(message[:a.start])
                     and _ASKS_FOR_SOFTWARE.search(message, b.end))
            for a, b, between in ((a, b, message[a.end:b.start]) for a, b in zip(names, names[1:]))):
        return False
    bounds = [0, *(edge for m in names for edge in (m.start, m.end)), len(message)]
    rest = " ".join(message[a:b] for a, b in zip(bounds[::2], bounds[1::2]))
    words = _WORD.findall(rest)
    content = [w for w in words if w.lower() not in _FUNCTION_WORDS]
    return len(words) >= DESCRIPTION_MIN_WORDS and len(content) >= DESCRIPTION_MIN_CONTENT


# where a tool runs: "we can run on k8s", "deployed to Fly" (but "stats on tokio" asks about it)
_RUNS_ON = re.compile(r"\b(?:run|runs|running|deploy(?:s|ed|ing)?|host(?:s|ed|ing)?)\s+(?:on|in|inside|to)\s+"
                      r"(?:(?:the|a|an|my|our|your)\s+)?$", re.I)


def names_only_its_situation(message: str, mentions: Sequence[Mention]) -> bool:
    """True when every bare name is where the wanted tool is to run ("a transcoding pipeline we can
    run on k8s") or what the asker already runs ("we use Terraform and Atlantis"), alone or joined
    to such a name, and no pronoun points back at one ("we use react, is it still maintained?" asks
    about react): no target to analyze."""
    if any(m.kind is MentionKind.PRONOUN for m in mentions):
        return False
    names = sorted((m for m in mentions if m.kind is MentionKind.NAME), key=lambda m: m.start)
    for previous, name in zip([None, *names], names):
        before = message[:name.start]
        joined = previous is not None and _JOINED.fullmatch(message[previous.end:name.start])
        if not (joined or _RUNS_ON.search(before) or _RUN_BY_ASKER.search(before)):
            return False
    return bool(names)


def pair_of_words(mention: Mention) -> bool:
    """An owner/name that no index knows, written without a link ("converted into native
    TikZ/pgfplots code"): within a described need, two words of it more likely than a repository."""
    return mention.kind is MentionKind.EXPLICIT and not mention.known


# words that carry no need: "which one should I pick?" describes nothing
_FUNCTION_WORDS = frozenset("""
a an the i me my we us our you your it its they them their this that these those one ones which what who
how why when where should would could can will do does did is are was were be been am to of for in on at
with and or but so if then than just really please some any pick choose use get go want need like there
""".split())


def foreign_repositories(message: str) -> list[str]:
    """Links to repositories on other code hosts ("gitlab.com/foo/bar"), as written (no scheme)."""
    return [m.group(1).rstrip(".!?;:") for m in _FOREIGN_HOST.finditer(message)]


# what a tool is asked to do, not what the message asks: "a tool that analyzes bundle size", "something to review PRs"
_WHAT_A_TOOL_DOES = re.compile(
    r"\b(?:tools?|apps?|scripts?|something|anything|librar(?:y|ies)|services?|bots?|clis?|plugins?|extensions?)\s+"
    r"(?:that|which|to)\s+(?:\w+\s+)?$", re.I)


def requested_intent(message: str) -> Intent | None:
    """What a message asks for by its wording alone (for a foreign link: "analyze gitlab.com/a/b")."""
    if _COMPARE_WORDS.search(message):
        return Intent.COMPARE
    if any(not _WHAT_A_TOOL_DOES.search(message, 0, m.start()) for m in _ANALYZE_WORDS.finditer(message)):
        return Intent.ANALYZE
    return None
