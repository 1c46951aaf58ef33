"""The Comparator (``compare``): two to five repositories -> a scored ``comparison``.

Targets come resolved from the classifier ("the first two", "all of them", names). More than
five: the first five are compared and the reply says so. One: the user is asked which repo to
compare it with, with candidates. Repos are fetched and scored concurrently; a repo that fails
to load is left out with a note, as long as two remain. A stated need ("for a small team")
re-weights the dimensions behind the final pick (see ``core.analysis.need``).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from datetime import datetime

from core.agents.base import AgentContext, AgentResult
from core.analysis import (
    DEFAULT_WEIGHTS,
    RepoBundle,
    candidates,
    extract_need,
    fetch_bundle,
    fit_score,
    highlights,
    pick,
    reference_time,
    requested_repos,
    warnings,
)
from core.analysis.fetch import missing_repo_answer, offline_not_found
from core.analysis.question import asked_quality, is_pick_question, pick_answer, pick_lead
from core.analysis.scores import score
from core.errors import OmgError, RepoNotFound, log_failure
from core.models import (
    Clarification,
    Comparison,
    ComparisonRow,
    LogEvent,
    Repository,
    ResultMeta,
    ScoredRepository,
    SearchParams,
    utcnow,
)
from core.search.scoring import TextScorer
from core.synth.phrases import join_words, plural
from core.sources.base import RepoSource

log = logging.getLogger("omg.agents.comparator")

MAX_REPOS = 5
MAX_CANDIDATES = 4
SIMILAR_POOL = 20  # searched, then re-ranked by shared words
NO_TARGET = (
    "Which repositories should I compare? Name two to five, for example "
    "*compare pmndrs/zustand vs reduxjs/redux*, or search first and say *compare the first two*."
)
_STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it of on or that the this to with your you "
    "based built fast simple easy modern library framework tool tools written using open source "
    "project official".split()
)


class Comparator:
    name = "comparator"

    def __init__(
        self,
        source: RepoSource,
        *,
        text_scorer: TextScorer | None = None,
        clock: Callable[[], datetime] = utcnow,
        max_repos: int = MAX_REPOS,
        fetch_readmes: bool = True,
    ) -> None:
        self.source = source
        self.text_scorer = text_scorer
        self.clock = clock
        self.max_repos = max_repos
        self.fetch_readmes = fetch_readmes  # READMEs feed the documentation / ease-of-use scores

    async def run(self, ctx: AgentContext) -> AgentResult:
        targets = requested_repos(ctx.classification, ctx.message)
        if not targets:
            return self._no_target(ctx)
        if len(targets) == 1:
            return await self._only_one(ctx, targets[0])
        notes: list[str] = []
        if len(targets) > self.max_repos:
            notes.append(f"That makes {plural(len(targets), 'repository', 'repositories')}; I compare "
                         f"at most {self.max_repos} at a time, so I compared the first "
                         f"{self.max_repos} and left out {join_words(targets[self.max_repos:])}.")
            targets = targets[: self.max_repos]
        await ctx.progress(LogEvent(content=f"Comparing {join_words(targets)}..."))
        results = await asyncio.gather(
            *(fetch_bundle(self.source, t, readme=self.fetch_readmes) for t in targets),
            return_exceptions=True,
        )
        bundles: list[RepoBundle] = []
        failures: list[tuple[str, Exception]] = []
        for target, result in zip(targets, results):
            if isinstance(result, BaseException) and not isinstance(result, Exception):
                raise result
            if isinstance(result, Exception):
                failures.append((target, result))
            elif all(b.repo.full_name.lower() != result.repo.full_name.lower() for b in bundles):
                bundles.append(result)  # two names can lead to one repo (a rename redirect)
        if len(bundles) < 2:
            return self._too_few(ctx, bundles, failures)
        notes += [_failure_note(name, exc) for name, exc in failures]
        # a repo that doesn't exist leaves a complete comparison of the rest; anything else
        # (rate limit, outage) means data we should have is missing
        cut_short = any(not isinstance(exc, RepoNotFound) for _, exc in failures)
        data = await self._compare(ctx.message, bundles, notes, cut_short)
        return AgentResult(data=data, text=self._direct_answer(ctx.message, data),
                           partial=bool(data.meta and data.meta.partial))

    def _direct_answer(self, message: str, data: Comparison) -> str | None:
        """"which of those is best maintained?" is answered before the table, not left to it."""
        quality = asked_quality(message)
        if quality is None:
            if is_pick_question(message):
                return pick_lead(data.recommended, data.recommendation_reasons, data.need)
            return None
        now = reference_time(self.source.info, self.clock())
        return pick_answer([row.repo for row in data.items], quality, now=now,
                           offline=self.source.info.kind == "catalog")

    async def _compare(
        self, message: str, bundles: list[RepoBundle], notes: list[str], cut_short: bool
    ) -> Comparison:
        info = self.source.info
        now = reference_time(info, self.clock())
        all_scores = await asyncio.gather(*(
            score(b.repo, b.signals, b.readme, now=now, text_scorer=self.text_scorer)
            for b in bundles
        ))
        repos = [
            ScoredRepository(**b.repo.model_dump(), scores=s, signals=b.signals)
            for b, s in zip(bundles, all_scores)
        ]
        need = extract_need(message)
        weights = need.weights if need else DEFAULT_WEIGHTS
        fits = {r.full_name: fit_score(r, weights) for r in repos}
        leads = highlights(repos, now=now)
        choice = pick(repos, fits, need, now=now)
        rows = [
            ComparisonRow(repo=r, highlights=leads[r.full_name], warnings=warnings(r, now=now),
                          fit=fits[r.full_name])
            for r in repos
        ]
        for b in bundles:
            notes += b.notes
            notes += [f"{b.repo.full_name}: {note}" for note in b.signals.notes]
        return Comparison(
            items=rows,
            need=need.text if need else None,
            weights={d: round(w, 4) for d, w in weights.items()},
            recommended=choice.full_name if choice else None,
            recommendation_reasons=choice.reasons if choice else [],
            meta=ResultMeta(
                source=info.kind,
                snapshot_date=info.snapshot_date if info.kind == "catalog" else None,
                partial=cut_short or any(b.partial for b in bundles),
                notes=notes,
            ),
        )

    def _no_target(self, ctx: AgentContext) -> AgentResult:
        names = candidates(ctx.previous)
        if len(names) >= 2:
            options = [f"Compare {names[0]} vs {names[1]}"]
            if len(names) >= 3:
                options.append(f"Compare {names[0]} vs {names[1]} vs {names[2]}")
            options.append("Compare all of them")
            return AgentResult(
                data=Clarification(question="Which repositories should I compare?", options=options),
                text="I'm not sure which repositories you want to compare.",
            )
        return AgentResult(error=NO_TARGET, error_code="no_target")

    async def _only_one(self, ctx: AgentContext, target: str) -> AgentResult:
        others = candidates(ctx.previous, exclude=[target])[:MAX_CANDIDATES]
        if len(others) < 2:
            try:
                similar = await self._similar(target)
            except RepoNotFound as exc:
                return AgentResult(text=missing_repo_answer(exc, self.source.info))
            others += [n for n in similar if n not in others]
        question = (f"To compare I need at least two repositories. Which one should I compare "
                    f"{target} with?")
        options = [f"Compare {target} vs {name}" for name in others[:MAX_CANDIDATES]]
        options.append(f"Analyze {target}")
        return AgentResult(data=Clarification(question=question, options=options),
                           text="A comparison needs two to five repositories.")

    async def _similar(self, target: str) -> list[str]:
        """Repos like ``target`` (same language, overlapping words); raises RepoNotFound."""
        try:
            repo = await self.source.get_repo(target)
        except RepoNotFound as exc:
            if self.source.info.kind == "catalog":
                raise offline_not_found(target, self.source.info) from exc
            raise
        words = [w.lower() for w in repo.topics[:4]] or _keywords(repo.description)
        if not words:
            return []
        params = SearchParams(text=" ".join(words), synonym_groups=[words], language=repo.language,
                              limit=SIMILAR_POOL)
        try:
            found = await self.source.search(params, sort="best", limit=SIMILAR_POOL)
        except OmgError as exc:
            log.info("no compare candidates", extra={"repo": target, "error": repr(exc)})
            return []
        wanted = set(words)

        def overlap(r: Repository) -> int:
            text = " ".join([r.full_name.replace("/", " "), r.description, *r.topics]).lower()
            return len(wanted & set(re.findall(r"[a-z0-9+#-]+", text)))

        ranked = sorted((r for r in found if r.full_name.lower() != target.lower()),
                        key=lambda r: (overlap(r), r.stars), reverse=True)
        return [r.full_name for r in ranked][:MAX_CANDIDATES]

    def _too_few(
        self, ctx: AgentContext, bundles: list[RepoBundle], failures: list[tuple[str, Exception]]
    ) -> AgentResult:
        hard = [exc for _, exc in failures if not isinstance(exc, RepoNotFound)]
        if not bundles:
            if hard:
                raise hard[0]  # rate limit, outage...: the coordinator explains it
            missing = join_words([name for name, _ in failures], "or")
            if self.source.info.kind == "catalog":
                date = self.source.info.snapshot_date
                when = f" of {date.isoformat()}" if date else ""
                return AgentResult(text=(
                    f"I couldn't find {missing} in the offline snapshot{when}, which holds only the "
                    "most-starred GitHub repositories, so I can't compare them here. With GitHub "
                    "access (a network connection, ideally with a GITHUB_TOKEN) I can."))
            return AgentResult(text=f"I couldn't find {missing} on GitHub. Check the owner/name spelling?")
        loaded = bundles[0].repo.full_name
        why = " ".join(_failure_note(name, exc, compared=False) for name, exc in failures)
        others = [n for n in candidates(ctx.previous, exclude=[loaded, *(n for n, _ in failures)])]
        options = [f"Compare {loaded} vs {name}" for name in others[:MAX_CANDIDATES]]
        options.append(f"Analyze {loaded}")
        return AgentResult(
            data=Clarification(
                question=f"{why} I could only load {loaded}, and a comparison needs two. "
                         "What would you like to do?",
                options=options,
            ),
            partial=True,
        )


def _failure_note(name: str, exc: Exception, *, compared: bool = True) -> str:
    rest = ", so I compared the rest." if compared else "."
    if isinstance(exc, RepoNotFound):
        return f"{exc.user_message.split('. Check')[0].rstrip('.')}{rest}"
    if isinstance(exc, OmgError):
        return f"I couldn't load {name} ({exc.user_message.rstrip('.')}){rest}"
    log_failure(log, "compare fetch failed", exc, repo=name)
    return f"I couldn't load {name} because of an error on my side{rest}"


def _keywords(text: str) -> list[str]:
    words = [w for w in re.findall(r"[a-z][a-z0-9+#-]{2,}", text.lower()) if w not in _STOPWORDS]
    return list(dict.fromkeys(words))[:6]
