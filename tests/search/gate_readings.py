"""What the "nothing fits" gate read of a set of candidates (``core.search.gate.recording``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.models import Repository, SearchParams
from core.search.fit import fits
from core.search.gate import GateReading, recording


def gate_reading(params: SearchParams, candidates: Sequence[Repository], **options: Any) -> GateReading:
    with recording() as readings:
        fits(params, candidates, all_core=set(), **options)
    assert readings, "the gate was not consulted"
    return readings[-1]
