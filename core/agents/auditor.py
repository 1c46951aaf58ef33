"""The Auditor (``analyze``): one repository -> a ``repo_detail`` with metrics, findings, verdict.

    auditor = Auditor(source)                       # offline: extractive README, no LLM
    auditor = Auditor(source, compressor=llm_summarizer, narrator=llm_narrator,
                      text_scorer=llm_judge)         # the LLM seams; failures fall back

Repository, signals and README are fetched concurrently; a missing signal or README makes the
analysis partial (and says so) instead of failing it. An unknown repository raises
``RepoNotFound`` ("I couldn't find owner/name on GitHub").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from core.agents.base import AgentContext, AgentResult
from core.analysis import (
    Narrator,
    ReadmeCompressor,
    build_findings,
    build_metrics,
    candidates,
    compress_readme,
    fetch_bundle,
    narrate,
    recommend,
    reference_time,
    requested_repos,
)
from core.analysis.fetch import listed_only_answer, missing_repo_answer
from core.analysis.scores import score
from core.errors import RepoNotFound
from core.models import (
    Clarification,
    LogEvent,
    RepoDetailData,
    RepositoryDetail,
    ResultMeta,
    utcnow,
)
from core.search.scoring import TextScorer
from core.sources.base import RepoSource

log = logging.getLogger("omg.agents.auditor")

NO_TARGET = (
    "Which repository should I analyze? Give me its owner/name (for example "
    "*analyze pmndrs/zustand*) or a GitHub link, or search first and say *analyze the first one*."
)


class Auditor:
    name = "auditor"

    def __init__(
        self,
        source: RepoSource,
        *,
        compressor: ReadmeCompressor | None = None,
        narrator: Narrator | None = None,
        text_scorer: TextScorer | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.source = source
        self.compressor = compressor
        self.narrator = narrator
        self.text_scorer = text_scorer
        self.clock = clock

    async def run(self, ctx: AgentContext) -> AgentResult:
        targets = requested_repos(ctx.classification, ctx.message)
        if not targets:
            return self._no_target(ctx)
        full_name = targets[0]
        notes: list[str] = []
        if len(targets) > 1:
            notes.append(f"You mentioned {len(targets)} repositories; I analyzed {full_name}. "
                         f"Say *compare {' vs '.join(targets[:5])}* to see them side by side.")
        await ctx.progress(LogEvent(content=f"Analyzing {full_name}..."))
        try:
            data = await self.analyze(full_name, notes=notes)
        except RepoNotFound as exc:
            log.info("repository not in the data", extra={"repo": full_name, "source": self.source.info.kind})
            return AgentResult(text=missing_repo_answer(exc, self.source.info))
        if not data.repo.figures_known:  # only a curated list's line: nothing to measure or vouch for
            return AgentResult(text=listed_only_answer(data.repo, self.source.info))
        return AgentResult(data=data, partial=bool(data.meta and data.meta.partial))

    async def analyze(self, full_name: str, *, notes: list[str] | None = None) -> RepoDetailData:
        """The full analysis of one repository (also usable outside a chat turn)."""
        bundle = await fetch_bundle(self.source, full_name)
        info = self.source.info  # after the calls: a fallback to the catalog shows here
        repo, signals = bundle.repo, bundle.signals
        now = reference_time(info, self.clock())
        readme_summary = (
            await compress_readme(bundle.readme, self.compressor) if bundle.readme else None
        )
        scores = await score(repo, signals, bundle.readme, now=now, text_scorer=self.text_scorer)
        verdict = recommend(repo, signals, now=now, source_kind=info.kind)
        detail = RepositoryDetail(
            **repo.model_dump(),
            scores=scores,
            signals=signals,
            metrics=build_metrics(repo, signals, now=now, source_kind=info.kind),
            findings=build_findings(repo, signals, scores, now=now),
            recommendation=verdict.recommendation,
            recommendation_reasons=verdict.reasons,
            readme_summary=readme_summary,
        )
        analysis = await narrate(detail, self.narrator, source=info, now=now)
        meta = ResultMeta(
            source=info.kind,
            snapshot_date=info.snapshot_date if info.kind == "catalog" else None,
            partial=bundle.partial,
            notes=[*(notes or []), *bundle.notes],
        )
        return RepoDetailData(repo=detail, analysis=analysis, meta=meta)

    def _no_target(self, ctx: AgentContext) -> AgentResult:
        options = [f"Analyze {name}" for name in candidates(ctx.previous)[:5]]
        if options:
            return AgentResult(
                data=Clarification(question="Which repository should I analyze?", options=options),
                text="I'm not sure which repository you mean.",
            )
        return AgentResult(error=NO_TARGET, error_code="no_target")
