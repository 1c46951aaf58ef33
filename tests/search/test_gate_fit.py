"""The gate's fitting (``bench gate_fit``): the logistic fit recovers a known model, in the
readings' own units, and the tally counts what a threshold catches and drops."""

from __future__ import annotations

import numpy as np

from bench.gate_fit import fit, tally


def test_the_fit_recovers_a_known_model_in_the_readings_own_units() -> None:
    rng = np.random.default_rng(7)
    x = np.c_[rng.normal(0.1, 0.2, 4000), rng.normal(5.0, 3.0, 4000)]  # readings on unlike scales
    true_weights, true_bias = np.array([-8.0, 0.4]), -1.0
    p = 1 / (1 + np.exp(-(x @ true_weights + true_bias)))
    y = (rng.random(4000) < p).astype(float)
    weights, bias = fit(x, y)
    assert np.allclose(weights, true_weights, rtol=0.15)
    assert abs(bias - true_bias) < 0.3


def test_the_tally_counts_no_match_caught_and_answers_dropped() -> None:
    logits = np.array([2.0, -1.0, 0.5, -3.0, 1.5])
    nothing_fits = np.array([True, True, False, False, False])
    assert tally(logits, nothing_fits, 0.0) == (1, 2)
    assert tally(logits, nothing_fits, 1.8) == (1, 0)
