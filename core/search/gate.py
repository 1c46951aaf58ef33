"""Whether anything fits: the odds that nothing does, weighed from nine readings of the closest
candidates.

Each reading alone was once a gate of its own (``core.search.fit``): how far the closest candidate
is over the gate, how typical the need is of the closest candidates' example requests, and so on.
Alone, each had to be strict enough to catch what does not fit, and dropped answers where another
reading said plainly that they fit. Weighed together by a logistic model, a need a little under the
gate but typical of its closest candidate's requests is kept, and one a little over it that is
typical of none is answered with a plain no.

The weights were fitted by ``python -m bench gate_fit`` on the development sets only (each judged
request whose answer was listed in the first ten, or that was answered with nothing, is "something
fits"; each no-match request "nothing fits"); the fresh blind sets never were. See SCORING.md
("Nothing fits").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

LEAD_CAP = 0.30  # a lead this large says all a larger one would
TYPICAL = 0.07  # read for candidates with no example requests (live ones): the development sets' mean
# ...and their closeness through example requests is read as their own text's plus this: on the
# development sets the closest candidate's example requests are 0.12 closer than its own text, on
# average, so reading a live candidate's own closeness as is would tilt the gate towards a plain no
EXAMPLES_OVER_OWN = 0.12

# logit of "nothing fits" = NO_MATCH_BIAS + the weights times the readings (``GateReading.readings``)
NO_MATCH_BIAS = 8.5124
NO_MATCH_WEIGHTS = (-5.0094, -5.8380, -10.0306, -5.6846, -0.2117, 0.3153, -1.2066, -3.0714, -1.6227)
NO_MATCH_AT = 0.1347  # over this logit, nothing fits (the middle of the thresholds where the fit's objective is flat: ``bench gate_fit``)
# ...and within this of it, something may fit but nothing surely does: the list is said to hold the
# closest matches, none a sure one (``core.search.fit.Fit.sure``)
UNSURE_BAND = 0.5


@dataclass(frozen=True, slots=True)
class GateReading:
    """What the fit reads of the closest candidates before it lists any."""

    over: float  # the closest candidate's closeness as the gate reads it, less the gate
    typicality: float | None  # the highest of the closest candidates' (``CatalogVectors.example_typicality``)
    lead: float  # how much closer the closest candidate is than the next (0 when it is alone: ahead of nothing)
    examples: float  # the closest candidate's example requests' closeness (``EXAMPLES_OVER_OWN`` over its own text's when it has none)
    words: int  # the request's telling words (``core.search.need.telling_words``)
    unknown_word: bool  # one of them the searched collection never uses
    in_language: bool  # the closest are those in a language the request names (the language rules have lowered ``over``)
    covered: float  # the share of the request's telling words, weighted by rarity, the closest candidates' words hold (``core.search.coverage``)
    named_covered: float  # the same share of the words the request writes as names (``core.search.need.named_words``); 1 when it writes none

    def readings(self) -> tuple[float, ...]:
        typicality = TYPICAL if self.typicality is None else self.typicality
        return (self.over, typicality, min(self.lead, LEAD_CAP), self.examples, float(self.words),
                float(self.unknown_word), float(self.in_language), self.covered, self.named_covered)

    def no_match_logit(self) -> float:
        return NO_MATCH_BIAS + sum(w * x for w, x in zip(NO_MATCH_WEIGHTS, self.readings(), strict=True))

    @property
    def nothing_fits(self) -> bool:
        return self.no_match_logit() > NO_MATCH_AT

    @property
    def nothing_surely_fits(self) -> bool:
        return self.no_match_logit() > NO_MATCH_AT - UNSURE_BAND


_recording: ContextVar[list[GateReading] | None] = ContextVar("gate_readings", default=None)


@contextmanager
def recording() -> Iterator[list[GateReading]]:
    """The gate readings taken within the block (by tasks and threads it starts too), in order:
    what ``bench gate_fit`` fits the weights on."""
    readings: list[GateReading] = []
    token = _recording.set(readings)
    try:
        yield readings
    finally:
        _recording.reset(token)


def record(reading: GateReading) -> None:
    if (readings := _recording.get()) is not None:
        readings.append(reading)
