"""The Auditor's narrative analysis by the LLM (the ``core.analysis.narrative.Narrator`` seam).

The model gets the measured facts (and the deterministic draft) and rewrites them as a few
readable sentences. It must not invent numbers: every number in its text has to appear in the
facts, or the deterministic analysis is used instead (counted as ``narrative.ungrounded``).
"""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime

from pydantic import BaseModel, Field

from core.analysis.narrative import Narrator, render_analysis
from core.errors import LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.llm.parsing import truncate_for_log
from core.models import RepositoryDetail
from core.sources.base import SourceInfo

log = logging.getLogger("omg.llm.narrative")

SYSTEM_PROMPT = """You write the analysis paragraph of a GitHub repository report for engineers.
You get FACTS (JSON, measured) and a DRAFT built from them. Rewrite the draft as 3-6 clear
sentences of Markdown prose (no headings, no bullet lists): what the project is, how active and
how well maintained it is, who is around it, and the verdict with its main reason.
Rules: use ONLY the facts; never invent or compute new numbers (copy numbers exactly as they
appear in the facts); say plainly when a fact is missing; keep the verdict given in the facts.
Return JSON {"analysis": "<markdown>"}."""

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SMALL = 12  # "3 weeks", "2 years", "one of 5": small counts may be phrased freely


class Narrative(BaseModel):
    analysis: str = Field(min_length=20)


def facts_of(detail: RepositoryDetail, source: SourceInfo, now: datetime) -> dict:
    data = detail.model_dump(mode="json", exclude_none=True,
                             exclude={"scores": {"reasons"}, "url": True})
    data["source"] = source.label or source.kind
    data["today"] = now.date().isoformat()
    if detail.readme_summary:
        data["readme_summary"] = detail.readme_summary[:1500]
    return data


def ungrounded_numbers(text: str, facts: str) -> list[str]:
    """Numbers in ``text`` that the facts do not contain (digits compared without separators)."""
    known = {n.replace(",", "") for n in _NUMBER.findall(facts)}
    missing = []
    for raw in _NUMBER.findall(text):
        number = raw.replace(",", "")
        try:
            if float(number) <= _SMALL:
                continue
        except ValueError:
            pass
        if number not in known:
            missing.append(raw)
    return missing


class LLMNarrator:
    def __init__(self, client: LLMClient, *, fallback: Narrator | None = None,
                 timeout: float = 10.0) -> None:
        self.client = client
        self.fallback = fallback
        self.timeout = timeout

    async def narrate(self, detail: RepositoryDetail, *, source: SourceInfo, now: datetime) -> str:
        draft = render_analysis(detail, source=source, now=now)
        facts = json.dumps(facts_of(detail, source, now), ensure_ascii=False, default=str)
        request = StructuredRequest(
            task="narrative",
            messages=[system(SYSTEM_PROMPT), user(f"FACTS:\n{facts}\n\nDRAFT:\n{draft}")],
            schema=Narrative,
            timeout=self.timeout,
            max_output_tokens=600,
        )
        try:
            text = (await self.client.run(request)).output.analysis.strip()
        except LLMError:
            return await self._local(detail, source, now, draft)
        invented = ungrounded_numbers(text, facts + " " + draft)
        if invented:
            self.client.metrics.incr("narrative", "ungrounded")
            log.warning("llm narrative used numbers not in the facts; deterministic analysis",
                        extra={"repo": detail.full_name, "numbers": invented[:5],
                               "output": truncate_for_log(text)})
            return await self._local(detail, source, now, draft)
        return text

    async def _local(self, detail: RepositoryDetail, source: SourceInfo, now: datetime,
                     draft: str) -> str:
        if self.fallback is None:
            return draft
        return await self.fallback.narrate(detail, source=source, now=now)
