"""A plain summary of the LLM setup and spend (what ``omg stats`` prints; never a key)."""

from __future__ import annotations

from datetime import date

from core.llm.budget import utc_today
from core.llm.metrics import LLMMetrics
from core.llm.pricing import PriceTable
from core.llm.settings import NONE, LLMSettings


def llm_report(
    settings: LLMSettings,
    spend: dict[str, float],
    *,
    prices: PriceTable | None = None,
    metrics: LLMMetrics | None = None,
    day: date | None = None,
) -> dict:
    prices = prices or PriceTable.from_json(settings.prices_json)
    limit = settings.daily_budget_usd
    models = {settings.providers[p].model for p in
              (settings.classifier_provider, settings.general_provider, settings.research_provider)
              if p != NONE}
    report: dict = {
        "providers": settings.describe(),
        "prices_usd_per_million_tokens": {
            m: [p.input_per_million, p.output_per_million] if (p := prices.price(m)) else None
            for m in sorted(models)
        },
        "daily_budget_usd_per_workspace": limit,
        "day_utc": (day or utc_today()).isoformat(),
        "spend_today_usd": {
            workspace: {
                "spent": round(usd, 6),
                "remaining": None if limit is None else round(max(0.0, limit - usd), 6),
                "over_budget": limit is not None and usd >= limit,
            }
            for workspace, usd in sorted(spend.items())
        },
    }
    if metrics is not None:
        report["metrics"] = metrics.snapshot()
        report["cascade_llm_share"] = round(metrics.llm_share("classify"), 4)
    return report


def render_report(report: dict) -> str:
    lines = ["LLM providers:"]
    lines += [f"  {task:<11} {what}" for task, what in report["providers"].items()]
    prices = report["prices_usd_per_million_tokens"]
    if prices:
        lines.append("Prices (USD per 1M tokens, input / output):")
        for model, pair in prices.items():
            shown = f"${pair[0]:.3f} / ${pair[1]:.3f}" if pair else "unknown (set LLM_PRICES)"
            lines.append(f"  {model:<24} {shown}")
    limit = report["daily_budget_usd_per_workspace"]
    lines.append(f"Daily budget per workspace: {'unlimited' if limit is None else f'${limit:.2f}'}")
    spend = report["spend_today_usd"]
    lines.append(f"Spend on {report['day_utc']} (UTC):" if spend else
                 f"Spend on {report['day_utc']} (UTC): nothing yet")
    for workspace, row in spend.items():
        status = " (budget spent: local paths serve)" if row["over_budget"] else ""
        left = "" if row["remaining"] is None else f", ${row['remaining']:.4f} left"
        lines.append(f"  {workspace:<24} ${row['spent']:.4f}{left}{status}")
    return "\n".join(lines)
