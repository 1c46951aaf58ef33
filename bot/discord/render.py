"""Everything the Discord adapter shows: answers, progress, notes -- within Discord's limits.

A core ``Reply`` becomes one or more ``Outgoing`` messages. The synthesizer's Markdown passes
through (``bot.discord.markdown``: tables become code blocks, long text is split at paragraph
boundaries into parts of at most 2,000 characters); structured data becomes embeds: a
``repo_list`` a card per repository (replacing the Markdown's own listing of the same
repositories), a ``repo_detail`` a facts card, a ``comparison`` a card per repository when the
text has no table. Buttons (``bot.discord.buttons``) go on the last message: plan decisions,
suggestions and clarification options, then feedback (at most 5 rows of 5). Discord's message
limits are enforced by ``bot.discord.outgoing`` (packing), button limits by ``buttons``;
repository text is escaped (``safe``) and nothing we send can ping (``NO_MENTIONS``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord
from discord.utils import escape_markdown

from bot.discord import buttons as btn
from bot.discord.buttons import ButtonSpec
from bot.discord.markdown import to_discord
from bot.discord.outgoing import (
    MAX_CONTENT,
    MAX_FIELD_NAME,
    MAX_FIELD_VALUE,
    MAX_FIELDS,
    MAX_TITLE,
    NO_MENTIONS,
    Outgoing,
    Section,
    clip,
    pack,
)
from bot.rendering import compact, is_plan, lists_repos
from core.models import (
    Action,
    ActionKind,
    Comparison,
    RepoDetailData,
    RepoList,
    Reply,
    ScoredRepository,
)

MAX_CARDS = 10
SUGGESTION_ROWS = 3
COLOR = discord.Colour(0x2F81F7)


# -- answers ------------------------------------------------------------------------------------


def render_reply(reply: Reply, *, feedback: bool = True) -> list[Outgoing]:
    sections = _body(reply)
    listed = [a for a in buttoned(reply.actions) if btn.is_listed(a)]
    if listed:
        sections.append(_choices_embed(listed))
    messages = pack(sections, reply.footer)
    with_feedback = (feedback and reply.error is None and reply.intent is not None
                     and not is_plan(reply))
    messages[-1].buttons = button_specs(reply.actions, feedback=with_feedback)
    return messages


def _body(reply: Reply) -> list[Section]:
    data = reply.structured_data
    text = to_discord(reply.markdown)
    if isinstance(data, RepoList) and data.items:
        return _with_cards(text, data.items)
    if isinstance(data, RepoDetailData):
        return _with_detail(text, data)
    if isinstance(data, Comparison) and data.items and "```" not in text:
        lead, _, rest = text.partition("\n\n")
        return [lead, comparison_embed(data), rest]
    return [text]


def _with_cards(text: str, items: Sequence[ScoredRepository]) -> list[Section]:
    """The cards take the place of the Markdown's own listing of the same repositories."""
    names = [r.full_name.lower() for r in items]
    sections: list[Section] = []
    prose: list[str] = []
    placed = False
    for chunk in re.split(r"\n\s*\n", text):
        if not lists_repos(chunk, names):
            prose.append(chunk)
            continue
        if not placed:
            sections += ["\n\n".join(prose), repo_list_embed(items)]
            prose, placed = [], True
    if not placed:
        first, *rest = prose or [""]
        return [first, repo_list_embed(items), "\n\n".join(rest)]
    return [*sections, "\n\n".join(prose)]


def _with_detail(text: str, data: RepoDetailData) -> list[Section]:
    """The facts card replaces the Markdown's heading-and-facts block for the same repository."""
    chunks = re.split(r"\n\s*\n", text)
    name = data.repo.full_name.lower()
    for i, chunk in enumerate(chunks):
        if chunk.lstrip().startswith("#") and name in chunk.splitlines()[0].lower():
            return ["\n\n".join(chunks[:i]), detail_embed(data), "\n\n".join(chunks[i + 1:])]
    return [detail_embed(data), text]


# -- structured data as embeds ----------------------------------------------------------------------


def safe(text: str, limit: int) -> str:
    """Text from a repository (description, topics): no Markdown tricks, clipped."""
    return escape_markdown(clip(" ".join(text.split()), limit))


def repo_list_embed(items: Sequence[ScoredRepository]) -> discord.Embed:
    embed = discord.Embed(colour=COLOR)
    for i, repo in enumerate(items[:MAX_CARDS], 1):
        embed.add_field(name=clip(f"{i}. {repo.full_name}", MAX_FIELD_NAME),
                        value=repo_card(repo), inline=False)
    if len(items) > MAX_CARDS:
        embed.set_footer(text=f"…and {len(items) - MAX_CARDS} more.")
    return embed


def repo_card(repo: ScoredRepository) -> str:
    facts = [f"★ {compact(repo.stars)}" if repo.figures_known else "no star figures offline"]
    if repo.language:
        facts.append(safe(repo.language, 40))
    if repo.scores.overall:
        facts.append(f"score **{repo.scores.overall:.1f}**/10")
    if repo.archived:
        facts.append("archived")
    lines = [f"[{repo.full_name}]({repo.html_url}) · " + " · ".join(facts)]
    if repo.description.strip():
        lines.append(safe(repo.description, 250))
    if repo.why.strip() and repo.why.strip() != repo.description.strip():
        lines.append(f"*{safe(repo.why, 250)}*")
    return clip("\n".join(lines), MAX_FIELD_VALUE)


def detail_embed(data: RepoDetailData) -> discord.Embed:
    repo = data.repo
    embed = discord.Embed(title=clip(repo.full_name, MAX_TITLE), url=repo.html_url, colour=COLOR,
                          description=safe(repo.description, 600) or None)
    embed.add_field(name="Stars", value=compact(repo.stars) if repo.figures_known else "not measured")
    embed.add_field(name="Forks", value=compact(repo.forks) if repo.figures_known else "not measured")
    embed.add_field(name="Language", value=safe(repo.language or "-", 60))
    if repo.license:
        embed.add_field(name="License", value=safe(repo.license, 60))
    if repo.scores.overall:
        embed.add_field(name="Overall score", value=f"{repo.scores.overall:.1f}/10")
    if repo.recommendation:
        embed.add_field(name="Recommendation", value=str(repo.recommendation.value).title())
    return embed


def comparison_embed(data: Comparison) -> discord.Embed:
    embed = discord.Embed(colour=COLOR, title="Side by side")
    for row in data.items[:MAX_FIELDS]:
        repo = row.repo
        stars = f"★ {compact(repo.stars)}" if repo.figures_known else "no star figures offline"
        lines = [f"{stars} · {safe(repo.language or '-', 40)}"]
        if repo.scores.overall:
            lines.append(f"overall **{repo.scores.overall:.1f}**/10")
        if row.fit is not None:
            lines.append(f"fit for the need **{row.fit:.1f}**/10")
        lines += [f"+ {safe(h, 150)}" for h in row.highlights[:2]]
        lines += [f"- {safe(w, 150)}" for w in row.warnings[:2]]
        name = f"{repo.full_name}{' ✓' if data.recommended == repo.full_name else ''}"
        embed.add_field(name=clip(name, MAX_FIELD_NAME), value=clip("\n".join(lines), MAX_FIELD_VALUE))
    return embed


def _choices_embed(listed: Sequence[Action]) -> discord.Embed:
    """Choices too long for a button's custom_id, one per field, so a click can find its text
    again by digest (``buttons.resolve``) in the message Discord sends with the click."""
    embed = discord.Embed(title="Choices", colour=COLOR)
    for i, action in enumerate(listed, 1):
        embed.add_field(name=f"{i}.", value=clip(" ".join(action.value.split()), MAX_FIELD_VALUE),
                        inline=False)
    return embed


# -- buttons ----------------------------------------------------------------------------------------


def _split_actions(actions: Sequence[Action]) -> tuple[list[Action], list[Action]]:
    """(plan decisions, suggestions and options) that get buttons, within the row budget."""
    decisions = [a for a in actions if a.kind in btn.DECISIONS][: btn.PER_ROW]
    others = _unique([a for a in actions
                      if a.kind not in btn.DECISIONS and a.kind is not ActionKind.FEEDBACK])
    return decisions, others[: SUGGESTION_ROWS * btn.PER_ROW]


def buttoned(actions: Sequence[Action]) -> list[Action]:
    decisions, others = _split_actions(actions)
    return decisions + others


def button_specs(actions: Sequence[Action], *, feedback: bool) -> list[ButtonSpec]:
    specs: list[ButtonSpec] = []
    row = 0
    decisions, others = _split_actions(actions)
    if decisions:
        specs += [_spec(a, row, a.style or _DECISION_STYLE.get(a.kind)) for a in decisions]
        row += 1
    for start in range(0, len(others), btn.PER_ROW):
        specs += [_spec(a, row, a.style) for a in others[start : start + btn.PER_ROW]]
        row += 1
    if feedback and row < btn.MAX_ROWS:
        specs += [
            ButtonSpec(custom_id=btn.encode(ActionKind.FEEDBACK, "helpful"), label="Helpful",
                       emoji="👍", row=row),
            ButtonSpec(custom_id=btn.encode(ActionKind.FEEDBACK, "wrong"), label="Wrong answer",
                       emoji="👎", row=row),
        ]
    return specs


_DECISION_STYLE = {ActionKind.APPROVE: "success", ActionKind.CANCEL: "danger"}


def _spec(action: Action, row: int, style: str | None) -> ButtonSpec:
    return ButtonSpec(custom_id=btn.encode(action.kind, action.value),
                      label=btn.clip_label(action.label), style=style, row=row)


def _unique(actions: list[Action]) -> list[Action]:
    seen: set[str] = set()
    out: list[Action] = []
    for a in actions:
        custom_id = btn.encode(a.kind, a.value)
        if custom_id not in seen:
            seen.add(custom_id)
            out.append(a)
    return out


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
    verb = {ActionKind.APPROVE: "✅ Approved", ActionKind.REVISE: "✏️ Revision requested",
            ActionKind.CANCEL: "🚫 Cancelled"}.get(kind, "Decided")
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
