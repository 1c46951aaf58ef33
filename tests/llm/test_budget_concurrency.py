"""The daily spend is never lost: concurrent calls, and several processes sharing one directory."""

from __future__ import annotations

import asyncio
import random
from datetime import date
from pathlib import Path

from core.llm.budget import DailyBudget, read_spend

DAY = date(2026, 3, 1)


def prices(count: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.randint(1, 4096) / 2**20 for _ in range(count)]  # binary fractions: any order sums exactly


async def test_concurrent_calls_are_all_counted_in_20_of_20_runs(tmp_path: Path) -> None:
    exact = 0
    for run in range(20):
        budget = DailyBudget(1.0, path=tmp_path / str(run), today=lambda: DAY)
        priced = prices(24, run)
        await asyncio.gather(*(budget.add("T1", usd) for usd in priced))
        exact += read_spend(tmp_path / str(run), DAY) == {"T1": sum(priced)}
        assert budget.spent("T1") == sum(priced)
    assert exact == 20


async def test_two_processes_sharing_the_directory_add_up(tmp_path: Path) -> None:
    # two DailyBudget objects stand for two bot processes (each has its own memory, one file)
    first, second = (DailyBudget(None, path=tmp_path, today=lambda: DAY) for _ in range(2))
    priced = prices(30, 7)
    await asyncio.gather(*(budget.add("T1", usd) for budget, usd in zip([first, second] * 15, priced)))
    assert read_spend(tmp_path, DAY) == {"T1": sum(priced)}
