"""Fits the weights of the "nothing fits" gate (``core.search.gate``) on the DEVELOPMENT search sets,
and reports how the fitted gate would answer the validation sets (the former fresh blind sets).

    .venv/bin/python -m bench gate_fit

Every request of the development sets runs through ``omg ask`` offline as ``bench search_eval``
runs it, and the gate's last reading for it is kept (none when a candidate was named by the
request's words: the gate is not consulted then). A judged request is "something fits" when its
answer was listed in the first ten or when nothing was listed (the gate dropped it); a judged request
whose list missed its answer says nothing about the gate and is left out. A no-match request is
"nothing fits". A logistic model over the readings, standardised, with an L2 penalty of
``PENALTY``, is fitted by Newton's method. Its threshold is read off the development sets' objective,
the no-match requests caught less ``LOST_COST`` times the judged answers dropped: that objective is
flat over a wide range of thresholds, and where on the plateau its highest point falls is noise, so
the threshold is the middle of the range of those within ``PLATEAU`` of the best.
The weights are printed as the constants of ``core.search.gate``, in the readings' own units;
paste them there. The current gate's figures are printed beside the fitted one's on both kinds of
set. The blind set (``search_eval``'s default) is never read.
"""

from __future__ import annotations

import asyncio
import math
import sys
from dataclasses import dataclass

import numpy as np

from bench.search_eval import SETS, first_hit, load
from bot.app import build_app
from bot.testing import TestBackend
from core.models import RepoList
from core.search.gate import recording

DEVELOPMENT = ["blind", "heldout", "fresh3", "dev", *(f"dev{i}" for i in range(5, 31))]
VALIDATION = ["fresh24", "fresh23", "fresh22", "fresh21", "fresh20", "fresh19", "fresh18", "fresh17", "fresh16", "fresh15", "fresh14", "fresh13", "fresh12", "fresh11", "fresh10", "fresh9", "fresh8", "fresh7", "fresh6",
              "fresh5", "fresh4", "fresh2", "fresh"]
PENALTY = 1.0
LOST_COST = 1.5
PLATEAU = 0.01  # thresholds whose objective is within 1 % of the best one's
NAMES = ("over", "typicality", "lead", "examples", "words", "unknown_word", "in_language", "covered", "named_covered")


@dataclass(frozen=True, slots=True)
class Sample:
    readings: tuple[float, ...]
    nothing_fits: bool  # the truth: a no-match request
    gated: bool  # what the current gate did: listed nothing


async def samples(names: list[str]) -> list[Sample]:
    app = await build_app(env={"OMG_GITHUB": "offline"}, memory=True)
    out: list[Sample] = []
    try:
        for name in names:
            for i, q in enumerate(load(name)):
                with recording() as readings:
                    reply = await TestBackend(app, thread=f"gate-{name}-{i}").ask(q.query)
                if not readings:
                    continue
                data = reply.structured_data
                listed = [item.full_name for item in data.items] if isinstance(data, RepoList) else []
                rank = first_hit(listed, q.expected) if q.expected else None
                if q.expected and listed and not (rank and rank <= 10):
                    continue
                out.append(Sample(readings[-1].readings(), not q.expected, not listed))
    finally:
        await app.aclose()
    return out


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Weights and bias in the readings' own units."""
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.c_[np.ones(len(x)), (x - mean) / spread]
    w = np.zeros(z.shape[1])
    ridge = PENALTY * np.diag(np.r_[0.0, np.ones(z.shape[1] - 1)])
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        w -= np.linalg.solve((z * (p * (1 - p))[:, None]).T @ z + ridge, z.T @ (p - y) + ridge @ w)
    weights = w[1:] / spread
    return weights, float(w[0] - weights @ mean)


def tally(logits: np.ndarray, y: np.ndarray, at: float) -> tuple[int, int]:
    """(no-match requests caught, judged answers dropped) with the threshold ``at``."""
    return int((logits[y] > at).sum()), int((logits[~y] > at).sum())


def threshold(logits: np.ndarray, y: np.ndarray) -> float:
    """The middle of the range of thresholds whose objective is within ``PLATEAU`` of the best's."""
    candidates = np.unique(logits)
    objective = np.array([caught - LOST_COST * lost for caught, lost in (tally(logits, y, at) for at in candidates)])
    plateau = candidates[objective >= objective.max() - PLATEAU * abs(objective.max())]
    return float((plateau.min() + plateau.max()) / 2)


def main() -> None:
    development = asyncio.run(samples([n for n in DEVELOPMENT if n in SETS]))
    validation = asyncio.run(samples([n for n in VALIDATION if n in SETS]))
    x = np.array([s.readings for s in development])
    y = np.array([s.nothing_fits for s in development])
    weights, bias = fit(x, y.astype(float))
    logits = x @ weights + bias
    best = threshold(logits, y)
    print(f"DEVELOPMENT: {len(y)} requests the gate read, {int(y.sum())} no-match")
    print(f"NO_MATCH_BIAS = {bias:.4f}")
    print(f"NO_MATCH_WEIGHTS = ({', '.join(f'{w:.4f}' for w in weights)})  # {', '.join(NAMES)}")
    print(f"NO_MATCH_AT = {best:.4f}")
    for title, group in (("DEVELOPMENT (fitted on)", development), ("VALIDATION (former blind sets)", validation)):
        gx = np.array([s.readings for s in group])
        gy = np.array([s.nothing_fits for s in group])
        gated = np.array([s.gated for s in group])
        caught, lost = tally(gx @ weights + bias, gy, best)
        print(f"  {title}: no-match {int(gy.sum())}, judged {int((~gy).sum())}")
        print(f"    current gate: caught {int(gated[gy].sum())}, dropped {int(gated[~gy].sum())}")
        print(f"    fitted gate:  caught {caught}, dropped {lost} (a judged answer the current gate dropped "
              f"counts as kept: {int((gated & ~gy & (gx @ weights + bias <= best)).sum())} such)")
    if math.isnan(bias):
        sys.exit("the fit did not converge")


if __name__ == "__main__":
    main()
