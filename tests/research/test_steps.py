"""A research step's searches cite what fits: not a weak match, nor a list of which none is a sure fit."""

from __future__ import annotations

from datetime import UTC, datetime

from core.catalog import Catalog
from core.models.research import PlanStep, ResearchSession, StepType
from core.research import ResearchSettings
from core.research.steps import StepContext, run_search
from tests.research.conftest import KEY


async def searched(*queries: str) -> list[str]:
    ctx = StepContext(session=ResearchSession(id="s", query="goal", requester="U1", key=KEY),
                      source=Catalog.load().source(), settings=ResearchSettings())
    step = PlanStep(step_id=1, type=StepType.SEARCH, description="map the landscape", search_queries=list(queries))
    result = await run_search(step, ctx, datetime.now(UTC))
    return [repo.full_name for repo in result.repos]


async def test_a_search_whose_closest_matches_are_no_sure_fit_cites_none_of_them() -> None:
    # the Search Team heads such lists "Nothing fits ... clearly": Tasmota and Flipper Zero firmware,
    # a general collection manager, had been cited
    assert await searched("firmware for espresso machines") == []
    assert await searched("app to catalogue my LEGO collection and track which sets are complete") == []
    assert "pmndrs/zustand" in await searched("react state management")
    assert "BurntSushi/ripgrep" in await searched("a faster grep")
