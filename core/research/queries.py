"""GitHub-search-friendly queries: derived from a goal, and parsed back into SearchParams.

A query is plain keywords plus GitHub qualifiers the executor understands:
``language:python``, ``stars:>100``, ``stars:10..500``, ``pushed:>2026-01-01``,
``created:>2025-06-01``, ``topic:llm``, ``"quoted phrases"``, ``sort:updated``, ``archived:false``.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.models import SearchParams
from core.research.concepts import split_concepts

STOPWORDS = frozenset(
    """
    a an the and or but nor of on in at to for from by with without into onto over under about
    as is are was were be been being do does did doing have has had having it its it's this that
    these those there here what which who whom whose when where why how whether if then than so
    such very more most much many few some any all each every both either neither not no yes
    i me my we us our ours you your yours they them their he she his her can could should would
    will shall may might must need needs want wants like just also really please vs versus via
    between among across within per using use used based get gets getting give tell show find
    me lookup look looking search research investigate explore study analyze analyse analysis
    assess assessment evaluate evaluation review examine understand explain describe overview
    summary summarize summarise compare comparison contrast report deep dive quick scan probe
    impact impacts effect effects implication implications role influence consequences
    pros cons tradeoff tradeoffs trade offs trade-off trade-offs advantages disadvantages
    benefits drawbacks risks risk strengths weaknesses better best good worse worst
    latest current currently newest recent recently today now new version versions release
    releases released
    list top popular trending known famous well some other others different various
    way ways thing things stuff kind type types kinds lot lots whats what's is there are there
    our team company org organisation organization project projects long term long-term future
    ecosystem landscape world industry
    stars star forks contributors downloads count number maintained maintains maintainer
    still written created github repo repository repositories link url homepage default
    library libraries lib libs tool tools package packages crate crates gem gems module modules
    alternative alternatives migrate migrating migration switch switching move moving adopt
    adopting adoption large small big huge app apps application applications good idea
    focus include including add emphasis emphasize prefer instead rather less fewer
    choice choices choose choosing option options debate debates debated worth worthwhile hurt hurts
    hurting help helps harm harms standardize standardise standardizing standardising standard
    outside inside beyond rewrite rewriting rewritten opinion opinions think thoughts consider
    considering decide decision sense make makes worthy ready production-ready viable really
    still anymore yet ever again already actually overrated underrated hype hyped matter matters
    go-to should shall going hear heard say says said people everyone anyone someone us
    top ranking ranked ones one leave out only
    """.split()
)
# "the state of X", "is X worth it": phrases whose words are filler only here ("state management" stays)
_FILLER_PHRASES = re.compile(
    r"\b(?:the\s+)?state\s+of\b|\bworth\s+it\b|\boutside\s+(?:of\s+)?(?:the\s+)?[\w.+#-]+", re.IGNORECASE
)
# Words worth keeping even though they look generic in a GitHub query.
KEEP = frozenset({"ai", "ml", "llm", "llms", "ui", "ux", "ci", "cd", "api", "apis", "db", "go", "c"})

LANGUAGES = {
    "python": "python", "javascript": "javascript", "js": "javascript", "typescript": "typescript",
    "ts": "typescript", "rust": "rust", "golang": "go", "java": "java", "kotlin": "kotlin",
    "swift": "swift", "ruby": "ruby", "php": "php", "c++": "c++", "cpp": "c++", "c#": "c#",
    "csharp": "c#", "scala": "scala", "elixir": "elixir", "haskell": "haskell", "dart": "dart",
    "julia": "julia", "lua": "lua", "zig": "zig", "clojure": "clojure", "ocaml": "ocaml",
    "erlang": "erlang", "perl": "perl", "shell": "shell", "bash": "shell",
}

def _tech_words() -> frozenset[str]:
    from core.search.vocabulary import AMBIGUOUS_LANGUAGES, LANGUAGES as KNOWN_LANGUAGES, QUALIFIERS

    known = {w for w in KNOWN_LANGUAGES if " " not in w and w not in AMBIGUOUS_LANGUAGES}
    known |= {w for w in QUALIFIERS if " " not in w and w not in _NOT_TECH}
    return frozenset(known | set(LANGUAGES) | _MORE_TECH)


# everyday words among the qualifiers: context, not a technology to search for on its own
_NOT_TECH = frozenset({"web", "browser", "mobile", "desktop", "mac", "windows", "self-hosted", "selfhosted", "spring",
                       "express", "phoenix", "unity", "excel", "slack", "discord", "electron"})
_MORE_TECH = frozenset(
    """
    kafka redis valkey postgres postgresql mysql mariadb mongodb sqlite cassandra scylladb cockroachdb
    clickhouse duckdb neo4j elasticsearch opensearch meilisearch typesense rabbitmq nats pulsar zeromq
    spark flink airflow dagster prefect dbt pandas polars numpy scipy pytorch tensorflow keras jax
    langchain llamaindex ollama vllm huggingface transformers openai gemini claude
    redux zustand jotai mobx recoil xstate pinia vuex tanstack htmx alpinejs astro remix gatsby
    vite webpack esbuild rollup parcel turbopack bun pnpm yarn npm nx turborepo lerna bazel pants buck2
    monorepo monorepos webassembly wasm wasi graphql grpc protobuf trpc openapi
    sqlalchemy prisma drizzle typeorm sequelize mikroorm knex diesel sqlx gorm peewee tortoise
    tokio actix axum rocket warp gin fiber hyper asyncio trio celery dramatiq
    terraform pulumi ansible helm istio envoy linkerd nginx caddy traefik prometheus grafana
    opentelemetry jaeger loki supabase firebase appwrite pocketbase qdrant pinecone weaviate milvus
    chroma chromadb pgvector faiss lancedb multiplatform kmp compose swiftui jetpack qt gtk tkinter
    pyqt wails capacitor ionic cordova expo playwright cypress selenium puppeteer jest vitest pytest
    mocha storybook webrtc websocket websockets kubernetes docker podman containerd wasmtime wasmer
    """.split()
)
_TOKEN = re.compile(r"[^\W_][\w+#.\-]*[\w+#]|[^\W_]", re.UNICODE)
_OWNER_NAME = re.compile(r"\b([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})\b")
_QUALIFIER = re.compile(r'^(language|stars|pushed|created|topic|sort|archived):(.+)$', re.IGNORECASE)
NOT_ARCHIVED = "archived:false"
_RANGE = re.compile(r"^(>=|<=|>|<)?(\d+)(?:\.\.(\d+|\*))?$")
_DATE = re.compile(r"^(>=|>|<=|<)?(\d{4}-\d{2}-\d{2})$")
MAX_KEYWORDS = 4


def repo_names(text: str) -> list[str]:
    """owner/name mentions in the goal, in order (GitHub URLs included)."""
    names: list[str] = []
    for owner, name in _OWNER_NAME.findall(text.replace("https://github.com/", " ")):
        full = f"{owner}/{name.removesuffix('.git')}"
        if full not in names and not owner.isdigit():
            names.append(full)
    return names


def is_technology(word: str, original: str = "") -> bool:
    """A language, framework or tool name ("go" only when written "Go" / "golang" in ``original``)."""
    word = word.lower()
    if word == "go":
        return bool(re.search(r"\bGo\b|\bgolang\b", original))
    return word in TECH_WORDS


def keywords(text: str, *, limit: int = MAX_KEYWORDS) -> list[str]:
    """The goal's content words, most telling first: technology names, then multi-word concepts
    ("feature flag", kept whole), then the other content words in order of appearance; stopwords,
    opinion filler, team-size phrases ("for a 10 person startup") and bare numbers dropped."""
    concepts, rest = split_concepts(_FILLER_PHRASES.sub(" ", text))
    found: list[str] = list(concepts)  # "feature flag" stays one keyword
    cleaned = rest.replace("/", " ")
    for raw in _TOKEN.findall(cleaned.lower()):
        word = raw.strip(".-")
        if not word or word in found or word.replace(".", "").isdigit():
            continue
        if word in KEEP or (word not in STOPWORDS and len(word) > 1):
            found.append(word)
    found.sort(key=lambda w: not is_technology(w, text))  # stable: technologies first, order kept
    return found[:limit] if limit else found


def technologies(text: str) -> list[str]:
    """Technology names in ``text``, in order of appearance."""
    return [w for w in keywords(text, limit=0) if is_technology(w, text)]


TECH_WORDS = _tech_words()


def language_of(words: list[str]) -> str | None:
    return next((LANGUAGES[w] for w in words if w in LANGUAGES), None)


_ALTERNATIVES = (
    re.compile(r"\bfrom ([\w.+#-]+) to ([\w.+#-]+)", re.I),
    re.compile(r"\bbetween ([\w.+#-]+) and ([\w.+#-]+)", re.I),
    re.compile(r"\bcompare ([\w.+#-]+),? ([\w.+#-]+),? (?:and|with|to) ([\w.+#-]+)", re.I),
    re.compile(r"\bcompare ([\w.+#-]+),? (?:and|with|to|vs\.?|versus) ([\w.+#-]+)", re.I),
    re.compile(r"([\w.+#-]+),? (?:vs\.?|versus|or) ([\w.+#-]+)", re.I),
)


def alternatives(goal: str) -> list[str]:
    """The options a comparison goal weighs ("from Redux to Zustand", "Deno versus Node.js")."""
    for pattern in _ALTERNATIVES:
        match = pattern.search(goal)
        if match:
            found = [w.lower().strip(".,") for w in match.groups()]
            found = [w for w in found if w and (w in KEEP or w not in STOPWORDS)]
            if len(found) >= 2:
                return list(dict.fromkeys(found))
    return []


def since(days: int, today: date | None = None) -> str:
    return ((today or date.today()) - timedelta(days=days)).isoformat()


def topic_terms(goal: str) -> list[str]:
    """Keywords for a goal; never empty (falls back to the longest words of the goal)."""
    words = keywords(goal)
    if words:
        return words
    fallback = sorted({w.lower() for w in _TOKEN.findall(goal)}, key=len, reverse=True)
    return fallback[:MAX_KEYWORDS] or ["open source"]


def parse_query(query: str) -> SearchParams:
    """Turn one plan query back into SearchParams for a RepoSource."""
    params = SearchParams()
    words: list[str] = []
    for phrase in re.findall(r'"([^"]+)"', query):
        params.phrases.append(phrase.strip())
    rest = re.sub(r'"[^"]*"', " ", query)
    for token in rest.split():
        match = _QUALIFIER.match(token)
        if match is None:
            words.append(token)
            continue
        name, value = match.group(1).lower(), match.group(2)
        if name == "language":
            params.language = value.lower()
        elif name == "topic":
            params.topics.append(value.lower())
        elif name == "sort":
            params.sort = value.lower()
        elif name == "stars":
            _apply_stars(params, value)
        elif name == "archived":
            continue  # research filters archived results itself (excludes_archived)
        else:
            _apply_date(params, name, value)
    params.keywords, params.synonym_groups = _or_groups(words)
    params.text = " ".join(params.phrases + words)
    return params


def _or_groups(words: list[str]) -> tuple[list[str], list[list[str]]]:
    """``a OR b c`` -> keywords ["c"], one synonym group ["a", "b"] (alternatives, OR'd)."""
    keywords: list[str] = []
    groups: list[list[str]] = []
    index = 0
    while index < len(words):
        group = [words[index]]
        while index + 2 < len(words) and words[index + 1] == "OR":
            group.append(words[index + 2])
            index += 2
        index += 1
        if len(group) > 1:
            groups.append(list(dict.fromkeys(group)))
        elif group[0] != "OR":
            keywords.append(group[0])
    return keywords, groups


def _apply_stars(params: SearchParams, value: str) -> None:
    match = _RANGE.match(value)
    if match is None:
        return
    op, low, high = match.groups()
    if high is not None:
        params.min_stars = int(low)
        params.max_stars = None if high == "*" else int(high)
    elif op in (">", ">="):
        params.min_stars = int(low) + (1 if op == ">" else 0)
    elif op in ("<", "<="):
        params.max_stars = int(low) - (1 if op == "<" else 0)
    else:
        params.min_stars = params.max_stars = int(low)


def _apply_date(params: SearchParams, name: str, value: str) -> None:
    match = _DATE.match(value)
    if match is None or match.group(1) in ("<", "<="):
        return
    when = date.fromisoformat(match.group(2))
    if name == "pushed":
        params.pushed_after = when
    else:
        params.created_after = when


def excludes_archived(query: str) -> bool:
    """True when the query asks to leave archived repositories out (``archived:false``)."""
    return NOT_ARCHIVED in query.lower().split()


def is_executable(query: str) -> bool:
    """A query the executor can run: at least one keyword, phrase, topic or language."""
    params = parse_query(query)
    return bool(params.keywords or params.synonym_groups or params.phrases or params.topics or params.language)
