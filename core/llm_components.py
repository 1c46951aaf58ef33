"""Everything the composition root needs from the LLM layer, built once from the environment.

    llm = build_llm_components(env, settings)
    classifier = llm.cascade(build_classifier(settings, names))       # local when no provider
    SearchTeam(source, llm.translator, text_scorer=llm.text_scorer)
    Auditor(source, compressor=llm.compressor, narrator=llm.narrator, text_scorer=llm.text_scorer)
    build_research_service(..., llm=llm.research)

Every component is ``None`` when no provider serves it (or ``LLM_TASKS`` leaves it out), and the
agents then use their local implementations. One ``LLMServices`` (one breaker per provider, one
budget, one set of metrics) is shared by all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date

from core.analysis.narrative import Narrator
from core.analysis.readme import ReadmeCompressor
from core.classifier.base import IntentClassifier
from core.classifier.cascade import CascadeClassifier, CascadeSettings
from core.classifier.local import LocalIntentClassifier
from core.config import CoreSettings
from core.llm import LLMServices, build_llm
from core.llm.client import LLMClient
from core.analysis.llm_narrator import LLMNarrator
from core.analysis.llm_readme import LLMReadmeCompressor
from core.search.llm_text_scores import LLMTextScorer
from core.search.llm_translator import LLMQueryTranslator
from core.search.scoring import TextScorer
from core.search.translator import QueryTranslator

TRANSLATE_TIMEOUT = 5.0
TEXT_SCORES_TIMEOUT = 6.0  # a search scores ~12 repositories within its own time budget


@dataclass
class LLMComponents:
    services: LLMServices
    translator: QueryTranslator | None = None
    text_scorer: TextScorer | None = None
    compressor: ReadmeCompressor | None = None
    narrator: Narrator | None = None
    research: LLMClient | None = None
    cascade_settings: CascadeSettings = field(default_factory=CascadeSettings)

    def cascade(self, local: LocalIntentClassifier) -> IntentClassifier:
        """``local`` wrapped in the LLM cascade when a classifier provider is configured."""
        client = self.services.classifier
        if client is None or not self.services.settings.task_enabled("classify"):
            return local
        settings = self.cascade_settings
        return CascadeClassifier(
            local,
            client,
            min_confidence=settings.min_confidence,
            min_margin=settings.min_margin,
            timeout=settings.timeout,
            cache_size=settings.cache_size,
        )

    async def aclose(self) -> None:
        await self.services.aclose()


def build_llm_components(
    env: Mapping[str, str],
    settings: CoreSettings,
    *,
    services: LLMServices | None = None,
    today: Callable[[], date] = date.today,
) -> LLMComponents:
    services = services or build_llm(env, data_dir=settings.data_dir)
    cfg = services.settings
    components = LLMComponents(
        services=services,
        cascade_settings=CascadeSettings.from_env(env),
    )
    general = services.general
    if general is not None:
        if cfg.task_enabled("translate"):
            components.translator = LLMQueryTranslator(
                general, timeout=min(cfg.default_timeout, TRANSLATE_TIMEOUT), today=today)
        if cfg.task_enabled("text_scores"):
            components.text_scorer = LLMTextScorer(
                general, timeout=min(cfg.default_timeout, TEXT_SCORES_TIMEOUT))
        if cfg.task_enabled("readme"):
            components.compressor = LLMReadmeCompressor(general, timeout=cfg.default_timeout)
        if cfg.task_enabled("narrative"):
            components.narrator = LLMNarrator(general, timeout=cfg.default_timeout)
    if services.research is not None and cfg.task_enabled("research"):
        components.research = services.research
    return components
