"""What every renderer needs for one reply: the turn's context, limits, a clock, the explainer."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from core.synth.base import SynthesisContext
from core.synth.glossary import Explainer

MAX_ITEMS = 10  # the spec: summaries show the top 10 items at most
MAX_DESCRIPTION_CHARS = 500  # the spec: longer descriptions are truncated
COMPACT_DESCRIPTION_CHARS = 160  # rows after the top 3 stay short


@dataclass(slots=True)
class RenderContext:
    ctx: SynthesisContext
    today: date  # "updated 3 days ago" is relative to this (the snapshot date for catalog data)
    max_items: int = MAX_ITEMS
    max_description_chars: int = MAX_DESCRIPTION_CHARS
    compact_description_chars: int = COMPACT_DESCRIPTION_CHARS
    explain: Explainer = field(default_factory=Explainer)
