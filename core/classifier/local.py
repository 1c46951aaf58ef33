"""The offline intent classifier: local model verdict -> confidence routing -> reference resolution.

Two seams for the LLM cascade (``core.classifier.cascade``):

- ``predict(message, history)`` returns a ``LocalVerdict`` with the full probability
  distribution and the top-2 margin, so a cascade asks the LLM only when ``verdict.unsure``.
- ``decide(message, history, intent=..., confidence=..., source="llm")`` applies routing and
  deterministic reference resolution to an intent picked by anyone.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from core.classifier.base import RepoNameIndex
from core.classifier.context import ThreadContext, build_context
from core.classifier.features import Featurizer, Prepared
from core.classifier.hints import (
    asks_for_code_between,
    asks_for_software,
    asks_one_tool_for_them,
    asks_what_others_use,
    commands_search,
    describes_need,
    names_a_kind,
    foreign_repositories,
    pair_of_words,
    names_no_target,
    names_only_its_situation,
    names_tool_for,
    offers_a_language_choice,
    referent_intent,
    requested_intent,
    runs_a_language_inside,
)
from core.classifier.mentions import Mention, MentionFinder, MentionKind
from core.classifier.names import ChainedNameIndex, shipped_name_index
from core.classifier.questions import (
    Question,
    for_foreign_host,
    for_low_confidence,
    for_problem,
    for_vague,
)
from core.classifier.references import Problem, ReferenceResolver, Resolution
from core.classifier.training import TrainedModel, load_or_train
from core.models import Classification, Intent, Message

log = logging.getLogger("omg.classifier")


@dataclass(frozen=True)
class LocalVerdict:
    """What the local model thinks, before any routing."""

    probabilities: dict[Intent, float]
    intent: Intent
    confidence: float
    runner_up: Intent
    margin: float  # top probability minus the runner-up's
    context: ThreadContext
    mentions: tuple[Mention, ...]
    latency_ms: float

    def unsure(self, threshold: float, ambiguity_margin: float) -> bool:
        return self.confidence < threshold or self.margin < ambiguity_margin


def _toward_requested(probabilities: dict[Intent, float], wanted: Intent | None) -> dict[Intent, float]:
    """"compare the first two for long-term use": the wording names the intent and the selection
    names its targets, so a search's share (drawn by the stated need's words) goes to it."""
    if wanted is None:
        return probabilities
    moved = dict(probabilities)
    moved[wanted] = moved.get(wanted, 0.0) + moved.get(Intent.SEARCH, 0.0)
    moved[Intent.SEARCH] = 0.0
    return moved


def _without_targeted_intents(probabilities: dict[Intent, float]) -> dict[Intent, float]:
    """Analyze and compare are impossible without a target: their share goes to a search."""
    targeted = probabilities.get(Intent.ANALYZE, 0.0) + probabilities.get(Intent.COMPARE, 0.0)
    folded = {i: (0.0 if i in (Intent.ANALYZE, Intent.COMPARE) else p) for i, p in probabilities.items()}
    folded[Intent.SEARCH] = folded.get(Intent.SEARCH, 0.0) + targeted
    return folded


# a description that ends in a kind of software names what to find, whatever names qualify it
# ("Ruby on Rails admin dashboard framework", "zustand devtools plugin")
_KIND_AT_END = re.compile(
    r"\b(?:frameworks?|librar(?:y|ies)|tools?|plugins?|extensions?|components?|dashboards?|engines?|"
    r"clients?|servers?|sdks?|wrappers?|bindings|alternatives?|replacements?|utilit(?:y|ies)|apps?|applications?|"
    r"software)\s*[?.!]*\s*$",
    re.IGNORECASE,
)


# a described need this long says what to find; a short one ("hmm let me think") may not
LONG_NEED_WORDS = 10


def _search_leads(probabilities: dict[Intent, float], *, past_a_question: bool) -> bool:
    """Whether the model reads a search, or -- ``past_a_question``, for a long described need, which
    a question back could only ask again -- a search second only to a question back ("a backup tool
    with dedup that pushes to S3 and B2. which one would you pick for that?")."""
    ranked = sorted(probabilities, key=probabilities.__getitem__, reverse=True)
    return ranked[0] is Intent.SEARCH or (past_a_question and ranked[:2] == [Intent.CLARIFY, Intent.SEARCH])


def _search_second(probabilities: dict[Intent, float]) -> bool:
    """Whether the model reads a search second only: a long message that asks for a kind of
    software in so many words ("how do you all keep secrets out of git, is there a scanner for
    that", "... I'm after a tool that ...") is one, though the model leans to chat about its opening
    question or to a comparison of the names it runs; "is there a tool for that?" alone says too
    little to search for."""
    return sorted(probabilities, key=probabilities.__getitem__, reverse=True)[1] is Intent.SEARCH


def _certain(intent: Intent, probabilities: dict[Intent, float]) -> dict[Intent, float]:
    return {other: float(other is intent) for other in probabilities}


def _check_unit(name: str, value: float) -> float:
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return value


class LocalIntentClassifier:
    """``IntentClassifier`` backed by the shipped scikit-learn model; no network, ~1 ms a call."""

    def __init__(
        self,
        trained: TrainedModel | None = None,
        names: RepoNameIndex | None = None,
        *,
        confidence_threshold: float = 0.7,
        ambiguity_margin: float = 0.12,
    ) -> None:
        self.trained = trained or load_or_train()
        indexes = [names, shipped_name_index()] if names is not None else [shipped_name_index()]
        self.names = ChainedNameIndex(indexes)
        self.finder = MentionFinder(self.trained.vocabulary, self.names, fuzzy_names=shipped_name_index().keyed())
        self.resolver = ReferenceResolver(self.finder)
        self.featurizer = Featurizer(self.finder)
        self.confidence_threshold = confidence_threshold
        self.ambiguity_margin = ambiguity_margin

    # -- runtime-adjustable routing thresholds ------------------------------------------------------

    @property
    def confidence_threshold(self) -> float:
        return self._threshold

    @confidence_threshold.setter
    def confidence_threshold(self, value: float) -> None:
        self._threshold = _check_unit("confidence_threshold", value)

    @property
    def ambiguity_margin(self) -> float:
        return self._margin

    @ambiguity_margin.setter
    def ambiguity_margin(self, value: float) -> None:
        self._margin = _check_unit("ambiguity_margin", value)

    # -- the seams ----------------------------------------------------------------------------------

    def predict(self, message: str, history: Sequence[Message] = ()) -> LocalVerdict:
        return self.predict_many([(message, history)])[0]

    def predict_many(self, items: Sequence[tuple[str, Sequence[Message]]]) -> list[LocalVerdict]:
        """Batch prediction (one matrix for the whole batch: what ``omg classify`` uses)."""
        started = time.perf_counter()
        prepared = [self.featurizer.prepare(message, history) for message, history in items]
        rows = self.trained.model.predict_proba([p.input for p in prepared]) if prepared else []
        elapsed = (time.perf_counter() - started) * 1000 / max(1, len(prepared))
        classes = self.trained.model.classes
        verdicts = []
        for (message, _history), p, row in zip(items, prepared, rows):
            probabilities = self._read_wording(message, p, {intent: float(x) for intent, x in zip(classes, row)})
            ranked = sorted(probabilities.items(), key=lambda kv: kv[1], reverse=True)
            (top, p1), (second, p2) = ranked[0], ranked[1]
            verdicts.append(LocalVerdict(probabilities, top, p1, second, p1 - p2, p.context, p.mentions, elapsed))
        return verdicts

    def _read_wording(self, message: str, p: Prepared, probabilities: dict[Intent, float]) -> dict[Intent, float]:
        """The model's probabilities, corrected by what the wording settles: "search for: ..." is a
        search; analyze and compare need a target; a selection of listed results leans to what
        it asks; a described need or a kind of software the model reads as a search (a long
        described need: or as a question back, then a search) needs no question back."""
        if (commands_search(message, p.mentions) or asks_one_tool_for_them(message, p.mentions, p.context)
                or names_tool_for(message, p.mentions, p.context) or runs_a_language_inside(message, p.mentions, p.context)
                or asks_what_others_use(message) or asks_for_code_between(message, p.mentions, p.context)
                or offers_a_language_choice(message, p.context)):
            return _certain(Intent.SEARCH, probabilities)
        if names_no_target(message, p.mentions, p.context) or self._need_misread(probabilities, message, p):
            probabilities = _without_targeted_intents(probabilities)
        elif self._selects_earlier_results(message, p.context):
            probabilities = _toward_requested(probabilities, requested_intent(message))
        described = describes_need(message, p.mentions, p.context)
        long_need = described and len(message.split()) >= LONG_NEED_WORDS
        asks = asks_for_software(message, p.context)
        if (names_a_kind(message, p.mentions, p.context) or described or asks) \
                and _search_leads(probabilities, past_a_question=long_need):
            return _certain(Intent.SEARCH, probabilities)
        if asks and len(message.split()) >= LONG_NEED_WORDS and _search_second(probabilities):
            return _certain(Intent.SEARCH, probabilities)
        return probabilities

    def _need_misread(self, probabilities: dict[Intent, float], message: str, prepared: Prepared) -> bool:
        """A described need whose names the model took for targets: an unsure verdict, a
        comparison of names that stand side by side as one phrase ("rich text WYSIWYG editor"),
        among them two words joined by a slash ("between UTM, latitude/longitude and MGRS"), or an
        analysis of names that are only where the tool runs or what the asker runs ("a transcoding
        pipeline we can run on k8s")."""
        if not describes_need(message, prepared.mentions, prepared.context):
            return False
        top, p_top = max(probabilities.items(), key=lambda kv: kv[1])
        named = sum(m.kind is MentionKind.NAME or pair_of_words(m) for m in prepared.mentions)
        return ((top is Intent.COMPARE and named > 1) or p_top < self._threshold or bool(_KIND_AT_END.search(message))
                or (top is Intent.ANALYZE and names_only_its_situation(message, prepared.mentions)))

    def _describes_need(self, message: str, context: ThreadContext) -> bool:
        return describes_need(message, self.resolver.mentions(message, context), context)

    def _selects_earlier_results(self, message: str, context: ThreadContext) -> bool:
        """Analyze/compare wording whose references resolve into results the thread listed
        ("compare the first two for long-term use")."""
        wanted = requested_intent(message)
        if wanted is None or not context.known_names:
            return False
        return bool(self.resolver.resolve(message, context, wanted).repos)

    def resolve(self, message: str, history: Sequence[Message], intent: Intent) -> Resolution:
        """Deterministic reference resolution, whoever picked the intent."""
        return self.resolver.resolve(message, build_context(history), intent)

    def decide(
        self,
        message: str,
        history: Sequence[Message] = (),
        verdict: LocalVerdict | None = None,
        *,
        intent: Intent | None = None,
        confidence: float | None = None,
        runner_up: Intent | None = None,
        source: str = "local",
    ) -> Classification:
        """Route a verdict (the local one, or an intent from elsewhere) into a ``Classification``."""
        if intent is None:
            verdict = verdict or self.predict(message, history)
            intent, confidence, runner_up = verdict.intent, verdict.confidence, verdict.runner_up
            margin = verdict.margin
            context = verdict.context
            head = (f"{source} model: {intent.value} {confidence:.2f}, "
                    f"runner-up {runner_up.value} {verdict.probabilities[runner_up]:.2f}")
        else:
            confidence = 1.0 if confidence is None else confidence
            margin = 1.0
            context = build_context(history)
            head = f"{source}: {intent.value} {confidence:.2f}"
        confidence = min(1.0, max(0.0, confidence))

        unsure = confidence < self.confidence_threshold or margin < self.ambiguity_margin
        foreign = foreign_repositories(message)
        if foreign and (unsure or intent in (Intent.ANALYZE, Intent.COMPARE, Intent.CLARIFY)
                        or requested_intent(message) is not None):
            # "compare gitlab.com/a/b vs bitbucket.org/c/d" asks for a comparison by its wording,
            # whatever the model made of two unknown links.
            # "analyze gitlab.com/a/b": say we only do GitHub, unless the GitHub part stands on its own.
            wanted = intent if intent in (Intent.ANALYZE, Intent.COMPARE) else requested_intent(message)
            on_github = self.resolver.resolve(message, context, wanted or Intent.ANALYZE)
            if on_github.problem is not None or not on_github.repos:
                return self._clarify(wanted, confidence, f"{head}; {', '.join(foreign)}: not on GitHub -> clarify",
                                     for_foreign_host(foreign, context), source)

        if intent is Intent.CLARIFY or unsure:
            referred = self._unresolvable_reference(message, context)
            if referred is not None:
                wanted, resolution = referred
                question = for_problem(wanted, resolution, context)
                return self._clarify(wanted, confidence, f"{head}; {resolution.detail} -> clarify", question,
                                     source)

        if unsure:
            why = "below the confidence threshold" if confidence < self.confidence_threshold else \
                "top two intents too close"
            named = [m.full_name for m in self.resolver.mentions(message, context) if m.full_name]
            question = for_low_confidence(intent, runner_up or Intent.CLARIFY, context, message, named,
                                          describes_need=self._describes_need(message, context))
            return self._clarify(intent, confidence, f"{head}; {why} -> clarify", question, source)

        if intent is Intent.SEARCH and (selected := self.resolver.bare_selection(message, context)):
            head = f"{head}; only a selection of the listed results -> {selected.value}"
            intent = selected
        resolution = self.resolver.resolve(message, context, intent)
        if intent is Intent.SEARCH and resolution.repos and self._describes_need(message, context):
            words = {m.full_name for m in resolution.mentions if pair_of_words(m)}  # "TikZ/pgfplots code"
            resolution.repos = [name for name in resolution.repos if name not in words]
        if intent is Intent.CLARIFY:
            need = message if self._describes_need(message, context) else ""
            return self._clarify(None, confidence, f"{head}; vague or missing context", for_vague(context, need),
                                 source)
        if resolution.problem is not None:
            question = for_problem(intent, resolution, context)
            return self._clarify(intent, confidence, f"{head}; {resolution.detail} -> clarify", question,
                                 source)
        detail = f"; {resolution.detail}" if resolution.detail else ""
        return Classification(intent=intent, confidence=round(confidence, 4), reasoning=f"{head}{detail}",
                              repos=resolution.repos, source=source)

    def _unresolvable_reference(self, message: str, context: ThreadContext) -> tuple[Intent, Resolution] | None:
        """"analyze the second one" with nothing listed (or "the 0th one"): whoever said clarify, the
        question is about the missing referent, for the request the wording makes."""
        wanted = referent_intent(message, self.resolver.mentions(message, context))
        if wanted is None:
            return None
        resolution = self.resolver.resolve(message, context, wanted)
        if resolution.problem in (Problem.NO_REFERENT, Problem.OUT_OF_RANGE):
            return wanted, resolution
        return None

    @staticmethod
    def _clarify(original: Intent | None, confidence: float, reasoning: str, question: Question,
                 source: str) -> Classification:
        return Classification(
            intent=Intent.CLARIFY,
            confidence=round(confidence, 4),
            original_intent=original if original is not Intent.CLARIFY else None,
            reasoning=reasoning,
            clarify_question=question.text,
            clarify_options=question.options,
            source=source,
        )

    def classify_sync(self, message: str, history: Sequence[Message] = ()) -> Classification:
        started = time.perf_counter()
        result = self.decide(message, history)
        log.debug("classified", extra={"user_message": message[:200], "intent": result.intent.value,
                                       "confidence": result.confidence, "reasoning": result.reasoning,
                                       "latency_ms": round((time.perf_counter() - started) * 1000, 2)})
        return result

    async def classify(self, message: str, history: Sequence[Message]) -> Classification:
        return self.classify_sync(message, history)
