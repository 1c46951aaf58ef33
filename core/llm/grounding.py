"""Gemini grounded on Google Search (``google-genai``): a web search whose sources are exactly
the pages Google returned.

``GroundedGeminiModel`` is a ``core.llm`` ``Model``: one ``generate_content`` call with
``tools=[Tool(google_search=GoogleSearch())]`` (no JSON schema: Gemini 2.x does not combine
response schemas with the search tool). Its "structured output" is not the model's text but a
``GroundedAnswer`` built from the candidate's ``grounding_metadata``:

    grounding_chunks[i].web {uri, title}   -> GroundedSource(url, title)   (the only URLs kept)
    grounding_supports[j] {segment, grounding_chunk_indices, confidence_scores}
                                          -> the answer sentence, filed under its best chunk
    web_search_queries                    -> GroundedAnswer.queries

So ``LLMClient.run(StructuredRequest(schema=GroundedAnswer, ...))`` gives grounded search the
same timeout, retries, breaker, daily budget and cost records as every other LLM call, and no
URL can reach a report unless Google's grounding metadata named it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from google.genai import types
from pydantic import BaseModel

from core.llm.contract import GroundedAnswer, GroundedSource, ModelResponse, TokenUsage
from core.llm.gemini_base import GeminiAdapter, response_text


class GroundedGeminiModel(GeminiAdapter):
    """A ``Model`` whose output is a ``GroundedAnswer`` JSON document (whatever ``schema`` says)."""

    def _config(self, schema: type[BaseModel]) -> dict[str, Any]:
        return {"tools": [types.Tool(google_search=types.GoogleSearch())]}

    def _read(self, response: types.GenerateContentResponse) -> ModelResponse:
        usage = response.usage_metadata
        input_tokens = output_tokens = 0
        if usage is not None:
            # The search results Gemini read count as prompt tokens (tool_use_prompt_token_count).
            input_tokens = (usage.prompt_token_count or 0) + (usage.tool_use_prompt_token_count or 0)
            output_tokens = (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0)
        return ModelResponse(
            text=grounded_answer(response).model_dump_json(),
            usage=TokenUsage(input_tokens, output_tokens),
            model=response.model_version or self.model_name,
        )


def grounded_answer(response: types.GenerateContentResponse) -> GroundedAnswer:
    """The answer text, Google's queries and the web sources, from the first candidate."""
    candidate = (response.candidates or [None])[0]
    metadata = candidate.grounding_metadata if candidate is not None else None
    answer = GroundedAnswer(answer=response_text(response))
    if metadata is None:
        return answer
    answer.queries = [q for q in metadata.web_search_queries or [] if q]
    by_url: dict[str, GroundedSource] = {}
    chunk_source: dict[int, GroundedSource] = {}
    for index, chunk in enumerate(metadata.grounding_chunks or []):
        web = chunk.web
        if web is None or not web.uri or not web.uri.startswith(("https://", "http://")):
            continue
        source = by_url.get(web.uri)
        if source is None:
            title = (web.title or web.domain or urlsplit(web.uri).hostname or web.uri).strip()
            source = by_url[web.uri] = GroundedSource(url=web.uri, title=title)
        chunk_source[index] = source
    for support in metadata.grounding_supports or []:
        best = _best_chunk(support, chunk_source)
        claim = _segment_text(support.segment, answer.answer)
        if best is not None and claim and claim not in best.claims:
            best.claims.append(claim)
    answer.sources = list(by_url.values())
    return answer


def _best_chunk(support: types.GroundingSupport, sources: dict[int, GroundedSource]) -> GroundedSource | None:
    """The support's most confident chunk that is a web page (the first one without scores)."""
    indices = support.grounding_chunk_indices or []
    scores = support.confidence_scores or []
    ranked = sorted(
        range(len(indices)),
        key=lambda i: -(scores[i] if i < len(scores) and scores[i] is not None else 0.0),
    )
    for i in ranked:
        if indices[i] in sources:
            return sources[indices[i]]
    return None


def _segment_text(segment: types.Segment | None, answer: str) -> str:
    """The supported sentence: ``segment.text``, else the byte range of the answer it marks."""
    if segment is None:
        return ""
    if segment.text:
        return " ".join(segment.text.split())
    if segment.end_index is None:
        return ""
    data = answer.encode("utf-8")
    piece = data[segment.start_index or 0: segment.end_index].decode("utf-8", errors="ignore")
    return " ".join(piece.split())
