"""clarification -> an acknowledgement of the ambiguity, the question, the options."""

from __future__ import annotations

import re

from core.models import ChoicesSection, Clarification, Section, TextSection
from core.synth.format import sentence, truncate
from core.synth.render_context import RenderContext

MAX_OPTIONS = 8
ACKNOWLEDGEMENT = "I want to make sure I get this right."
# Questions that already say we are unsure need no extra acknowledgement.
_SELF_ACKNOWLEDGING = re.compile(r"\b(not sure|trouble|unclear|didn't catch|did not catch)\b", re.I)


def clarification_sections(data: Clarification, rc: RenderContext) -> list[Section]:
    question = sentence(truncate(data.question, rc.max_description_chars)) or "Could you tell me a bit more?"
    parts: list[str] = []
    if not _SELF_ACKNOWLEDGING.search(question):
        parts.append(ACKNOWLEDGEMENT)
    parts.append(f"**{question}**")
    sections: list[Section] = [TextSection(markdown="\n\n".join(parts))]
    options = [truncate(o, 200) for o in data.options if o.strip()][:MAX_OPTIONS]
    if options:
        sections.append(ChoicesSection(options=options))
    return sections
