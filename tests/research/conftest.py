"""Research fixtures: a file-backed service over a fake repository source, and chat helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.models import ActionClick, ActionKind, CollectingSink, ConversationKey, Reply
from core.research import ResearchService, ResearchSettings, build_research_service
from core.store.research import FileResearchStore
from tests.research.fakes import FakeRepoSource

KEY = ConversationKey(platform="test", channel="C1", thread="T1")
DEEP_GOAL = "Should our team migrate from Redux to Zustand for a large React app?"
QUICK_GOAL = "latest version of React"


@pytest.fixture
def settings(tmp_path: Path) -> ResearchSettings:
    return ResearchSettings(data_dir=tmp_path, admins=frozenset({"ADMIN"}), step_timeout_seconds=5.0)


@pytest.fixture
def source() -> FakeRepoSource:
    return FakeRepoSource()


@pytest.fixture
def service(settings: ResearchSettings, source: FakeRepoSource) -> ResearchService:
    return build_research_service(settings, source, store=FileResearchStore(settings.data_dir))


def click(reply: Reply, kind: ActionKind, user: str, *, value: str | None = None) -> ActionClick:
    plan_value = value if value is not None else next(a.value for a in reply.actions if a.kind is kind)
    return ActionClick(key=KEY, kind=kind, value=plan_value, user=user)


def session_id_of(reply: Reply) -> str:
    return reply.actions[0].value.split(":", 1)[0]


async def deep_plan(service: ResearchService, user: str = "U1") -> Reply:
    reply = await service.start(DEEP_GOAL, key=KEY, requester=user, mode=None, progress=CollectingSink())
    assert reply.error is None and len(reply.actions) == 3, reply.markdown
    return reply
