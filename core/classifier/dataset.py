"""The shipped utterance set: JSON Lines under ``data/train/`` expanded into training samples.

Each line is ``{"text", "intent", "ctx"?, "n"?, "k"?, "asked"?, "prev"?}``:

- ``text`` may contain slots: ``{repo}``/``{repo2}``/``{repo3}`` (distinct repository names),
  ``{lang}``, ``{topic}``, ``{task}``, ``{need}``, ``{ord}``/``{ord2}``, ``{num}``/``{num2}``,
  ``{n}``, ``{stars}``, ``{count}``, ``{framework}``, ``{kind}``, ``{feature}``, ``{product}``, and for
  requests worded as people talk ``{does}`` ("backs up my laptop every night"), ``{goal}`` ("run a
  private git server"), ``{pain}``, ``{complaint}``, ``{twist}``, ``{hassle}``, ``{slip}`` (a mistake
  a team keeps making), ``{device}`` and ``{junk}`` (values in ``data/slots.json``) and ``{r1}``..``{r9}``: the bare name of that item of the synthesized
  previous results.
- ``ctx``: the thread before the message: ``none`` (default), ``repo_list``, ``repo_detail``,
  ``comparison``, ``clarification``, ``any``, or a list of those (one is drawn per expansion).
- ``n``: how many repositories the previous results list; ``k``: how many expansions to draw
  (default 1 without slots, 5 with); ``asked``: the bot's clarifying question (ctx
  clarification); ``prev``: the previous user message (slots allowed).

Expansion is seeded per line, so the same files always give the same samples. A share of the
samples also gets a noisy twin (lower case, no punctuation, one typo): people type like that.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from core.classifier.names import read_names, shipped_name_index
from core.classifier.vocabulary import Vocabulary
from core.models import (
    Clarification,
    Comparison,
    ComparisonRow,
    Intent,
    Message,
    RepoDetailData,
    RepositoryDetail,
    RepoList,
    ScoredRepository,
)

_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_QUESTIONS = ("", "Could you tell me a bit more?", "Which one do you mean?")
CONTEXT_TYPES = ("none", "repo_list", "repo_detail", "comparison", "clarification")
# Not drawn by "any": a search, then an analysis of one of its results ("analyze the 2nd").
EXTRA_CONTEXTS = ("list_detail",)
NOISE_SHARE = 0.3
WRAP_SHARE = 0.15
# Requests often come wrapped in small talk: "hey, ...", "thanks! now ...", "... please".
_PREFIXES = ("hi, ", "hey ", "hello! ", "ok, ", "ok so ", "thanks! ", "cool, ", "great, now ", "hmm, ",
             "btw ", "also, ", "quick question: ", "one more: ", "next: ", "alright, ", "good morning! ")
_SUFFIXES = (" please", " pls", ", thanks", " thx", " :)", "?", " asap", " if you can", " 🙏", "!")
_WRAPPED = {Intent.SEARCH, Intent.ANALYZE, Intent.COMPARE}
_SLOT = re.compile(r"\{([a-z]+[0-9]?)\}")
_PREVIOUS_QUERIES = (
    "find state management libraries", "best python web frameworks", "show me rust http clients",
    "search for vector databases", "popular go cli tools", "top typescript orms", "self-hosted analytics",
    "llm agent frameworks", "static site generators in go", "testing frameworks for node",
    "find {framework} {topic}", "{framework} {topic}", "best {topic} for {framework}", "find {topic}",
    "{lang} {topic}", "alternatives to {library}", "show me {framework} libraries for {task}",
)


@dataclass(frozen=True)
class Sample:
    text: str
    intent: Intent
    history: tuple[Message, ...]
    group: str  # file:line -- samples from one line never straddle a train/test split


def data_root() -> Traversable:
    return resources.files("core.classifier").joinpath("data")


@lru_cache(maxsize=1)
def slots() -> dict[str, list[str]]:
    return json.loads(data_root().joinpath("slots.json").read_text(encoding="utf-8"))


def read_jsonl(path: Traversable) -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("//"):
            yield lineno, json.loads(line)


def training_files() -> list[Traversable]:
    folder = data_root().joinpath("train")
    return sorted((p for p in folder.iterdir() if p.name.endswith(".jsonl")), key=lambda p: p.name)


@lru_cache(maxsize=1)
def _context_pool() -> tuple[str, ...]:
    index = shipped_name_index()
    pool = []
    for value in slots()["repo"]:
        full = value.split("github.com/")[-1].strip("/") if "/" in value else (index.resolve(value) or [None])[0]
        if full and full not in pool:
            pool.append(full)
    return tuple(pool)


def synth_history(ctx: str, rng: random.Random, n: int | None, asked: str | None, prev: str | None) -> tuple[list[Message], list[str]]:
    """A plausible thread before the message, and the repositories it listed."""
    if ctx == "none":
        return [], []
    pool = _context_pool()
    size = {"repo_detail": 1, "comparison": n or rng.choice((2, 2, 3))}.get(ctx, n or rng.randint(3, 8))
    names = rng.sample(pool, size) if ctx != "clarification" else rng.sample(pool, n or rng.randint(3, 8))
    user = Message(role="user", content=prev or "find state management libraries")
    repos = [ScoredRepository(full_name=name) for name in names]
    if ctx == "list_detail":
        listing = Message(role="assistant", content="Here is what I found.", structured_data=RepoList(items=repos))
        pick = rng.randrange(len(names))
        detail = Message(role="assistant", content="Here is the analysis.",
                         structured_data=RepoDetailData(repo=RepositoryDetail(full_name=names[pick])))
        return [listing, Message(role="user", content=f"analyze the {_ORDINAL_WORDS[pick]} one"), detail], names
    if ctx == "repo_list":
        data: Any = RepoList(items=repos)
    elif ctx == "repo_detail":
        data = RepoDetailData(repo=RepositoryDetail(full_name=names[0]))
    elif ctx == "comparison":
        data = Comparison(items=[ComparisonRow(repo=r) for r in repos])
    else:
        listing = Message(role="assistant", content="Here is what I found.", structured_data=RepoList(items=repos))
        question = asked if asked is not None else rng.choice(_QUESTIONS)
        clarification = Message(role="assistant", content=question,
                                structured_data=Clarification(question=question, options=[]))
        return [listing, Message(role="user", content=prev or "hmm"), clarification], names
    return [user, Message(role="assistant", content="Here you go.", structured_data=data)], names


def _fill(template: str, rng: random.Random, referents: list[str], used: dict[str, list[str]] | None = None) -> str:
    values = slots()
    used = {} if used is None else used

    def pick(match: re.Match[str]) -> str:
        slot = match.group(1)
        if slot.startswith("r") and slot[1:].isdigit():
            i = int(slot[1:]) - 1
            name = referents[i].split("/", 1)[1] if i < len(referents) else "it"
            return name.lower() if rng.random() < 0.5 else name
        base = slot.rstrip("0123456789")
        options = values[base]
        taken = used.setdefault(base, [])
        choice = rng.choice(options)
        for _ in range(10):
            if choice.lower() not in taken:
                break
            choice = rng.choice(options)
        taken.append(choice.lower())
        return choice

    return _SLOT.sub(pick, template)


def noisy(text: str, rng: random.Random) -> str:
    """Lower-case, drop some punctuation and apostrophes, and make one typo in a longer word."""
    out = text.lower()
    if rng.random() < 0.6:
        out = re.sub(r"[?!.,']", "", out)
    words = out.split()
    long_words = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if long_words:
        i = rng.choice(long_words)
        w = words[i]
        j = rng.randrange(1, len(w) - 1)
        op = rng.choice(("swap", "drop", "double"))
        if op == "swap":
            w = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
        elif op == "drop":
            w = w[:j] + w[j + 1 :]
        else:
            w = w[:j] + w[j] + w[j:]
        words[i] = w
    return " ".join(words)


def expand_line(record: dict[str, Any], group: str) -> list[Sample]:
    rng = random.Random(zlib.crc32(group.encode()))
    template = str(record["text"])
    intent = Intent(record["intent"])
    ctx_spec = record.get("ctx", "none")
    contexts = list(CONTEXT_TYPES) if ctx_spec == "any" else ([ctx_spec] if isinstance(ctx_spec, str) else list(ctx_spec))
    has_slots = bool(_SLOT.search(template))
    k = int(record.get("k", 5 if has_slots else max(1, len(contexts) if ctx_spec == "any" else 1)))
    samples: list[Sample] = []
    seen: set[tuple[str, str]] = set()
    for i in range(k):
        ctx = contexts[i % len(contexts)] if ctx_spec == "any" else rng.choice(contexts)
        used: dict[str, list[str]] = {}
        prev = _fill(record.get("prev") or rng.choice(_PREVIOUS_QUERIES), rng, [], used)
        history, referents = synth_history(ctx, rng, record.get("n"), record.get("asked"), prev)
        text = _fill(template, rng, referents, used)
        if rng.random() < 0.35 and not has_slots and i:
            text = text.lower()
        key = (text, ctx)
        if key in seen:
            continue
        seen.add(key)
        samples.append(Sample(text, intent, tuple(history), group))
        if intent in _WRAPPED and rng.random() < WRAP_SHARE:
            wrapped = rng.choice(_PREFIXES) + text if rng.random() < 0.6 else text.rstrip("?!. ") + rng.choice(_SUFFIXES)
            if (wrapped, ctx) not in seen:
                seen.add((wrapped, ctx))
                samples.append(Sample(wrapped, intent, tuple(history), group))
        if rng.random() < NOISE_SHARE:
            twin = noisy(text, rng)
            if (twin, ctx) not in seen:
                seen.add((twin, ctx))
                samples.append(Sample(twin, intent, tuple(history), group))
    return samples


@lru_cache(maxsize=1)
def training_samples() -> tuple[Sample, ...]:
    samples: list[Sample] = []
    for path in training_files():
        for lineno, record in read_jsonl(path):
            samples.extend(expand_line(record, f"{path.name}:{lineno}"))
    return tuple(samples)


def training_vocabulary(samples: tuple[Sample, ...] | None = None) -> Vocabulary:
    """Ordinary words: the utterance templates (without their slot values or typo twins), the
    non-repository slot values and ``common_words.txt``; repository slot values are exempt."""
    del samples  # kept for call compatibility: the vocabulary comes from the files themselves
    names = {v.lower() for key in ("repo", "library", "framework") for v in slots()[key]}
    texts = [_SLOT.sub(" ", str(record["text"])) for path in training_files() for _, record in read_jsonl(path)]
    texts += [v for key in _ORDINARY_SLOTS for v in slots()[key]]
    common = data_root().joinpath("common_words.txt").read_text(encoding="utf-8")
    texts += [line for line in common.splitlines() if not line.startswith("#")]
    return Vocabulary.from_texts(texts, names=names | _curated_names(), platforms=slots()["framework"])


_ORDINARY_SLOTS = ("topic", "task", "need", "lang", "product", "thing", "kind", "feature",
                   "does", "goal", "pain", "complaint", "twist", "hassle")
_ENGLISH_LIKE = {"ui", "query", "core", "kit", "router", "table", "click", "rich", "black", "solid", "lit",
                 "nest", "ray", "go", "rust", "node", "echo", "fiber", "rocket", "helm", "bat", "fd",
                 "jinja", "mocha", "prefect", "phoenix", "guava", "kitty", "ghost", "chi", "mux", "got",
                 "server",  # MariaDB/server, nextcloud/server: "an identity server" names neither
                 # plausible/analytics, huggingface/datasets, jupyter/notebook...: "google analytics
                 # without the tracking" or "a notebook app" names none of them
                 "analytics", "datasets", "notebook", "motion", "payload", "outlines", "guidance", "twenty",
                 "primitives", "emotion", "element", "anime", "arrow"}


def _curated_names() -> set[str]:
    full_names, aliases = read_names("extra_repos.txt")
    names = {full.split("/", 1)[1].lower() for full in full_names} | {a.lower() for a in aliases}
    return names - _ENGLISH_LIKE
