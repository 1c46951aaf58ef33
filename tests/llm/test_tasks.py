"""README compression, the narrative, the text judge and research, each with its local fallback."""

from __future__ import annotations

from datetime import UTC, datetime

from core.analysis.readme import TRUNCATION_MARK, compress_readme
from core.errors import LLMUnavailable
from core.llm import FunctionModel
from core.analysis.llm_narrator import LLMNarrator, ungrounded_numbers
from core.analysis.llm_readme import LLMReadmeCompressor
from core.search.llm_text_scores import LLMTextScorer
from core.models import RepositoryDetail, Repository, SearchParams
from core.research.analyzer import LLMModeAnalyzer, LocalModeAnalyzer
from core.models.research import ResearchMode
from core.sources.base import SourceInfo
from tests.fakes.gemini_server import FakeGeminiServer
from tests.llm.conftest import Sleeps, make_client

LONG_README = "# Zustand\n\nA small, fast state management library for React.\n\n" + (
    "## Install\n\n```\nnpm install zustand\n```\n\n" + "Lorem ipsum dolor sit amet. " * 120
)
NOW = datetime(2026, 3, 1, tzinfo=UTC)
SOURCE = SourceInfo(kind="github", label="GitHub")


def client_for(*steps, responder=None):
    model = FunctionModel(responder) if responder else FunctionModel.script(*steps)
    return make_client(model, sleeps=Sleeps()), model


async def test_readme_summary_from_the_llm() -> None:
    client, model = client_for({"summary": "# Zustand\nSmall React state.\n`npm install zustand`"})
    out = await compress_readme(LONG_README, LLMReadmeCompressor(client))
    assert out.startswith("# Zustand") and "npm install zustand" in out
    prompt = model.calls[0].messages
    assert "2000 characters" in prompt[0].content and prompt[1].content.startswith("# Zustand")


async def test_readme_llm_failure_uses_the_local_compressor() -> None:
    client, _ = client_for(*[LLMUnavailable(500)] * 3)
    out = await compress_readme(LONG_README, LLMReadmeCompressor(client))
    assert "npm install zustand" in out and len(out) <= 2000
    assert client.metrics.count("readme", "unavailable") == 1


async def test_readme_truncates_when_everything_fails() -> None:
    class Broken:
        async def compress(self, readme: str, *, max_chars: int) -> str:
            raise RuntimeError("boom")

    client, _ = client_for("not json at all", "still not json")
    out = await compress_readme(LONG_README, LLMReadmeCompressor(client, fallback=Broken()))
    assert out.endswith(TRUNCATION_MARK.strip()) and len(out) <= 2000


def detail() -> RepositoryDetail:
    return RepositoryDetail(
        full_name="pmndrs/zustand", description="Bear necessities for state management",
        stars=48213, forks=1500, language="TypeScript", findings=["Releases every month"],
    )


async def test_narrative_from_the_llm() -> None:
    text = "Zustand is a TypeScript state library with 48,213 stars and 1500 forks. Watch it."
    client, model = client_for({"analysis": text})
    assert await LLMNarrator(client).narrate(detail(), source=SOURCE, now=NOW) == text
    assert '"stars": 48213' in model.calls[0].messages[1].content


async def test_narrative_with_invented_numbers_falls_back() -> None:
    client, _ = client_for({"analysis": "Zustand has 97,000 stars and a 73% merge rate, great."})
    text = await LLMNarrator(client).narrate(detail(), source=SOURCE, now=NOW)
    assert "97,000" not in text and "zustand" in text.lower()
    assert client.metrics.count("narrative", "ungrounded") == 1


async def test_narrative_llm_down_gives_the_deterministic_text() -> None:
    client, _ = client_for(*[LLMUnavailable(503)] * 3)
    text = await LLMNarrator(client).narrate(detail(), source=SOURCE, now=NOW)
    assert text and "zustand" in text.lower()


def test_ungrounded_numbers() -> None:
    facts = '{"stars": 48213, "score": 7.5, "date": "2025-01-02"}'
    assert ungrounded_numbers("48,213 stars, 7.5/10, since 2025, 3 weeks", facts) == []
    assert ungrounded_numbers("about 50,000 stars and 88%", facts) == ["50,000", "88"]


REPO = Repository(full_name="pmndrs/zustand", description="state management", topics=["react"])


async def test_text_scores_from_the_llm_and_cached() -> None:
    answer = {"documentation": {"score": 8, "reason": "install and usage shown"},
              "ease_of_use": {"score": 9, "reason": "one-line store"},
              "relevance": {"score": 7.5, "reason": "React state"}}
    client, model = client_for(answer)
    scorer = LLMTextScorer(client)
    params = SearchParams(text="react state management")
    scores = await scorer.score_text(REPO, None, params, LONG_README)
    assert (scores.documentation.score, scores.ease_of_use.score, scores.relevance.score) == (8, 9, 7.5)
    assert "LLM judge" in scores.relevance.reason
    again = await scorer.score_text(REPO, None, params, LONG_README)
    assert again == scores and len(model.calls) == 1
    assert "QUERY: react state management" in model.calls[0].messages[1].content


async def test_text_scores_only_judge_what_the_text_allows() -> None:
    client, model = client_for({"documentation": {"score": 2, "reason": "x"},
                                "relevance": {"score": 6, "reason": "matches"}})
    scores = await LLMTextScorer(client).score_text(REPO, None, SearchParams(text="state"), None)
    assert scores.documentation is None and scores.relevance.score == 6
    nothing = await LLMTextScorer(client).score_text(REPO, None, None, None)
    assert len(model.calls) == 1 and nothing.relevance is None  # no README, no query: no call


async def test_text_scores_fall_back_to_heuristics() -> None:
    client, _ = client_for(*[LLMUnavailable(500)] * 3)
    scores = await LLMTextScorer(client).score_text(REPO, None, SearchParams(text="state"), LONG_README)
    assert scores.documentation is not None and "LLM" not in scores.documentation.reason


async def test_research_analyzer_through_gemini() -> None:
    from core.llm.gemini import GeminiModel

    async with FakeGeminiServer() as server:
        server.push_json({"mode": "deep_probe", "rationale": "It weighs trade-offs. More text."})
        model = GeminiModel(api_key="test-key", base_url=server.base_url)
        client = make_client(model, sleeps=Sleeps())
        analyzer = LLMModeAnalyzer(client, LocalModeAnalyzer(), timeout=2)
        decision = await analyzer.analyze("Impact of AI on medical ethics")
        await client.aclose()
    assert decision.mode is ResearchMode.DEEP_PROBE and decision.source == "llm"
    assert decision.rationale == "It weighs trade-offs."
    assert server.requests[0]["generationConfig"]["responseMimeType"] == "application/json"
    assert client.metrics.count("research_analyze", "ok") == 1


async def test_research_analyzer_falls_back_locally_when_the_llm_fails() -> None:
    client, _ = client_for(*[LLMUnavailable(500)] * 3)
    analyzer = LLMModeAnalyzer(client, LocalModeAnalyzer(), timeout=2)
    decision = await analyzer.analyze("latest release of react")
    assert decision.source == "local" and decision.mode is ResearchMode.QUICK_SCAN
