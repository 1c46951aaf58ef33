"""The Scout: candidates for a query from several search strategies run in parallel.

Strategies (one source search each): *most-starred* and *recently-active* run the precise query
(concepts ANDed, each with the user's word and its equivalents ORed -- no related terms) sorted
two ways; *core-concepts* ORs the core concepts (``core.search.concepts``: no qualifiers such as
"react") and the query's adjacent phrases, by best match; with a language, *language-named*
searches the core concepts with the language named in the text instead of the filter ("python
linter" finds a linter written in Rust). Results are merged and de-duplicated; archived repos
and forks are dropped. When fewer than ``min_results`` remain, the search is widened one step at
a time, one search per step, and each step is reported in ``notes``: the words of multi-word
terms apart, the related terms, phrases -> keywords, recency, star range, and last the language.
A source whose concurrent searches cost one call (``SourceInfo.batched_search``: GitHub over
GraphQL) gets all the steps' searches in one round, merged step by step under the same rules.
A failing or slow strategy costs only its own results: the report is flagged ``partial`` and
keeps the reason; so is a search the source flags as incomplete (GitHub's
``incomplete_results``), with a note. Details: ``core/search/SCORING.md``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from core.errors import OmgError, SourceError
from core.models import Repository, SearchParams
from core.search.concepts import core_search_params, language_mention_params, query_concepts
from core.search.synonyms import related_terms, with_families
from core.sources.base import RepoSource, SearchResults

INCOMPLETE_NOTE = "GitHub's search ran out of time on its side, so some matches may be missing."


@dataclass(frozen=True, slots=True)
class Strategy:
    name: str
    params: SearchParams
    sort: str  # "stars" | "updated" | "best"


@dataclass(slots=True)
class ScoutReport:
    candidates: list[Repository] = field(default_factory=list)
    params: SearchParams | None = None  # the parameters finally used (after any relaxation)
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # per-strategy failure reasons
    partial: bool = False
    relaxed: list[str] = field(default_factory=list)
    found_by: dict[str, list[str]] = field(default_factory=dict)  # full name -> strategy names
    exact: set[str] = field(default_factory=set)  # lower-cased full names found before relaxing
    searches: int = 0
    succeeded: int = 0
    incomplete: int = 0  # searches the source flagged as incomplete (GitHub timed out on its side)
    last_error: OmgError | None = None


def concepts(params: SearchParams) -> list[list[str]]:
    grouped = {w.lower() for g in params.synonym_groups for w in g}
    out: list[list[str]] = [[p] for p in params.phrases] + [list(g) for g in params.synonym_groups if g]
    out += [[k] for k in params.keywords if k.lower() not in grouped]
    out += [[t] for t in params.topics if t.lower() not in grouped]
    return out


def expanded(params: SearchParams) -> SearchParams:
    """Any concept (or any of its synonyms) may match: one OR'd group."""
    terms = list(dict.fromkeys(t for group in concepts(params) for t in group))
    return params.model_copy(update={"keywords": [], "phrases": [], "topics": [], "synonym_groups": [terms] if terms else []})


def widened(params: SearchParams) -> SearchParams:
    """The core concepts with all their alternatives, related terms included, in one OR'd group
    (qualifiers left out): the broad search a relaxation step runs."""
    core = [c for c in query_concepts(params) if c.role == "core"]
    terms = list(dict.fromkeys(a for c in core for a in c.alternatives))
    update = {"keywords": [], "phrases": [], "topics": [], "synonym_groups": [terms] if terms else []}
    return params.model_copy(update=update)


def _words(term: str) -> list[str]:
    return term.replace("-", " ").split()


def split_words(params: SearchParams) -> SearchParams | None:
    """The core concepts with each multi-word one ("web framework") replaced by its words, all
    required but anywhere ("web" AND "framework": finds "micro framework for web apps");
    qualifiers left out. None when no core concept has several words."""
    core = [c for c in query_concepts(params) if c.role == "core"]
    if not any(len(_words(c.label)) > 1 for c in core):
        return None
    keywords: list[str] = []
    groups: list[list[str]] = []
    for concept in core:
        words = _words(concept.label)
        if len(words) > 1:
            keywords += words
        else:
            groups.append(list(concept.strong))
    update = {"keywords": list(dict.fromkeys(keywords)), "phrases": [], "topics": [], "synonym_groups": groups}
    return params.model_copy(update=update)


RELATED_STEP = "also matched related terms"


def related_only(params: SearchParams) -> SearchParams:
    """The related terms of the core concepts alone, ORed: what the precise and core searches
    left out (searching them with the rest could push them past GitHub's five ORs)."""
    core = [c for c in query_concepts(params) if c.role == "core"]
    terms = list(dict.fromkeys(a for c in core for a in c.alternatives if a.lower() in c.related))
    if not terms:  # only a qualifier had related terms
        return widened(params)
    return params.model_copy(update={"keywords": [], "phrases": [], "topics": [], "synonym_groups": [terms]})


def without_related(params: SearchParams) -> SearchParams:
    """The synonym groups without their related (broader) terms: the user's words and their
    equivalents only (``core.search.synonyms``)."""
    groups = []
    for group in params.synonym_groups:
        related = related_terms(tuple(w.lower() for w in group))
        groups.append([w for i, w in enumerate(group) if i == 0 or w.lower() not in related])
    if groups == params.synonym_groups:
        return params
    return params.model_copy(update={"synonym_groups": groups})


def strategies(params: SearchParams) -> list[Strategy]:
    """Precise (every concept, no related terms) by stars and by last push, and the core
    concepts alone by best match -- so qualifier matches ("react", "python") cannot crowd out
    the repositories that are what was asked for."""
    precise = without_related(params)
    plan = [Strategy("most-starred", precise, "stars"), Strategy("recently-active", precise, "updated")]
    core = core_search_params(precise)
    if core is not None:
        plan.append(Strategy("core-concepts", core, "best"))
    named = language_mention_params(precise)
    if named is not None:
        plan.append(Strategy("language-named", named, "best"))
    return plan


# (label for the note, change to apply) -- tried in order while results stay thin
def relaxation_steps(params: SearchParams) -> list[tuple[str, Callable[[SearchParams], SearchParams]]]:
    steps: list[tuple[str, Callable[[SearchParams], SearchParams]]] = []
    if without_related(params) != params:
        steps.append((RELATED_STEP, lambda p: p))
    if params.phrases or params.topics:
        steps.append(("matched the words loosely instead of as exact phrases/topics",
                      lambda p: p.model_copy(update={"keywords": p.keywords + p.phrases + p.topics, "phrases": [], "topics": []})))
    if params.pushed_after or params.created_after:
        steps.append(("dropped the date filter", lambda p: p.model_copy(update={"pushed_after": None, "created_after": None})))
    if params.min_stars is not None or params.max_stars is not None:
        steps.append(("removed the star limits", lambda p: p.model_copy(update={"min_stars": None, "max_stars": None})))
    if params.language:
        steps.append((language_step(params), lambda p: p.model_copy(update={"language": None, "also_languages": []})))
    return steps


# a widening step: (label for the note, change to the parameters, the search it runs)
Rung = tuple[str, Callable[[SearchParams], SearchParams], Callable[[SearchParams], SearchParams]]
MIN_SAME_LANGUAGE = 3  # candidates in the named language from which the language is not relaxed


def language_step(params: SearchParams) -> str:
    return f"included languages other than {params.languages_said}"


def _in_language(repos: Iterable[Repository], params: SearchParams) -> int:
    wanted = {language.lower() for language in with_families(params.languages)}
    return sum(1 for r in repos if (r.language or "").lower() in wanted)


class Scout:
    def __init__(self, source: RepoSource, *, per_strategy: int = 30, min_results: int = 5) -> None:
        self.source = source
        self.per_strategy = per_strategy
        self.min_results = min_results

    async def gather(
        self, params: SearchParams, *, deadline: float, exclude: Collection[str] = (),
        max_searches: int | None = None,
    ) -> ScoutReport:
        """Candidates for ``params``; ``deadline`` is a ``time.monotonic()`` instant; full names in
        ``exclude`` are skipped (already shown, or the repo whose alternatives we want), and so are
        the names the user ruled out (``params.exclude``). ``max_searches`` caps the searches of
        the turn (anonymous GitHub allows 10 a minute): strategies first, then widening steps."""
        report = ScoutReport()
        skip = {name.lower() for name in [*exclude, *params.exclude]}
        seen: dict[str, Repository] = {}
        cap = max_searches if max_searches is not None else 1_000
        await self._run(strategies(params)[:max(1, cap)], seen, report, deadline, skip)
        report.exact = set(seen)
        exact = len(seen)
        current = params
        ladder: list[Rung] = [(label, change, related_only if label == RELATED_STEP else widened)
                  for label, change in relaxation_steps(params)]
        loose = split_words(without_related(params))
        if loose is not None:
            multi = [c.label for c in query_concepts(params) if c.role == "core" and len(_words(c.label)) > 1]
            label = f"matched the words of {', '.join(repr(m) for m in multi[:2])} separately"
            ladder.insert(0, (label, lambda p: p, lambda _: loose))
        if self.source.info.batched_search:
            await self._widen_in_one_round(ladder, params, seen, report, deadline, skip, cap)
        else:
            for label, change, search in ladder:
                if self._enough(params, seen, report, deadline, cap, label):
                    break
                current = report.params = change(current)
                report.relaxed.append(label)
                await self._run([Strategy("relaxed", search(current), "best")], seen, report, deadline, skip)
        current = report.params or params
        report.params = current
        if report.relaxed:
            report.notes.append(_relax_note(params, current, report.relaxed, exact, len(seen)))
        report.candidates = list(seen.values())
        if not report.candidates and report.succeeded == 0 and report.last_error is not None:
            raise report.last_error  # nothing to show: the coordinator turns it into a friendly reply
        return report

    def _enough(self, params: SearchParams, seen: dict[str, Repository], report: ScoutReport,
                deadline: float, cap: int, label: str) -> bool:
        """Whether widening stops before the step ``label``."""
        return time.monotonic() >= deadline or report.searches >= cap or self._found_enough(params, seen, label)

    def _found_enough(self, params: SearchParams, seen: dict[str, Repository], label: str) -> bool:
        if len(seen) >= self.min_results:
            return True
        # enough in the language the user named: fewer results rather than other languages
        return label == language_step(params) and _in_language(seen.values(), params) >= MIN_SAME_LANGUAGE

    async def _widen_in_one_round(
        self, ladder: list[Rung], params: SearchParams, seen: dict[str, Repository], report: ScoutReport, deadline: float,
        skip: set[str], cap: int,
    ) -> None:
        """The widening steps' searches sent together (one call for a source that batches
        searches), then merged step by step with the stopping rules of the one-at-a-time ladder,
        so the candidates are the same; the results of steps not needed are left unused."""
        if not ladder or self._enough(params, seen, report, deadline, cap, ladder[0][0]):
            return
        plan: list[tuple[str, SearchParams, Strategy]] = []
        current = params
        for label, change, search in ladder[:max(0, cap - report.searches)]:
            current = change(current)
            plan.append((label, current, Strategy("relaxed", search(current), "best")))
        tasks = self._start([strategy for _, _, strategy in plan], report)
        await self._settle(tasks, report, deadline)
        for i, ((label, stepped, _), task) in enumerate(zip(plan, tasks, strict=True)):
            if i > 0 and self._found_enough(params, seen, label):
                break
            report.relaxed.append(label)
            report.params = stepped
            self._merge(task, tasks[task], seen, report, skip)

    async def _run(
        self, plan: list[Strategy], seen: dict[str, Repository], report: ScoutReport, deadline: float, skip: set[str]
    ) -> None:
        tasks = self._start(plan, report)
        await self._settle(tasks, report, deadline)
        for task, strategy in tasks.items():  # in plan order, so the merge is deterministic
            self._merge(task, strategy, seen, report, skip)

    def _start(self, plan: list[Strategy], report: ScoutReport) -> dict[asyncio.Task[SearchResults], Strategy]:
        tasks = {asyncio.create_task(self.source.search(s.params, sort=s.sort, limit=self.per_strategy)): s for s in plan}
        report.searches += len(tasks)
        return tasks

    @staticmethod
    async def _settle(tasks: dict[asyncio.Task[SearchResults], Strategy], report: ScoutReport,
                      deadline: float) -> None:
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
        for task in pending:
            task.cancel()
            report.partial = True
            report.errors.append(f"{tasks[task].name}: timed out")
        if pending:
            report.notes.append("Some searches took too long, so these results may be incomplete.")

    @staticmethod
    def _merge(task: asyncio.Task[SearchResults], strategy: Strategy, seen: dict[str, Repository],
               report: ScoutReport, skip: set[str]) -> None:
        if not task.done():
            return
        exc = SourceError("cancelled") if task.cancelled() else task.exception()
        if exc is not None:
            report.partial = True
            report.errors.append(f"{strategy.name}: {_reason(exc)}")
            report.last_error = exc if isinstance(exc, OmgError) else SourceError()
            return
        report.succeeded += 1
        found = task.result()
        if found.incomplete:
            report.incomplete += 1
            report.partial = True
            _note_once(report, INCOMPLETE_NOTE)
        for repo in found:
            key = repo.full_name.lower()
            if repo.archived or repo.fork or ruled_out(repo, skip):
                continue
            seen.setdefault(key, repo)
            report.found_by.setdefault(key, []).append(strategy.name)


def _note_once(report: ScoutReport, note: str) -> None:
    if note not in report.notes:
        report.notes.append(note)


def ruled_out(repo: Repository, skip: set[str]) -> bool:
    """Excluded by full name, or by a bare name the user ruled out ("spring" -> spring-boot)."""
    if not skip:
        return False
    name = repo.name.lower()
    return repo.full_name.lower() in skip or any(name == w or name.startswith(w + "-") for w in skip)


def _reason(exc: BaseException) -> str:
    return exc.user_message if isinstance(exc, OmgError) else f"{type(exc).__name__}"


def _relax_note(original: SearchParams, final: SearchParams, steps: list[str], exact: int, total: int) -> str:
    how = f"{final.describe()} ({'; '.join(steps)})"
    if total == 0:
        return f"No matches for {original.describe()}, even after widening the search to {how}."
    head = "No exact matches" if exact == 0 else "Only a few exact matches"
    return f"{head} for {original.describe()}; I widened the search to {how}."


__all__ = [
    "Scout", "ScoutReport", "Strategy", "expanded", "related_only", "relaxation_steps", "split_words", "strategies",
    "widened", "without_related",
]
