"""Replies for the turns that did not go to plan: empty results, agent errors, timeouts, bad data."""

from __future__ import annotations

from core.agents.base import AgentResult
from core.models import Intent, RepoList
from core.synth.base import SynthesisContext
from core.synth.format import sentence, truncate
from core.synth.repo_list import describe_query
from core.synth.render_context import RenderContext

DOING: dict[Intent, str] = {
    Intent.SEARCH: "searching",
    Intent.ANALYZE: "analyzing that repository",
    Intent.COMPARE: "comparing those repositories",
    Intent.CHAT: "putting together a reply",
    Intent.CLARIFY: "working out what you meant",
}

INVALID_DATA = (
    "Sorry, something went wrong on my side: I received data in a format I didn't expect "
    "(invalid data format from an agent), so I can't show it. Please try again, or rephrase "
    "your request."
)
INTERNAL = "Sorry, something went wrong on my side while writing the answer. Please try again."
TIMEOUT_CODES = {"timeout", "llm_timeout"}
RATE_LIMIT_CODES = {"rate_limited", "llm_rate_limited"}


def empty_results(
    data: RepoList | None, ctx: SynthesisContext, alternatives: list[tuple[str, str]], rc: RenderContext
) -> str:
    """No repositories matched: say so and show what to try instead."""
    if ctx.intent is Intent.ANALYZE:
        return (
            "I couldn't find that repository. Check the name (the *owner/name* form, like "
            "*pmndrs/zustand*, is the surest), or search for it first."
        )
    if ctx.intent is Intent.COMPARE:
        return (
            "I couldn't find the repositories to compare. Name two or more, like "
            "*compare zustand vs redux*, or run a search first and say *compare the first two*."
        )
    target = describe_query(data, rc) if data is not None else ctx.message
    source = data.meta.source if data is not None and data.meta is not None else None
    where = {"catalog": "in the offline catalog", "github": "on GitHub"}.get(source or "")
    lines = [f"Nothing {where} fits *{truncate(target, 120)}*." if where
             else f"I couldn't find any repositories matching *{truncate(target, 120)}*."]
    if alternatives:
        tries = [f"- {kind}: *{query}*" for kind, query in alternatives]
        lines.append("Try one of these:\n" + "\n".join(tries))
    else:
        lines.append("Try broader keywords, a different language, or fewer filters.")
    return "\n\n".join(lines)


def _reason(result: AgentResult, ctx: SynthesisContext) -> str:
    if result.error_code in TIMEOUT_CODES:
        return f"the {'search' if ctx.intent is Intent.SEARCH else 'work'} timed out"
    if result.error_code in RATE_LIMIT_CODES:
        return "GitHub's rate limit (a cap on requests per hour) cut the work short"
    return "I ran into a problem before finishing"


def partial_lead(result: AgentResult, ctx: SynthesisContext) -> str:
    """'Here are partial results (search timed out). Try refining your query.'"""
    lead = f"Here are partial results ({_reason(result, ctx)})."
    if result.error and result.error_code not in TIMEOUT_CODES:
        lead += f" {sentence(truncate(result.error, 300))}"
    return f"{lead} Try refining your query for a complete answer."


def error_message(result: AgentResult, ctx: SynthesisContext) -> str:
    """An agent error with nothing to show: a friendly sentence, never a traceback."""
    doing = DOING.get(ctx.intent, "working on that")
    if result.error_code in TIMEOUT_CODES:
        return (
            f"Sorry, {doing} took too long, so I stopped. Try refining your query "
            "(more specific words, or fewer filters) and ask again."
        )
    detail = sentence(truncate(result.error or "", 300))
    text = f"Sorry, I ran into a problem while {doing}."
    if detail:
        text += f" {detail}"
    if "try" not in (result.error or "").lower():
        text += " Please try again."
    return text
