"""The text dimensions -- documentation, ease of use, relevance -- and the seam an LLM plugs into.

``TextScorer`` is the protocol; ``HeuristicTextScorer`` is the offline implementation (README
facts and the description/topics). Formulas: ``core/search/SCORING.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from core.models import Repository, RepoSignals, SearchParams
from core.search.measures import DimensionScore, human, log_scale
from core.search.readme import ReadmeFacts, analyze_readme
from core.search.relevance import compile_terms, relevance



@dataclass(frozen=True, slots=True)
class TextScores:
    """What a ``TextScorer`` says about the three text dimensions (None: no opinion)."""

    documentation: DimensionScore | None = None
    ease_of_use: DimensionScore | None = None
    relevance: DimensionScore | None = None


class TextScorer(Protocol):
    """The seam for an LLM judge of documentation, ease of use and relevance."""

    async def score_text(
        self, repo: Repository, signals: RepoSignals | None, params: SearchParams | None, readme: str | None
    ) -> TextScores: ...


class HeuristicTextScorer:
    """The offline ``TextScorer``: README heuristics and the description/topics."""

    async def score_text(
        self, repo: Repository, signals: RepoSignals | None, params: SearchParams | None, readme: str | None
    ) -> TextScores:
        return heuristic_text_scores(repo, signals, params, readme)



def heuristic_text_scores(
    repo: Repository, signals: RepoSignals | None, params: SearchParams | None, readme: str | None
) -> TextScores:
    sig = signals or RepoSignals()
    facts = analyze_readme(readme) if readme else None
    rel = relevance(repo, compile_terms(params), readme)
    return TextScores(
        documentation=_documentation(repo, sig, facts),
        ease_of_use=_ease_of_use(facts),
        relevance=DimensionScore(rel.score, rel.reason) if rel else None,
    )


def _documentation(repo: Repository, sig: RepoSignals, facts: ReadmeFacts | None) -> DimensionScore | None:
    if facts is not None:
        score = (
            3 * log_scale(facts.chars, 8000) / 10
            + 2 * min(1.0, facts.headings / 6)
            + 2 * min(1.0, facts.code_blocks / 3)
            + 1.5 * (facts.has_install_section or facts.has_install_command)
            + 1.0 * (facts.has_usage_section or facts.has_examples_section)
            + 0.5 * facts.has_docs_link
        )
        return DimensionScore(score, "README: " + facts.summary())
    if sig.has_readme is False or sig.readme_chars == 0:
        return DimensionScore(0.0, "no README")
    if sig.readme_chars is not None:
        return DimensionScore(log_scale(sig.readme_chars, 8000), f"README length only ({human(sig.readme_chars)} chars)")
    # README not read (offline snapshot, anonymous search): a one-line description says nothing
    # about documentation, so the dimension stays unmeasured ("n/a") rather than scoring ~2/10.
    return None


def _ease_of_use(facts: ReadmeFacts | None) -> DimensionScore | None:
    if facts is None:
        return None  # nothing measurable without the README
    score = (
        2.5 * facts.has_install_section
        + 2.5 * facts.has_install_command
        + 2.0 * facts.has_usage_section
        + 1.5 * facts.has_examples_section
        + 1.5 * min(1.0, facts.code_blocks / 3)
    )
    found = [n for n, ok in (("install steps", facts.has_install_section), ("install command", facts.has_install_command),
                             ("usage/quick start", facts.has_usage_section), ("examples", facts.has_examples_section)) if ok]
    return DimensionScore(score, "README has " + (", ".join(found) if found else "no install/usage guidance"))
