"""Everything the Discord adapter shows: answers, progress, notes -- within Discord's limits.

A core ``Reply`` becomes one or more ``Outgoing`` messages. The synthesizer's Markdown passes
through (``bot.discord.markdown``: tables become code blocks, long text is split at paragraph
boundaries into parts of at most 2,000 characters); structured data becomes embeds: a
``repo_list`` a card per repository (replacing the Markdown's own listing of the same
repositories), a ``repo_detail`` a facts card, a ``comparison`` a card per repository when the
text has no table. Buttons (``bot.discord.buttons``) go on the last message: plan decisions,
suggestions and clarification options, then feedback. Every message is sent with
``AllowedMentions.none()``: answers quote repository descriptions, which must never ping anyone.

Limits enforced here: content 2,000; embed title 256, description 4,096, 25 fields, field name
256, field value 1,024, footer 2,048, 6,000 characters across a message's embeds, 10 embeds per
message; 5 rows of 5 buttons, label 80, custom_id 100.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.discord import buttons as btn
from bot.discord.buttons import ButtonSpec
from bot.discord.markdown import split_markdown, to_discord
from core.models import (
    Action,
    ActionKind,
    Comparison,
    RepoDetailData,
    RepoList,
    Reply,
    ScoredRepository,
)

MAX_CONTENT = 2000
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_EMBED_TOTAL = 6000
MAX_EMBEDS = 10
MAX_CARDS = 10
SUGGESTION_ROWS = 3
COLOR = discord.Colour(0x2F81F7)
NO_MENTIONS = discord.AllowedMentions.none()
_LIST_LINE = re.compile(r"^\s*(\d+[.)]|[-*+•])\s+")


@dataclass
class Outgoing:
    """One Discord message as we mean to send it (or to edit a message into)."""

    content: str = ""
    embeds: list[discord.Embed] = field(default_factory=list)
    buttons: list[ButtonSpec] = field(default_factory=list)

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content or None, "embeds": self.embeds,
                                  "allowed_mentions": NO_MENTIONS}
        view = btn.build_view(self.buttons)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Replace everything: content, embeds and buttons (None clears)."""
        return {"content": self.content or None, "embeds": self.embeds,
                "view": btn.build_view(self.buttons), "allowed_mentions": NO_MENTIONS}

    def embed_chars(self) -> int:
        return sum(len(e) for e in self.embeds)


# -- answers ------------------------------------------------------------------------------------


def render_reply(reply: Reply, *, feedback: bool = True) -> list[Outgoing]:
    sections = _body(reply)
    listed = [a for a in reply.actions if btn.is_listed(a)]
    if listed:
        sections.append(_choices_embed(listed))
    messages = pack(sections, reply.footer)
    with_feedback = feedback and reply.error is None and reply.intent is not None and not _is_plan(reply)
    messages[-1].buttons = button_specs(reply.actions, feedback=with_feedback)
    return messages


Section = str | discord.Embed


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
        if not _lists_repos(chunk, names):
            prose.append(chunk)
            continue
        if not placed:
            sections += ["\n\n".join(prose), repo_list_embed(items)]
            prose, placed = [], True
    if not placed:
        first, *rest = prose or [""]
        return [first, repo_list_embed(items), "\n\n".join(rest)]
    return [*sections, "\n\n".join(prose)]


def _lists_repos(chunk: str, names: list[str]) -> bool:
    lines = [line.lower() for line in chunk.splitlines() if _LIST_LINE.match(line)]
    hits = sum(1 for line in lines if any(name in line for name in names))
    return bool(lines) and hits * 2 >= len(lines)


def _with_detail(text: str, data: RepoDetailData) -> list[Section]:
    """The facts card replaces the Markdown's heading-and-facts block for the same repository."""
    chunks = re.split(r"\n\s*\n", text)
    name = data.repo.full_name.lower()
    for i, chunk in enumerate(chunks):
        if chunk.lstrip().startswith("#") and name in chunk.splitlines()[0].lower():
            return ["\n\n".join(chunks[:i]), detail_embed(data), "\n\n".join(chunks[i + 1:])]
    return [detail_embed(data), text]


def pack(sections: Sequence[Section], footer: str | None = None) -> list[Outgoing]:
    """Sections in order as messages: text split at 2,000 characters, embeds attached to the
    message before them while it has room (content always shows above a message's embeds)."""
    messages: list[Outgoing] = []
    sections = [s for s in sections if not isinstance(s, str) or s.strip()]
    if footer:
        if sections and isinstance(sections[-1], discord.Embed):
            sections[-1].set_footer(text=clip(footer, MAX_FOOTER))
        else:
            sections.append(f"-# {' '.join(footer.split())}")
    texts = [s for s in sections if isinstance(s, str)]
    embeds = [fit_embed(s) for s in sections if isinstance(s, discord.Embed)]
    joined = "\n\n".join(texts)
    if (len(joined) <= MAX_CONTENT and len(embeds) <= MAX_EMBEDS
            and sum(len(e) for e in embeds) <= MAX_EMBED_TOTAL):
        return [Outgoing(content=joined, embeds=embeds)]  # the common case: one message
    for section in sections:
        if isinstance(section, str):
            if messages and not messages[-1].embeds and len(messages[-1].content) + len(section) + 2 <= MAX_CONTENT:
                messages[-1].content = f"{messages[-1].content}\n\n{section}".strip()
                continue
            messages += [Outgoing(content=part) for part in split_markdown(section, MAX_CONTENT)]
            continue
        embed = fit_embed(section)
        last = messages[-1] if messages else None
        if (last is None or len(last.embeds) >= MAX_EMBEDS
                or last.embed_chars() + len(embed) > MAX_EMBED_TOTAL):
            messages.append(Outgoing(embeds=[embed]))
        else:
            last.embeds.append(embed)
    return messages or [Outgoing(content="…")]


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip an embed to Discord's per-embed limits (whatever built it)."""
    if embed.title:
        embed.title = clip(embed.title, MAX_TITLE)
    if embed.description:
        embed.description = clip(embed.description, MAX_DESCRIPTION)
    fields = embed.fields[:MAX_FIELDS]
    embed.clear_fields()
    for f in fields:
        embed.add_field(name=clip(f.name or "\u200b", MAX_FIELD_NAME),
                        value=clip(f.value or "\u200b", MAX_FIELD_VALUE), inline=f.inline)
    if embed.footer and embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, MAX_FOOTER))
    while len(embed) > MAX_EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > MAX_EMBED_TOTAL and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - (len(embed) - MAX_EMBED_TOTAL)))
    return embed


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
    facts = [f"★ {compact(repo.stars)}"]
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
    embed.add_field(name="Stars", value=compact(repo.stars))
    embed.add_field(name="Forks", value=compact(repo.forks))
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
        lines = [f"★ {compact(repo.stars)} · {safe(repo.language or '-', 40)}"]
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
    """Choices too long for a button's custom_id: listed so a click can find them again."""
    lines = "\n".join(f"• {' '.join(a.value.split())}" for a in listed)
    return discord.Embed(title="Choices", description=clip(lines, MAX_DESCRIPTION), colour=COLOR)


def compact(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1_000:
        return f"{n / 1_000:.1f}k"
    return str(n)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- buttons ----------------------------------------------------------------------------------------


def _is_plan(reply: Reply) -> bool:
    return any(a.kind in btn.DECISIONS for a in reply.actions)


def button_specs(actions: Sequence[Action], *, feedback: bool) -> list[ButtonSpec]:
    specs: list[ButtonSpec] = []
    row = 0
    decisions = [a for a in actions if a.kind in btn.DECISIONS]
    if decisions:
        specs += [_spec(a, row, a.style or _DECISION_STYLE.get(a.kind)) for a in decisions[: btn.PER_ROW]]
        row += 1
    others = _unique([a for a in actions if a.kind not in btn.DECISIONS and a.kind is not ActionKind.FEEDBACK])
    others = others[: SUGGESTION_ROWS * btn.PER_ROW]
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
    return Outgoing(content=clip(f"<@{user_id}> chose: **{escape_markdown(' '.join(text.split()))}**", MAX_CONTENT))


def asked(user_id: str, command: str, text: str) -> Outgoing:
    """The channel message a slash command's thread hangs from."""
    return Outgoing(content=clip(f"<@{user_id}> used `/{command}`: **{escape_markdown(' '.join(text.split()))}**", MAX_CONTENT))


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
