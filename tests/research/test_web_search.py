"""The executor's web search (the ``WebSearch`` seam): cited exactly, never fatal."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.errors import LLMTimeout, LLMUnavailable
from core.models import ActionKind
from core.research import ResearchSettings, build_research_service
from core.research.web_search import WebResult
from tests.fakes.scripted_llm import StaticWebSearch, asks_for, calls_with, scripted_llm
from tests.research.conftest import KEY, QUICK_GOAL, click, deep_plan
from tests.research.fakes import FakeRepoSource

PAGE = WebResult(title="react.dev", url="https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA",
                 snippet="React 19.1 is the latest stable release.")
UNCITED = WebResult(title="npmjs.com", url="https://vertexaisearch.cloud.google.com/grounding-api-redirect/CCC")


class FailingWebSearch:
    """Raises ``error`` (or hangs when it is None) and counts the calls."""

    def __init__(self, error: BaseException | None) -> None:
        self.error = error
        self.calls = 0

    async def search(self, query: str, *, limit: int = 5, context: str = "") -> list[WebResult]:
        self.calls += 1
        if self.error is None:
            await asyncio.sleep(3600)
        raise self.error


def settings(tmp_path: Path, **kwargs: float) -> ResearchSettings:
    return ResearchSettings(data_dir=tmp_path, **kwargs)


async def test_web_pages_are_cited_with_what_they_support(tmp_path: Path) -> None:
    web = StaticWebSearch([PAGE, UNCITED])
    service = build_research_service(settings(tmp_path), FakeRepoSource(), web=web)
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1")
    assert reply.error is None
    text = reply.markdown
    assert f"[react.dev]({PAGE.url})" in text and f"[npmjs.com]({UNCITED.url})" in text
    assert "### From the web" in text
    assert f"- React 19.1 is the latest stable release. ([react.dev]({PAGE.url}))" in text
    assert "web page(s)" in text and "GitHub search only" not in text
    assert web.contexts and "Research goal: latest version of React" in web.contexts[0]
    # every link in the report is a page something actually fetched
    fetched = {s.url for r in (await service.store.get(session_id(reply))).results for s in r.sources}
    links = {part.split(")", 1)[0] for part in text.split("](")[1:]}
    assert links <= fetched


async def test_a_failing_web_search_leaves_github_results_and_a_note(tmp_path: Path) -> None:
    web = FailingWebSearch(LLMUnavailable(503))
    service = build_research_service(settings(tmp_path), FakeRepoSource(), web=web)
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1")
    assert reply.error is None and web.calls == 1
    assert ("_Web search was unavailable (the provider is unavailable), so this report uses GitHub "
            "search only._") in reply.markdown
    assert "web search unavailable: GitHub search only" in reply.markdown  # the step line
    assert "github.com/search?q=react" in reply.markdown and "facebook/react" in reply.markdown
    assert "### From the web" not in reply.markdown


async def test_a_hanging_web_search_is_cut_off_within_the_step(tmp_path: Path) -> None:
    web = FailingWebSearch(None)
    service = build_research_service(settings(tmp_path, step_timeout_seconds=0.5), FakeRepoSource(), web=web)
    reply = await asyncio.wait_for(service.start(QUICK_GOAL, key=KEY, requester="U1"), 10)
    assert reply.error is None
    assert "Web search was unavailable (it timed out)" in reply.markdown
    assert "1. ✓ Search" in reply.markdown  # the step kept its GitHub results


async def test_a_crashing_web_search_does_not_fail_the_research(tmp_path: Path) -> None:
    web = FailingWebSearch(RuntimeError("SDK surprise"))
    service = build_research_service(settings(tmp_path), FakeRepoSource(), web=web)
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1")
    assert reply.error is None and "(it failed unexpectedly)" in reply.markdown


async def test_after_one_failure_later_steps_skip_the_web(tmp_path: Path) -> None:
    web = FailingWebSearch(LLMTimeout())
    service = build_research_service(settings(tmp_path), FakeRepoSource(), web=web)
    plan = await deep_plan(service)
    reply = await service.decide(click(plan, ActionKind.APPROVE, "U1"))
    assert reply.error is None, reply.markdown
    assert web.calls == 1  # three SEARCH steps, one web attempt
    assert "Web search was unavailable (it timed out)" in reply.markdown
    assert reply.markdown.count("web search skipped: GitHub search only") == 2


async def test_web_pages_keep_a_step_alive_when_github_fails(tmp_path: Path) -> None:
    web = StaticWebSearch([PAGE])
    service = build_research_service(settings(tmp_path), FakeRepoSource(fail_search=True), web=web)
    reply = await service.start(QUICK_GOAL, key=KEY, requester="U1")
    assert "1. ✓ Search: no repositories matched these searches" in reply.markdown
    assert PAGE.url in reply.markdown


async def test_web_sentences_reach_the_llm_synthesis(tmp_path: Path) -> None:
    llm = scripted_llm(lambda messages, schema: {"findings": []} if asks_for(schema, "findings")
                       else LLMUnavailable())
    service = build_research_service(settings(tmp_path), FakeRepoSource(), web=StaticWebSearch([PAGE]),
                                     llm=llm)
    await service.start(QUICK_GOAL + " --quick", key=KEY, requester="U1")
    [analyze] = calls_with(llm, "findings")
    assert "Web pages (Google Search)" in analyze[-1].content and PAGE.snippet in analyze[-1].content


def session_id(reply) -> str:  # type: ignore[no-untyped-def]
    return (reply.footer or "").rsplit(" ", 1)[-1]
