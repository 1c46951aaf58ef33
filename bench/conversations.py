"""Scripted conversations judged the way a demanding user would: ``python -m bench conversations``.

Each conversation is search -> follow-up -> analyze / compare / a pick question, run offline through
the real app (the test backend, the bundled snapshot, no LLM). Every reply is checked for:

- **answers first**: the first paragraph after the optional "Following up on ..." line says what
  was asked (a step's ``lead`` pattern);
- **right repositories**: an ordinal or range ("the first two for a small team") selects exactly
  those rows of the previous answer; a named repository is the one analyzed;
- **nothing unmeasured claimed**: offline there are no commit, contributor, release or issue-response
  data, so no such number and no "how quickly issues and pull requests get handled" may appear,
  and a dimension without data is ``null`` in the structured data, never 0.0;
- **no garbled phrases** ("the a ... repositories", "Only 0 of", "You named 10" unprompted,
  "a HTML", "1 results");
- **no dead ends**: no "Sorry, I ran into a problem" and no retry button for an answer that can't
  change.

``tests/conversations`` runs the same scripts under ``make test`` and fails on any failed check; this
report prints the figures (conversations, turns, checks, failures by kind). The scripts were
written together with the fixes they check, so the figures are a development set, not a blind one.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.app import BotApp, build_app
from bot.testing import TestBackend
from core.models import Clarification, Comparison, RepoDetailData, RepoList, Reply, StructuredData, structured_repo_names


@dataclass(frozen=True)
class Step:
    say: str
    kind: type | None = None  # the structured data expected (None: a text answer)
    lead: str | None = None  # a regex the first paragraph must match
    picks: tuple[int, ...] | None = None  # rows (0-based) of the previous list the answer must be about
    repos: tuple[str, ...] | None = None  # or: exactly these repositories


@dataclass(frozen=True)
class Conversation:
    name: str
    steps: tuple[Step, ...]


def conv(name: str, *steps: Step) -> Conversation:
    return Conversation(name, steps)


SEARCH_LEAD = r"I found \*\*\d+ repositor"
COMPARE_LEAD = r"I compared \*\*\d+ repositories"
MISSING = r"isn't in the offline snapshot of \d{4}-\d\d-\d\d.*With GitHub access"
OFFLINE_MAINTENANCE = r"^I can't tell that reliably offline.*(?:looks the most actively kept up|look alike)"

CONVERSATIONS: tuple[Conversation, ...] = (
    conv("readme example: react state, second one, first two for a small team",
         Step("find React state management libraries", RepoList, SEARCH_LEAD),
         Step("analyze the second one", RepoDetailData, picks=(1,)),
         Step("find React state management libraries", RepoList, SEARCH_LEAD),
         Step("compare the first two for a small team", Comparison, COMPARE_LEAD + r".*small team", picks=(0, 1))),
    conv("first two without a need",
         Step("popular rust web frameworks", RepoList, SEARCH_LEAD),
         Step("compare the first two", Comparison, COMPARE_LEAD, picks=(0, 1))),
    conv("top 3 for a startup",
         Step("find python web frameworks", RepoList, SEARCH_LEAD),
         Step("compare the top 3 for a startup", Comparison, COMPARE_LEAD + r".*startup", picks=(0, 1, 2))),
    conv("first three for production",
         Step("find javascript testing frameworks", RepoList, SEARCH_LEAD),
         Step("compare the first three for production", Comparison, r"production", picks=(0, 1, 2))),
    conv("last two for beginners",
         Step("find react state management libraries", RepoList, SEARCH_LEAD),
         Step("compare the last two for beginners", Comparison, r"beginners", picks=(-2, -1))),
    conv("which of those is best maintained (after a search)",
         Step("find a static site generator", RepoList, SEARCH_LEAD),
         Step("which of those is best maintained?", Comparison, OFFLINE_MAINTENANCE)),
    conv("which of those (after a search that found one)",
         Step("find a static site generator written in Go", RepoList, SEARCH_LEAD, repos=("gohugoio/hugo",)),
         Step("which of those is best maintained?", Clarification)),
    conv("which is best maintained (after a comparison)",
         Step("compare zustand vs redux", Comparison, COMPARE_LEAD),
         Step("which of those is best maintained?", Comparison, OFFLINE_MAINTENANCE)),
    conv("which is the most popular",
         Step("find python web frameworks", RepoList, SEARCH_LEAD),
         Step("which one is the most popular?", Comparison, r"^\*\*[\w.-]+/[\w.-]+\*\* is the most popular: [\d.]+k? stars")),
    conv("which is growing fastest",
         Step("find vector databases", RepoList, SEARCH_LEAD),
         Step("which of those is the fastest growing?", Comparison, r"is the fastest growing|are level")),
    conv("which is best documented (not measurable offline)",
         Step("compare fastapi vs flask", Comparison, COMPARE_LEAD),
         Step("which one is best documented?", Comparison, r"^I can't tell which is the best documented here")),
    conv("which is most active",
         Step("find go http routers", RepoList, SEARCH_LEAD),
         Step("which of them is the most active?", Comparison, r"is the most active|are level")),
    conv("pandas is not in the snapshot",
         Step("is pandas still maintained?", None, r"^pandas-dev/pandas .*" + MISSING)),
    conv("analyze a repository missing from the snapshot",
         Step("analyze pandas-dev/pandas", None, r"^pandas-dev/pandas .*" + MISSING)),
    conv("compare two repositories missing from the snapshot",
         Step("compare weaviate/weaviate vs numpy-fake/numpy-fake", None, r"^I couldn't find .* in the offline snapshot")),
    conv("search, then a missing repository, then carry on",
         Step("find python web frameworks", RepoList, SEARCH_LEAD),
         Step("analyze pandas-dev/pandas", None, r"^pandas-dev/pandas .*" + MISSING),
         Step("analyze the first one", RepoDetailData)),
    conv("static site generator in Go: wording of the follow-up",
         Step("find a static site generator written in Go", RepoList, SEARCH_LEAD),
         Step("analyze the first one", RepoDetailData, picks=(0,))),
    conv("show me a vector database: wording of the follow-up",
         Step("show me a vector database", RepoList, SEARCH_LEAD),
         Step("compare the first two", Comparison, COMPARE_LEAD, picks=(0, 1))),
    conv("compare all of them (more than five)",
         Step("find python web frameworks", RepoList, SEARCH_LEAD),
         Step("compare all of them", Comparison, COMPARE_LEAD)),
    conv("analyze by name",
         Step("analyze pmndrs/zustand", RepoDetailData, r"^\[pmndrs/zustand\]|^## pmndrs/zustand", repos=("pmndrs/zustand",))),
    conv("is fastapi well maintained",
         Step("is fastapi well maintained?", RepoDetailData, repos=("fastapi/fastapi",))),
    conv("compare named for a small team",
         Step("compare zustand vs redux for a small team", Comparison, COMPARE_LEAD + r".*small team",
              repos=("pmndrs/zustand", "reduxjs/redux"))),
    conv("compare named, then analyze the second",
         Step("compare fastapi vs flask", Comparison, COMPARE_LEAD),
         Step("analyze the second one", RepoDetailData, picks=(1,))),
    conv("language refinement then compare",
         Step("find web frameworks", RepoList, SEARCH_LEAD),
         Step("what about Python?", RepoList, SEARCH_LEAD),
         Step("compare the first two", Comparison, COMPARE_LEAD, picks=(0, 1))),
    conv("only popular ones then analyze",
         Step("find rust cli tools", RepoList, SEARCH_LEAD),
         Step("only popular ones", RepoList, SEARCH_LEAD),
         Step("analyze the third one", RepoDetailData, picks=(2,))),
    conv("show me more then compare",
         Step("find javascript bundlers", RepoList, SEARCH_LEAD),
         Step("compare the first two for long-term use", Comparison, r"long-term", picks=(0, 1))),
    conv("alternatives then analyze",
         Step("alternatives to reduxjs/redux", RepoList, SEARCH_LEAD),
         Step("analyze the first one", RepoDetailData, picks=(0,))),
    conv("machine learning libraries: first two for contributing",
         Step("popular machine learning libraries in python", RepoList, SEARCH_LEAD),
         Step("compare the first two for contributing", Comparison, r"contributing", picks=(0, 1))),
    conv("html projects: articles",
         Step("find html templates", RepoList, SEARCH_LEAD),
         Step("analyze the first one", RepoDetailData, picks=(0,))),
    conv("the sixth one after fewer results asks back",
         Step("find react state management libraries", RepoList, SEARCH_LEAD),
         Step("analyze the 11th one", Clarification)),
    conv("tell me more with nothing to refer to",
         Step("tell me more", Clarification)),
    conv("thanks and capabilities",
         Step("find go http routers", RepoList, SEARCH_LEAD),
         Step("thanks", None, r"welcome"),
         Step("what can you do?", None, r"(?i)discover|search|find")),
    conv("a bare selection with a need",
         Step("find React state management libraries", RepoList, SEARCH_LEAD),
         Step("the top 3 for a startup", Comparison, COMPARE_LEAD + r".*startup", picks=(0, 1, 2))),
    conv("a bare ordinal with a need",
         Step("find python web frameworks", RepoList, SEARCH_LEAD),
         Step("the second one for production", RepoDetailData, picks=(1,))),
    conv("which of those is best for a small team",
         Step("find React state management libraries", RepoList, SEARCH_LEAD),
         Step("which of those is best for a small team?", Comparison,
              r"^(?:My pick for a small team is \*\*|Too close to call for a small team: )")),
    conv("compare two, then which is better for a small team",
         Step("compare pmndrs/zustand vs reduxjs/redux", Comparison, COMPARE_LEAD),
         Step("compare them for a small team", Comparison, r"small team", repos=("pmndrs/zustand", "reduxjs/redux"))),
)

# -- the checks -------------------------------------------------------------------------------------

GARBLED = (
    (r"\bthe (?:a|an|me|us|some) [\w ]+ (?:repositories|results) we found", "article inside a quoted request"),
    (r"\bOnly 0 of\b", "'Only 0 of'"),
    (r"\b(?:a) (?:HTML|API|SQL|HTTP|R|Elixir|Erlang|Objective-C|OCaml|Assembly)\b", "wrong article"),
    (r"\b1 (?:results|repositories|stars|commits|contributors|releases|forks)\b", "plural after 1"),
    (r"\b(?:an) (?:Go|Rust|Python|JavaScript|TypeScript|Java|C|C\+\+|PHP|Ruby|Kotlin|Swift|Dart)\b", "wrong article"),
    (r"(?<!\.)\.\.(?!\.)|\s,|(?<!\w)\(\s*\)|\bthe the\b", "typo-like punctuation"),  # "require()" is code
)
UNMEASURED_OFFLINE = (
    (r"\(how quickly issues and pull requests get handled\)", "maintenance explained as issue handling"),
    (r"\b\d[\d,]* commits\b", "a commit count"),
    (r"\b\d[\d,]* contributors\b", "a contributor count"),
    (r"\bfirst (?:reply|response)[^.]*within\b", "an issue response time"),
    (r"\b\d[\d,]* (?:issues closed|pull requests merged)\b", "issue or PR throughput"),
    (r"too close to call[^.]*\(10\.0 vs 10\.0", "a tie of unmeasured tens"),
)
DEAD_ENDS = ((r"Sorry, I ran into a problem", "an error reply"),)


@dataclass
class Verdict:
    conversation: str
    turn: int
    said: str
    failures: list[str] = field(default_factory=list)


def first_paragraph(markdown: str) -> str:
    for block in markdown.split("\n\n"):
        text = block.strip()
        if text and not (text.startswith("_") and text.endswith("_")):
            return text
    return ""


def _scored_repos(data: StructuredData | None):  # noqa: ANN202 - ScoredRepository-like rows
    if isinstance(data, RepoList):
        return list(data.items)
    if isinstance(data, RepoDetailData):
        return [data.repo]
    if isinstance(data, Comparison):
        return [row.repo for row in data.items]
    return []


def check_reply(step: Step, reply: Reply, previous: StructuredData | None, user_named: bool) -> list[str]:
    text = reply.markdown
    data = reply.structured_data
    problems: list[str] = []
    if step.kind is None and data is not None and not isinstance(data, Clarification):
        problems.append(f"expected a text answer, got {type(data).__name__}")
    if step.kind is not None and not isinstance(data, step.kind):
        problems.append(f"expected {step.kind.__name__}, got {type(data).__name__}")
    if step.lead and not re.search(step.lead, first_paragraph(text), re.S):
        problems.append(f"first paragraph doesn't answer: {first_paragraph(text)[:140]!r}")
    names = structured_repo_names(data)
    if step.picks is not None:
        earlier = structured_repo_names(previous)
        try:
            wanted = [earlier[i] for i in step.picks]
        except IndexError:
            wanted = ["<out of range>"]
        if names != wanted:
            problems.append(f"wrong repositories: {names} instead of {wanted}")
    if step.repos is not None and [n.lower() for n in names] != [n.lower() for n in step.repos]:
        problems.append(f"wrong repositories: {names} instead of {list(step.repos)}")
    for pattern, what in GARBLED:
        if re.search(pattern, text):
            problems.append(f"garbled: {what}")
    if re.search(r"\bYou named \d+", text) and not user_named:
        problems.append("garbled: 'You named N' when the user named none")
    meta = data.meta if data is not None else None
    offline = "offline snapshot" in text or (meta is not None and meta.source == "catalog")
    if offline:
        for pattern, what in UNMEASURED_OFFLINE:
            if re.search(pattern, text):
                problems.append(f"unmeasured claim: {what}")
    for repo in _scored_repos(data):
        for dim in repo.scores.unmeasured:
            if getattr(repo.scores, dim) is not None:
                problems.append(f"unmeasured claim: {repo.full_name} {dim} = {getattr(repo.scores, dim)}")
    for pattern, what in DEAD_ENDS:
        if re.search(pattern, text):
            problems.append(f"dead end: {what}")
    if any(a.value.strip().lower() == step.say.strip().lower() for a in reply.actions):
        problems.append("dead end: a retry button for the same message")
    return problems


async def run_conversation(app: BotApp, conversation: Conversation, thread: str) -> list[Verdict]:
    bot = TestBackend(app, thread=thread)
    verdicts: list[Verdict] = []
    previous: StructuredData | None = None
    for turn, step in enumerate(conversation.steps, 1):
        reply = await bot.ask(step.say)
        user_named = "/" in step.say or " vs " in step.say
        verdicts.append(Verdict(conversation.name, turn, step.say,
                                check_reply(step, reply, previous, user_named)))
        if reply.structured_data is not None and not isinstance(reply.structured_data, Clarification):
            previous = reply.structured_data
    return verdicts


async def run_all(conversations: Sequence[Conversation] = CONVERSATIONS) -> list[Verdict]:
    app = await build_app(env={"OMG_GITHUB": "offline", "LLM_PROVIDER": "none"}, memory=True)
    try:
        verdicts: list[Verdict] = []
        for n, conversation in enumerate(conversations):
            verdicts += await run_conversation(app, conversation, thread=f"conv-{n}")
        return verdicts
    finally:
        await app.aclose()


def main() -> None:
    started = time.perf_counter()
    verdicts = asyncio.run(run_all())
    failed = [v for v in verdicts if v.failures]
    kinds = Counter(f.split(":")[0] for v in failed for f in v.failures)
    conversations = {v.conversation for v in verdicts}
    bad_conversations = {v.conversation for v in failed}
    print(f"conversations: {len(conversations)} ({len(conversations) - len(bad_conversations)} without a "
          f"failed check) · turns: {len(verdicts)} · development set (written with the fixes)")
    for kind in ("first paragraph doesn't answer", "wrong repositories", "unmeasured claim", "garbled",
                 "dead end", "expected"):
        count = sum(n for k, n in kinds.items() if k.startswith(kind))
        print(f"  {kind:<32} {count:>3}  (target 0)")
    for v in failed:
        print(f"  FAIL {v.conversation} · turn {v.turn} {v.said!r}: {'; '.join(v.failures)}")
    print(f"(ran in {time.perf_counter() - started:.1f} s, offline, no LLM)")


if __name__ == "__main__":
    main()
