"""Research reports open with the answer, in the shape the question asked, offline (the real
snapshot) and over GitHub-like data (the fake source, with activity signals)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import BotApp, build_app
from bot.testing import TestBackend
from core.catalog import Catalog
from core.catalog.source import CatalogSource
from core.errors import LLMUnavailable
from core.llm.client import LLMClient
from core.llm.function import FunctionModel
from core.llm.retry import RetryPolicy
from core.models import ActionKind, CollectingSink, Repository
from core.research import ResearchSettings, build_research_service
from core.research.question import FactKind, Shape, read_question
from tests.research.conftest import KEY, click
from tests.research.fakes import FakeRepoSource

OFFLINE = {"OMG_GITHUB": "offline", "LLM_PROVIDER": "none"}
# figures the offline snapshot never has: a report that states one claims unmeasured evidence
UNMEASURED = re.compile(r"\d[\d,.]*k? (?:commits|contributors|merged|releases)\b|latest release v?\d|"
                        r"first (?:issue )?reply|Maintenance: \d", re.I)
VERDICT = re.compile(r"^\*\*(?:Migrate|Stay on|It depends)")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[BotApp]:
    app = await build_app(env={**OFFLINE, "OMG_DATA_DIR": str(tmp_path)}, memory=True)
    yield app
    await app.aclose()


async def approved_report(bot: TestBackend, goal: str) -> str:
    await bot.research(goal)
    plan = bot.pop_reply()
    assert plan.error is None and plan.actions, plan.markdown
    await bot.click(bot.action(plan, "Approve"))
    return bot.pop_reply().markdown


def answer_of(report: str) -> str:
    """The first paragraph after the title: what the reader sees first."""
    lines = report.splitlines()
    assert lines[0].startswith("## Research report:")
    return lines[1]


def section(report: str, title: str) -> str:
    match = re.search(rf"### {title}\n(.*?)(?:\n\n|\Z)", report, re.S)
    return match.group(1) if match else ""


async def test_redux_to_zustand_opens_with_a_verdict_and_compares_both(app: BotApp) -> None:
    report = await approved_report(TestBackend(app), "Should we migrate from Redux to Zustand? --deep")
    assert VERDICT.match(answer_of(report)), answer_of(report)
    comparison = section(report, "Measured comparison")
    assert "reduxjs/redux" in comparison and "pmndrs/zustand" in comparison and "★" in comparison
    assert "### What would change this answer" in report and "**Confidence:**" in report
    assert "Not checked:" in report and "offline snapshot" in answer_of(report)
    assert not UNMEASURED.search(report), UNMEASURED.search(report)


async def test_jest_to_vitest_offline_names_vitest_as_missing(app: BotApp) -> None:
    report = await approved_report(TestBackend(app), "Should we migrate from Jest to Vitest? --deep")
    first = answer_of(report)
    assert first.startswith("**It depends on data I don't have: Vitest")
    assert "vitest" in section(report, "Missing from the data").lower()
    assert "jestjs/jest" in section(report, "Measured comparison")
    assert not UNMEASURED.search(report)


async def test_a_subject_listed_without_figures_is_named_as_unmeasured(tmp_path: Path) -> None:
    catalog = Catalog.load()

    class WithListOnlyVitest(CatalogSource):
        async def search(self, params, *, sort: str = "stars", limit: int = 30):  # type: ignore[no-untyped-def]
            found = await super().search(params, sort=sort, limit=limit)
            if "vitest" in " ".join(params.keywords + [w for g in params.synonym_groups for w in g]).lower():
                found.append(Repository(full_name="vitest-dev/vitest", description="Next generation testing framework"))
            return found

    service = build_research_service(ResearchSettings(data_dir=tmp_path), WithListOnlyVitest(catalog))
    plan = await service.start("Should we migrate from Jest to Vitest? --deep", key=KEY, requester="U1")
    report = (await service.decide(click(plan, ActionKind.APPROVE, "U1"), CollectingSink())).markdown
    assert answer_of(report).startswith("**It depends on data I don't have: Vitest")
    assert "vitest-dev/vitest is listed in the offline snapshot" in report and "without any figures" in report


@pytest.mark.parametrize(("goal", "opening"), [
    ("latest release of FastAPI", "**The sources at hand can't tell** the latest release of fastapi/fastapi"),
    ("is moment still maintained?", "**Yes: moment/moment was last pushed"),
    ("which react state management library is best for a small team?", "**Pick "),
    ("best feature flag service for a 10 person startup", "**The sources at hand can't tell**: the searches for feature flag"),
    ("rust web frameworks", "**Short answer:**"),
])
async def test_every_quick_report_opens_with_a_direct_answer(app: BotApp, goal: str, opening: str) -> None:
    bot = TestBackend(app)
    await bot.research(goal + " --quick")
    report = bot.pop_reply().markdown
    assert answer_of(report).startswith(opening), answer_of(report)
    assert not UNMEASURED.search(report)


async def test_with_github_signals_the_verdict_uses_measured_activity(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource())
    plan = await service.start("Should we migrate from Redux to Zustand? --deep", key=KEY, requester="U1")
    report = (await service.decide(click(plan, ActionKind.APPROVE, "U1"), CollectingSink())).markdown
    assert VERDICT.match(answer_of(report))
    comparison = section(report, "Measured comparison")
    assert "60 commits in 90 days" in comparison and "3 commits in 90 days" in comparison  # fetched signals
    assert "latest release v5.0.8" in comparison


async def test_a_fetched_release_is_stated_with_its_source(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource())
    report = (await service.start("latest version of React --quick", key=KEY, requester="U1")).markdown
    assert answer_of(report).startswith("**facebook/react's latest release is v19.2.0")
    assert "(source: Releases, issues and activity of facebook/react)" in answer_of(report)


@pytest.mark.parametrize(("goal", "shape", "subjects"), [
    ("Should we migrate from Redux to Zustand?", Shape.MIGRATE, ["redux", "zustand"]),
    ("Is it worth switching from Webpack to Vite for a large app?", Shape.MIGRATE, ["webpack", "vite"]),
    ("Replace Jest with Vitest?", Shape.MIGRATE, ["jest", "vitest"]),
    ("Deno or Bun for a new API server?", Shape.PICK, ["deno", "bun"]),
    ("best vector database for RAG", Shape.PICK, []),
    ("latest release of FastAPI", Shape.FACT, ["fastapi"]),
    ("Impact of AI on medical ethics", Shape.OVERVIEW, ["ai"]),
])
def test_question_shapes(goal: str, shape: Shape, subjects: list[str]) -> None:
    question = read_question(goal)
    assert question.shape is shape and question.subjects[: len(subjects)] == subjects


def test_support_questions_ask_for_a_fact() -> None:
    question = read_question("Does Vite support SSR?")
    assert question.fact is FactKind.SUPPORT and question.subjects == ["vite"] and question.feature == "ssr"


# ---- with a scripted LLM (FunctionModel through the provider contract) ----

def synthesis(answer: str, **extra: object) -> dict[str, object]:
    return {"answer": answer, "trade_offs": [], "risks": [], "would_change": [], "confidence": "medium",
            "confidence_reason": "activity was measured for both [1]", **extra}


async def report_with_llm(tmp_path: Path, reply: object, goal: str = "Should we migrate from Redux to Zustand? --deep",
                          source: object = None) -> tuple[str, FunctionModel]:
    model = FunctionModel(lambda messages, schema: reply)
    service = build_research_service(ResearchSettings(data_dir=tmp_path), source or FakeRepoSource(),
                                     llm=LLMClient(model, retry=RetryPolicy(attempts=1)))
    plan = await service.start(goal, key=KEY, requester="U1")
    report = (await service.decide(click(plan, ActionKind.APPROVE, "U1"), CollectingSink())).markdown
    return report, model


async def test_a_grounded_llm_answer_leads_the_report_and_cites_fetched_sources(tmp_path: Path) -> None:
    answer = ("**Migrate to Zustand.** pmndrs/zustand shows 60 commits in the last 90 days against 3 for "
              "reduxjs/redux [1][2].")
    report, model = await report_with_llm(tmp_path, synthesis(answer))
    assert answer_of(report) == answer
    prompt = next(call.messages[-1].content for call in model.calls
                  if "Sources (cite by number)" in call.messages[-1].content)
    assert "Sources (cite by number)" in prompt and "[1] GitHub search: redux OR zustand" in prompt
    assert "pmndrs/zustand" in section(report, "Measured comparison")  # the measured lines stay


@pytest.mark.parametrize("bad", [
    synthesis("**Migrate to Zustand.** It is clearly better [99]."),  # a source that was not fetched
    synthesis("**Migrate to Zustand.** It is clearly better, everyone says so."),  # no citation at all
    synthesis("**Migrate to Zustand.** pmndrs/zustand has 4,321 contributors [1]."),  # a number not in the facts
    synthesis("**Migrate to Zustand.** Like invented/state-lib, it is lighter [1]."),  # a repository never found
    LLMUnavailable(503),
])
async def test_an_ungrounded_or_failed_llm_answer_falls_back_to_the_measured_verdict(tmp_path: Path, bad: object) -> None:
    report, _ = await report_with_llm(tmp_path, bad)
    assert VERDICT.match(answer_of(report)) and "[99]" not in report and "4,321" not in report
    assert "invented/state-lib" not in report and "reduxjs/redux" in section(report, "Measured comparison")


async def test_an_llm_answer_that_drops_the_missing_subject_is_rejected(tmp_path: Path) -> None:
    report, _ = await report_with_llm(
        tmp_path, synthesis("**Stay on Jest.** jestjs/jest is active and popular [1]."),
        goal="Should we migrate from Jest to Vitest? --deep", source=Catalog.load().source())
    assert answer_of(report).startswith("**It depends on data I don't have: Vitest")


async def test_the_revise_example_in_chat(app: BotApp) -> None:
    bot = TestBackend(app)
    await bot.research("open source feature flag services for a 10 person startup --deep")
    plan = bot.pop_reply()
    assert "`feature flag`" in plan.markdown and "_Weighed for a 10 person startup:_" in plan.markdown
    assert not any(w in q.split() for q in re.findall(r"`([^`]+)`", plan.markdown) for w in ("open", "source", "services"))
    await bot.click(bot.action(plan, "Revise"))
    assert "feedback" in bot.pop_reply().markdown.lower()
    revised = await bot.ask("search for feature flag and feature toggle projects, leave out archived ones")
    assert "`feature flag archived:false`" in revised.markdown and "`feature toggle archived:false`" in revised.markdown
    assert "toggle ones" not in revised.markdown and "`open" not in revised.markdown
    await bot.click(bot.action(revised, "Approve"))
    report = bot.pop_reply().markdown
    assert answer_of(report).startswith(("**Pick", "**The sources at hand can't", "**Short answer"))
