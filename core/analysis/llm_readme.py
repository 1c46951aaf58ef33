"""README compression by the LLM (the ``core.analysis.readme.ReadmeCompressor`` seam).

A README over 2,000 characters becomes a summary that keeps what a user evaluating the project
needs: what it is, key features, installation, a usage example. On any LLM failure the local
compressor (extractive by default) answers; if that fails too, ``compress_readme`` truncates.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.analysis.readme import ExtractiveCompressor, ReadmeCompressor
from core.errors import LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user

MAX_INPUT_CHARS = 8000

SYSTEM_PROMPT = (
    "You summarize GitHub README files for engineers choosing a library. Keep: what the project "
    "is (one sentence), its key features (short bullets), how to install it (the command), and "
    "one minimal usage example (a short code block). Use only facts from the README; no "
    "marketing, no badges, no links lists. Write Markdown of at most {max_chars} characters "
    'and return JSON {{"summary": "<markdown>"}}.'
)


class ReadmeSummary(BaseModel):
    summary: str = Field(min_length=1)


class LLMReadmeCompressor:
    def __init__(
        self,
        client: LLMClient,
        *,
        fallback: ReadmeCompressor | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.client = client
        self.fallback = fallback or ExtractiveCompressor()
        self.timeout = timeout

    async def compress(self, readme: str, *, max_chars: int) -> str:
        request = StructuredRequest(
            task="readme",
            messages=[
                system(SYSTEM_PROMPT.format(max_chars=max_chars)),
                user(readme[:MAX_INPUT_CHARS]),
            ],
            schema=ReadmeSummary,
            timeout=self.timeout,
            max_output_tokens=max(200, max_chars // 2),
        )
        try:
            summary = (await self.client.run(request)).output.summary.strip()
        except LLMError:
            summary = ""
        if not summary:
            return await self.fallback.compress(readme, max_chars=max_chars)
        return summary
