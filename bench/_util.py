"""Small helpers shared by the benchmarks: percentiles and a uniform report line."""

from __future__ import annotations

import statistics


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def report(label: str, value: float, unit: str, target: float | None = None, *, lower_is_better: bool = True) -> None:
    line = f"  {label:<48} {value:10.3f} {unit}"
    if target is not None:
        ok = value <= target if lower_is_better else value >= target
        ratio = value / target if target else float("nan")
        line += f"   target {'<=' if lower_is_better else '>='} {target:g} {unit}  ratio {ratio:.2f}  {'OK' if ok else 'MISS'}"
    print(line, flush=True)


def latency_report(
    label: str, samples: list[float], target: float | None = None, *, unit: str = "ms",
    tail: float = 95,
) -> None:
    """The median and a tail percentile (p95 unless told), the tail against ``target``."""
    report(f"{label} p50", statistics.median(samples), unit)
    report(f"{label} p{tail:g}", percentile(samples, tail), unit, target)
