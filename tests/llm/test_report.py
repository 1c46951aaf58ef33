"""What ``omg stats`` shows: providers, prices, spend per workspace against the budget."""

from __future__ import annotations

from datetime import date

from core.llm import LLMMetrics
from core.llm.report import llm_report, render_report
from core.llm.settings import LLMSettings

KEY = "sk-abcdefghijklmnopqrstuvwxyz"


def test_report_shows_spend_against_budget_and_never_the_key() -> None:
    settings = LLMSettings.from_env({"DEEPSEEK_API_KEY": KEY, "LLM_DAILY_BUDGET_USD": "0.5"})
    metrics = LLMMetrics()
    metrics.incr("classify", "local", 9)
    metrics.incr("classify", "escalated", 1)
    report = llm_report(settings, {"T1": 0.2, "T2": 0.7}, metrics=metrics, day=date(2026, 3, 1))
    assert report["spend_today_usd"]["T1"] == {"spent": 0.2, "remaining": 0.3, "over_budget": False}
    assert report["spend_today_usd"]["T2"]["over_budget"] is True
    assert report["prices_usd_per_million_tokens"] == {"deepseek-chat": [0.28, 0.42]}
    assert report["cascade_llm_share"] == 0.1
    text = render_report(report)
    assert "deepseek-chat" in text and "$0.3000 left" in text and "local paths serve" in text
    assert KEY not in text and KEY not in str(report)


def test_report_without_providers() -> None:
    text = render_report(llm_report(LLMSettings.from_env({}), {}, day=date(2026, 3, 1)))
    assert "none (local paths)" in text and "nothing yet" in text
