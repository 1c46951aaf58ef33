from __future__ import annotations

import pytest

from core.agents.base import AgentResult
from core.models import Intent, StructuredData
from core.synth import DefaultSynthesizer, Synthesis, SynthesisContext
from tests.synth.factories import NOW


@pytest.fixture
def synth() -> DefaultSynthesizer:
    return DefaultSynthesizer(clock=lambda: NOW)


@pytest.fixture
def run(synth: DefaultSynthesizer):
    """run(data=..., intent=..., message=..., previous=...) -> Synthesis"""

    def _run(
        data: object = None,
        *,
        intent: Intent = Intent.SEARCH,
        message: str = "find React state management libraries",
        previous: StructuredData | None = None,
        previous_query: str | None = None,
        **result: object,
    ) -> Synthesis:
        agent_result = AgentResult.model_construct(
            data=data, text=result.get("text"), error=result.get("error"),
            error_code=result.get("error_code"), partial=bool(result.get("partial", False)),
        )
        ctx = SynthesisContext(intent=intent, message=message, previous=previous, previous_query=previous_query)
        return synth.synthesize(agent_result, ctx)

    return _run
