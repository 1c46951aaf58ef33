"""Everything the Discord adapter shows: answers, progress, notes -- within Discord's limits.

A core ``Reply`` becomes one or more ``Outgoing`` messages, drawn from its document section by
section, never by parsing Markdown: prose as Discord Markdown (``bot.discord.markdown``), a
repository list as a card per repository in an embed, a comparison table as an embed with a
field per repository, a repository's overview as a facts card. A short answer keeps its prose
as message text above the embeds; a long one puts the prose in embed descriptions (4,096
characters each, 6,000 across the embeds of one message, 10 embeds) before it needs another
message (``bot.discord.outgoing``). Buttons (``bot.discord.buttons``) go on the last message:
plan decisions, suggestions and clarification options, then feedback (at most 5 rows of 5).
Repository text is escaped (``safe``) and nothing we send can ping (``NO_MENTIONS``).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord.utils import escape_markdown

from bot.discord import buttons as btn
from bot.discord.buttons import ButtonSpec
from bot.discord.markdown import to_discord
from bot.discord.outgoing import (
    MAX_CONTENT,
    MAX_DESCRIPTION,
    MAX_FOOTER,
    MAX_FIELD_NAME,
    MAX_FIELD_VALUE,
    MAX_FIELDS,
    MAX_TITLE,
    Outgoing,
    Section,
    clip,
    pack,
)
from bot.rendering import DECIDED, MAX_CARDS, button_rows, card_facts, wants_feedback
from core.models import (
    Action,
    ActionKind,
    ChoicesSection,
    PlanSection,
    RepoCard,
    RepoCardsSection,
    RepoDetailSection,
    ReportSection,
    Reply,
    TableSection,
    TextSection,
)
from core.models.document import (
    plan_heading,
    sources_markdown,
    steps_markdown,
    titled_markdown,
    web_markdown,
    weighed_line,
)

COLOR = discord.Colour(0x2F81F7)

# -- answers ------------------------------------------------------------------------------------


def render_reply(reply: Reply, *, feedback: bool = True) -> list[Outgoing]:
    sections = document_sections(reply)
    listed = [a for a in buttoned(reply.actions) if btn.is_listed(a)]
    if listed:
        sections.append(_choices_embed(listed))
    # a report reads top to bottom: its text goes in embeds between its own, never above them
    messages = pack(sections, reply.footer,
                    in_order=any(isinstance(s, ReportSection) for s in reply.document))
    messages[-1].buttons = button_specs(reply.actions, feedback=feedback and wants_feedback(reply))
    return messages


def document_sections(reply: Reply) -> list[Section]:
    """Each document section as Discord Markdown text or an embed, in reading order."""
    out: list[Section] = []
    for section in reply.document:
        if isinstance(section, TextSection):
            out.append(to_discord(section.markdown))
        elif isinstance(section, RepoCardsSection):
            out.append(repo_cards_embed(section))
        elif isinstance(section, TableSection):
            out.append(table_embed(section))
        elif isinstance(section, RepoDetailSection):
            out.append(detail_embed(section))
        elif isinstance(section, PlanSection):
            out.append(plan_embed(section))
        elif isinstance(section, ReportSection):
            out += report_sections(section)
        elif isinstance(section, ChoicesSection) and section.options and section.hint:
            out.append(section.hint)
    return out


# -- sections as embeds -----------------------------------------------------------------------------


def safe(text: str, limit: int) -> str:
    """Text from a repository (description, topics): no Markdown tricks, clipped."""
    return escape_markdown(clip(" ".join(text.split()), limit))


def repo_cards_embed(section: RepoCardsSection) -> discord.Embed:
    embed = discord.Embed(colour=COLOR, title=clip(section.title, MAX_TITLE) or None)
    for card in section.cards[:MAX_CARDS]:
        embed.add_field(name=clip(f"{card.position}. {card.full_name}", MAX_FIELD_NAME),
                        value=repo_card(card), inline=False)
    if len(section.cards) > MAX_CARDS:
        embed.set_footer(text=f"…and {len(section.cards) - MAX_CARDS} more.")
    return embed


def repo_card(card: RepoCard) -> str:
    facts = card_facts(card, star="★", bold="**", archived="archived", text=lambda t: safe(t, 40))
    lines = [f"[{card.full_name}]({card.html_url}) · " + " · ".join(facts)]
    if card.description.strip():
        lines.append(safe(card.description, 250))
    if card.why and card.why.strip() != card.description.strip():
        lines.append(f"*{safe(card.why, 250)}*")
    return clip("\n".join(lines), MAX_FIELD_VALUE)


def detail_embed(section: RepoDetailSection) -> discord.Embed:
    facts = "\n".join(f"- {fact}" for fact in section.facts)
    description = "\n\n".join(p for p in (safe(section.description, 600), facts) if p)
    return discord.Embed(title=clip(section.full_name, MAX_TITLE), url=section.html_url,
                         colour=COLOR, description=description or None)


def table_embed(section: TableSection) -> discord.Embed:
    """A field per row (Discord has no tables): the first cell names it, the others are lines."""
    embed = discord.Embed(colour=COLOR, title=clip(section.title, MAX_TITLE) or None)
    for row in section.rows[:MAX_FIELDS]:
        first, *cells = row
        name = f"[{first.text}]({first.url})" if first.url else first.text
        lines = [f"{title}: **{cell.text}**" for title, cell in zip(section.header[1:], cells)]
        embed.add_field(name=clip(first.text, MAX_FIELD_NAME),
                        value=clip("\n".join([name, *lines]), MAX_FIELD_VALUE))
    return embed


def plan_embed(section: PlanSection) -> discord.Embed:
    """The goal and why this mode as the description, a field per step, then how to decide."""
    intro = [f"> {section.goal}", f"_Why {section.mode}:_ {section.rationale}", weighed_line(section) or ""]
    embed = discord.Embed(colour=COLOR, title=clip(plan_heading(section), MAX_TITLE),
                          description=clip("\n".join(intro).strip(), MAX_DESCRIPTION))
    for step in section.steps[:MAX_FIELDS - 2]:
        queries = " · ".join(f"`{q}`" for q in step.queries)
        embed.add_field(name=clip(f"{step.number}. {step.kind}", MAX_FIELD_NAME),
                        value=clip("\n".join(p for p in (step.description, queries) if p), MAX_FIELD_VALUE),
                        inline=False)
    if section.feedback:
        embed.add_field(name="Revised for the feedback", value=clip(section.feedback, MAX_FIELD_VALUE), inline=False)
    if section.review:
        embed.add_field(name="Your decision", value=clip(section.review, MAX_FIELD_VALUE), inline=False)
    return embed


def report_sections(section: ReportSection) -> list[Section]:
    """The answer first, in an embed with the confidence and what was not checked as fields; then
    the findings and evidence as text; the sources as linked lines in an embed of their own."""
    answer = discord.Embed(colour=COLOR, title=clip(f"Research report: {section.goal}", MAX_TITLE),
                           description=clip(section.answer, MAX_DESCRIPTION))
    if section.confidence:
        reason = f": {section.confidence_reason}" if section.confidence_reason else ""
        answer.add_field(name="Confidence", value=clip(f"**{section.confidence}**{reason}", MAX_FIELD_VALUE))
    if section.not_checked:
        answer.add_field(name="Not checked", value=clip("; ".join(section.not_checked), MAX_FIELD_VALUE))
    answer.set_footer(text=clip(" · ".join([section.progress, *section.notes]), MAX_FOOTER))
    sources = sources_markdown(section)
    listed = sources.split("\n", 1)[1]
    return [answer, titled_markdown(section.findings), titled_markdown(section.evidence), web_markdown(section),
            steps_markdown(section),
            discord.Embed(colour=COLOR, title="Sources", description=listed)
            if len(listed) <= MAX_DESCRIPTION else sources]


def _choices_embed(listed: Sequence[Action]) -> discord.Embed:
    """Choices too long for a button's custom_id, one per field, so a click can find its text
    again by digest (``buttons.resolve``) in the message Discord sends with the click."""
    embed = discord.Embed(title="Choices", colour=COLOR)
    for i, action in enumerate(listed, 1):
        embed.add_field(name=f"{i}.", value=clip(" ".join(action.value.split()), MAX_FIELD_VALUE),
                        inline=False)
    return embed


# -- buttons ----------------------------------------------------------------------------------------


def buttoned(actions: Sequence[Action]) -> list[Action]:
    return [a for row in button_rows(actions) for a in row]


def button_specs(actions: Sequence[Action], *, feedback: bool) -> list[ButtonSpec]:
    rows = button_rows(actions)
    specs = [ButtonSpec(custom_id=btn.encode(a.kind, a.value), label=btn.clip_label(a.label), row=r,
                        style=a.style or _DECISION_STYLE.get(a.kind)) for r, row in enumerate(rows) for a in row]
    if feedback and len(rows) < btn.MAX_ROWS:
        specs += [
            ButtonSpec(custom_id=btn.encode(ActionKind.FEEDBACK, "helpful"), label="Helpful",
                       emoji="👍", row=len(rows)),
            ButtonSpec(custom_id=btn.encode(ActionKind.FEEDBACK, "wrong"), label="Wrong answer",
                       emoji="👎", row=len(rows)),
        ]
    return specs


_DECISION_STYLE = {ActionKind.APPROVE: "success", ActionKind.CANCEL: "danger"}


# -- notes and progress ------------------------------------------------------------------------------


def note(text: str) -> Outgoing:
    return Outgoing(content=clip(to_discord(text) or "…", MAX_CONTENT))


def chose(user_id: str, text: str) -> Outgoing:
    return Outgoing(content=clip(f"<@{user_id}> chose: **{_inline(text)}**", MAX_CONTENT))


def asked(user_id: str, command: str, text: str) -> Outgoing:
    """The channel message a slash command's thread hangs from."""
    return Outgoing(content=clip(f"<@{user_id}> used `/{command}`: **{_inline(text)}**", MAX_CONTENT))


def _inline(text: str) -> str:
    return escape_markdown(" ".join(text.split()))


def decided_line(kind: ActionKind, user_id: str) -> str:
    icon = {ActionKind.APPROVE: "✅", ActionKind.REVISE: "✏️", ActionKind.CANCEL: "🚫"}
    verb = f"{icon.get(kind, '')} {DECIDED.get(kind, 'Decided')}".strip()
    return f"-# {verb} by <@{user_id}>"


def status(current: str, done: Sequence[str] = (), draft: str = "") -> Outgoing:
    lines = [f"⏳ **{escape_markdown(clip(' '.join(current.split()), 300))}**"]
    lines += [f"-# ✓ {escape_markdown(clip(' '.join(s.split()), 200))}" for s in done[-5:]]
    text = "\n".join(lines)
    if draft.strip():
        room = MAX_CONTENT - len(text) - 4
        tail = draft if len(draft) <= room else "…" + draft[-(room - 1):]
        text = f"{text}\n\n{tail}"
    return Outgoing(content=clip(text, MAX_CONTENT))
