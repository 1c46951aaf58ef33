"""A research process that can be killed mid-plan (run by test_resume.py).

    python -m tests.research.run_session DATA_DIR CALL_LOG

Plans a Deep Probe, approves it as its requester and executes it against a slow fake source,
printing the session id first. Every source call is appended to CALL_LOG.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from core.models import ActionClick, ActionKind
from core.research import ResearchSettings, build_research_service
from tests.research.conftest import DEEP_GOAL, KEY
from tests.research.fakes import FakeRepoSource


async def main(data_dir: Path, call_log: Path) -> None:
    service = build_research_service(
        ResearchSettings(data_dir=data_dir), FakeRepoSource(latency=0.25, log_path=call_log)
    )
    plan = await service.start(DEEP_GOAL, key=KEY, requester="U1")
    print(plan.actions[0].value.split(":")[0], flush=True)
    await service.decide(ActionClick(key=KEY, kind=ActionKind.APPROVE, value=plan.actions[0].value, user="U1"))
    print("finished", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
