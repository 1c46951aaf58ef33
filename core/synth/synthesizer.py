"""The default synthesizer: validate, build a document per type, suggest follow-ups. Pure logic.

    AgentResult ──> error without data? ──> friendly error message
         │
         ├─> validate data (model or dict) ──> invalid? ──> logged + friendly "invalid_data" reply
         ├─> no data: conversational text passes through (generic suggestions), or "nothing found"
         └─> sections by type (+ follow-up line, partial-results lead, source notes) + suggestions

``synthesize`` never raises: a bug in a renderer is logged and answered with an apology.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from typing import TypeVar

from core.agents.base import AgentResult
from core.models import (
    Clarification,
    Comparison,
    Intent,
    RepoDetailData,
    RepoList,
    ResultMeta,
    ScoredRepository,
    Section,
    StructuredData,
    TextSection,
    structured_repo_names,
)
from core.synth import suggestions
from core.synth.base import Synthesis, SynthesisContext
from core.synth.clarification import MAX_OPTIONS, clarification_sections
from core.synth.comparison import comparison_sections
from core.synth.format import SnapshotDay, truncate
from core.synth.framing import follow_up_line, source_notes
from core.synth.outcomes import INTERNAL, INVALID_DATA, empty_results, error_message, partial_lead
from core.synth.render_context import MAX_DESCRIPTION_CHARS, MAX_ITEMS, RenderContext
from core.synth.repo_detail import repo_detail_sections
from core.synth.repo_list import repo_list_sections
from core.synth.validation import InvalidData, log_invalid, validate_structured

log = logging.getLogger("omg.synth")
_Repo = TypeVar("_Repo", bound=ScoredRepository)

NOTHING_TO_SAY = (
    "I'm not sure how to help with that yet. I can search for repositories, analyze one, "
    "or compare a few. Ask *what can you do?* to see examples."
)


def _texts(paragraphs: Sequence[str | None]) -> list[Section]:
    return [TextSection(markdown=p) for p in paragraphs if p]


def _is_empty(data: StructuredData) -> bool:
    return isinstance(data, (RepoList, Comparison)) and not data.items


class DefaultSynthesizer:
    """``DefaultSynthesizer(clock=...)``: the clock dates "updated 3 days ago" for live data
    (catalog data is dated against its snapshot date)."""

    def __init__(
        self,
        *,
        max_items: int = MAX_ITEMS,
        max_description_chars: int = MAX_DESCRIPTION_CHARS,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.max_items = max(1, max_items)
        self.max_description_chars = max(20, max_description_chars)
        self._clock = clock or (lambda: datetime.now(UTC))

    def synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        try:
            return self._synthesize(result, ctx)
        except Exception:  # the edge of rendering a reply: a bug still leaves the user an answer
            log.exception(
                "synthesis failed",
                extra={"intent": str(ctx.intent), "user_message": ctx.message[:200]},
            )
            return Synthesis(
                markdown=INTERNAL, suggestions=suggestions.after_error(ctx), error_code="synthesis_failed"
            )

    def _synthesize(self, result: AgentResult, ctx: SynthesisContext) -> Synthesis:
        if result.error or result.partial:
            log.log(
                logging.WARNING if result.error else logging.INFO,
                "agent reported a problem",
                extra={
                    "intent": str(ctx.intent),
                    "user_message": ctx.message[:200],
                    "error_code": result.error_code,
                    "error": result.error,
                    "partial": result.partial,
                    "has_data": result.data is not None,
                },
            )
        data: StructuredData | None = None
        if result.data is not None:
            try:
                data = validate_structured(result.data)
            except InvalidData as problem:
                log_invalid(result.data, problem, agent_intent=str(ctx.intent), message=ctx.message)
                return Synthesis(
                    markdown=INVALID_DATA, suggestions=suggestions.after_error(ctx), error_code="invalid_data"
                )

        rc = self._render_context(ctx, data)
        if data is None or _is_empty(data):
            return self._without_data(result, ctx, data, rc)

        lead = [follow_up_line(ctx, data)]
        if result.error:
            lead.append(partial_lead(result, ctx))
        if result.text and result.text.strip():
            lead.append(result.text.strip())
        subjects = structured_repo_names(data) if isinstance(data, (RepoDetailData, Comparison)) else []
        notes = source_notes(data.meta, partial=result.partial and not result.error, subjects=subjects)
        return Synthesis(
            document=[*_texts(lead), *self._render(data, rc), *_texts(notes)],
            suggestions=suggestions.for_data(data, ctx),
            data=self._trim(data),
            error_code=(result.error_code or "partial") if result.error else None,
        )

    def _without_data(
        self, result: AgentResult, ctx: SynthesisContext, data: StructuredData | None, rc: RenderContext
    ) -> Synthesis:
        if result.error:
            return Synthesis(
                markdown=error_message(result, ctx),
                suggestions=suggestions.after_error(ctx),
                data=data,
                error_code=result.error_code or "agent_error",
            )
        text = (result.text or "").strip()
        if data is None and text:
            return Synthesis(markdown=text, suggestions=suggestions.generic(ctx))
        if data is None and ctx.intent in (Intent.CHAT, Intent.CLARIFY):
            return Synthesis(markdown=NOTHING_TO_SAY, suggestions=suggestions.generic(ctx))
        listing = data if isinstance(data, RepoList) else None
        alternatives = suggestions.empty_alternatives(listing, ctx)
        tries = suggestions.labelled_alternatives(listing, ctx)
        parts = [follow_up_line(ctx, data), text, empty_results(listing, ctx, tries, rc)]
        parts += source_notes(data.meta if data is not None else None, partial=result.partial)
        return Synthesis(
            markdown="\n\n".join(p for p in parts if p),
            suggestions=alternatives if ctx.intent is Intent.SEARCH or listing else suggestions.generic(ctx),
            data=data,
        )

    def _render_context(self, ctx: SynthesisContext, data: StructuredData | None) -> RenderContext:
        meta = data.meta if data is not None else None
        today: date = (
            SnapshotDay.of(meta.snapshot_date) if meta is not None and meta.snapshot_date
            else self._clock().date()
        )
        return RenderContext(
            ctx=ctx,
            today=today,
            max_items=self.max_items,
            max_description_chars=self.max_description_chars,
            compact_description_chars=min(160, self.max_description_chars),
        )

    def _render(self, data: StructuredData, rc: RenderContext) -> list[Section]:
        if isinstance(data, RepoList):
            return repo_list_sections(data, rc)
        if isinstance(data, RepoDetailData):
            return repo_detail_sections(data, rc)
        if isinstance(data, Comparison):
            return comparison_sections(data, rc)
        return clarification_sections(data, rc)

    def _short(self, repo: _Repo) -> _Repo:
        if len(repo.description) <= self.max_description_chars:
            return repo
        return repo.model_copy(update={"description": truncate(repo.description, self.max_description_chars)})

    def _trim(self, data: StructuredData) -> StructuredData:
        """What we keep is what the user saw: the top items, descriptions cut.

        "The sixth one" then counts over the rows on screen, and stored threads stay small.
        """
        if isinstance(data, RepoList):
            meta = data.meta or ResultMeta()
            total = meta.total_candidates if meta.total_candidates is not None else len(data.items)
            return data.model_copy(update={
                "items": [self._short(r) for r in data.items[: self.max_items]],
                "meta": meta.model_copy(update={"total_candidates": max(total, len(data.items))}),
            })
        if isinstance(data, Comparison):
            rows = [
                row.model_copy(update={"repo": self._short(row.repo)})
                for row in data.items[: self.max_items]
            ]
            return data.model_copy(update={"items": rows})
        if isinstance(data, RepoDetailData):
            return data.model_copy(update={"repo": self._short(data.repo)})
        if isinstance(data, Clarification):
            return data.model_copy(update={"options": data.options[:MAX_OPTIONS]})
        return data
