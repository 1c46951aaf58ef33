"""Everything the Slack adapter shows, as Block Kit: answers, progress, notes, help.

The synthesizer's Markdown, converted to mrkdwn, is the body of every answer; structured data
adds its own layout: ``repo_list`` a compact card per repository (linked name, stars, language,
overall score, a one-line why) in place of the Markdown's listing, ``comparison`` a narrow table
with a column per repository, ``clarification`` its options as buttons. Buttons: follow-up
suggestions, plan decisions, feedback on answers. ``bot.slack.blockkit`` enforces the limits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from bot.rendering import DECISIONS, compact, is_plan, lists_repos
from bot.slack import blockkit as bk
from bot.slack.blockkit import Block, SlackMessage
from bot.slack.mrkdwn import escape, link, plain, split_text, to_mrkdwn
from core.models import (
    Action,
    ActionKind,
    Comparison,
    RepoList,
    Reply,
    ScoredRepository,
)

ACTION_PREFIX = "omg:"
DECISION_BLOCK = "omg-decision"
FEEDBACK_BLOCK = "omg-feedback"
MAX_CARDS = 10
_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_MARK = "TABLEPLACEHOLDER7f3a"

HELP = (
    "*oh-my-github* finds, analyzes and compares GitHub repositories.\n"
    "• Mention me in a channel: `@oh-my-github find react state management libraries`; "
    "then keep talking in the thread, no mention needed.\n"
    "• DM me the same questions.\n"
    "• `/omg <question>`: ask from anywhere, e.g. `/omg compare zustand and jotai`.\n"
    "• `/research <goal> [--quick|--deep]`: plan a research; deep plans wait for your approval.\n"
    "• Buttons under an answer continue the thread as if you had typed them."
)


def action_id(kind: ActionKind, index: int) -> str:
    return f"{ACTION_PREFIX}{kind.value}:{index}"


def parse_action_id(value: str) -> ActionKind | None:
    if not value.startswith(ACTION_PREFIX):
        return None
    kind = value[len(ACTION_PREFIX) :].split(":", 1)[0]
    try:
        return ActionKind(kind)
    except ValueError:
        return None


# -- answers ------------------------------------------------------------------------------------


def render_reply(reply: Reply, *, feedback: bool = True) -> list[SlackMessage]:
    """A core ``Reply`` as one or more Slack messages (split, never ``msg_too_long``)."""
    body = _body(reply)
    offered = {a.value for a in reply.actions}
    extra = [Action(kind=ActionKind.SUGGESTION, label=s, value=s) for s in reply.suggestions
             if s not in offered]  # suggestions the core did not turn into actions
    trailing = _buttons([*reply.actions, *extra])
    if feedback and reply.error is None and reply.intent is not None and not is_plan(reply):
        trailing.append(_feedback_buttons(reply))
    if reply.footer:
        trailing.append(bk.context(to_mrkdwn(reply.footer)))
    fallback = plain(reply.markdown).strip() or "Here is my answer."
    return bk.pack(body, trailing, re.sub(r"\s+", " ", fallback))


def _body(reply: Reply) -> list[Block]:
    data = reply.structured_data
    if isinstance(data, RepoList) and data.items:
        return _with_cards(reply.markdown, data.items)
    if isinstance(data, Comparison) and data.items:
        return _with_table(reply.markdown, comparison_table(data))
    return _markdown_blocks(reply.markdown)


def _markdown_blocks(markdown: str) -> list[Block]:
    text = to_mrkdwn(markdown)
    return [bk.section(part) for part in split_text(text, bk.MAX_SECTION_TEXT)] if text.strip() else []


def _with_table(markdown: str, table: str) -> list[Block]:
    """Our narrow table (a column per repo) replaces the Markdown's wide one, or follows the
    lead paragraph when there is none: a table with a column per dimension wraps in Slack."""
    lines = markdown.strip().split("\n")
    rows = [n for n, line in enumerate(lines) if _TABLE_LINE.match(line)]
    if rows:
        first = rows[0]
        last = first
        while last + 1 < len(lines) and _TABLE_LINE.match(lines[last + 1]):
            last += 1
        lines[first : last + 1] = [_TABLE_MARK]
    else:
        lead_end = next((n for n, line in enumerate(lines) if not line.strip()), len(lines))
        lines.insert(lead_end, "\n" + _TABLE_MARK)
    text = to_mrkdwn("\n".join(lines)).replace(_TABLE_MARK, table)
    return [bk.section(part) for part in split_text(text, bk.MAX_SECTION_TEXT)]


def _with_cards(markdown: str, items: Sequence[ScoredRepository]) -> list[Block]:
    """Cards replace the Markdown's own listing of the same repositories; the rest stays."""
    names = [r.full_name.lower() for r in items]
    chunks = [c for c in re.split(r"\n\s*\n", markdown) if c.strip()]
    blocks: list[Block] = []
    cards_placed = False
    for chunk in chunks:
        if lists_repos(chunk, names):
            if not cards_placed:
                blocks.extend(repo_cards(items))
                cards_placed = True
            continue
        blocks.extend(_markdown_blocks(chunk))
    if not cards_placed:
        blocks[1:1] = repo_cards(items)
    return blocks


def repo_cards(items: Sequence[ScoredRepository]) -> list[Block]:
    cards = [bk.section(repo_card(i, repo)) for i, repo in enumerate(items[:MAX_CARDS], 1)]
    if len(items) > MAX_CARDS:
        cards.append(bk.context(f"…and {len(items) - MAX_CARDS} more."))
    return cards


def repo_card(position: int, repo: ScoredRepository) -> str:
    facts = [f":star: {compact(repo.stars)}" if repo.figures_known else "no star figures offline"]
    if repo.language:
        facts.append(escape(repo.language))
    if repo.scores.overall:
        facts.append(f"score *{repo.scores.overall:.1f}*/10")
    if repo.archived:
        facts.append(":file_cabinet: archived")
    why = repo.why.strip() or repo.description.strip()
    line = f"{position}. *{link(repo.html_url, repo.full_name)}*  " + " · ".join(facts)
    return line + (f"\n{escape(bk.clip(why, 200))}" if why else "")


def comparison_table(data: Comparison) -> str:
    repos = [row.repo for row in data.items[:5]]
    width = 16 if len(repos) <= 3 else 12  # Slack wraps preformatted text at ~80 characters
    rows: list[list[str]] = [["", *[bk.clip(r.name, width) for r in repos]]]
    rows.append(["Stars", *[compact(r.stars) if r.figures_known else "n/a" for r in repos]])
    rows.append(["Language", *[bk.clip(r.language or "-", width) for r in repos]])
    for dim, label in (("overall", "Overall"), ("relevance", "Fit"), ("maintenance", "Maintenance"),
                       ("activity", "Activity"), ("documentation", "Docs"),
                       ("community", "Community"), ("ease_of_use", "Ease of use"),
                       ("maturity", "Maturity")):
        values = [getattr(r.scores, dim) for r in repos]
        if any(values):
            rows.append([label, *[f"{v:.1f}" for v in values]])
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip() for row in rows]
    return "```\n" + escape("\n".join(lines)) + "\n```"


# -- buttons -------------------------------------------------------------------------------------


def _buttons(actions: Sequence[Action]) -> list[Block]:
    decisions = [a for a in actions if a.kind in DECISIONS]
    others = [a for a in actions if a.kind not in DECISIONS and a.kind is not ActionKind.FEEDBACK]
    blocks: list[Block] = []
    if decisions:
        blocks.append(bk.actions(DECISION_BLOCK, [
            bk.button(a.label, action_id(a.kind, i), a.value, a.style or _decision_style(a.kind))
            for i, a in enumerate(decisions)
        ]))
    for start in range(0, min(len(others), 15), 5):
        group = others[start : start + 5]
        blocks.append(bk.actions(f"omg-suggest-{start // 5}", [
            bk.button(a.label, action_id(a.kind, start + i), a.value, a.style)
            for i, a in enumerate(group)
        ]))
    return blocks


def _decision_style(kind: ActionKind) -> str | None:
    return {"approve": "primary", "cancel": "danger"}.get(kind.value)


def _feedback_buttons(reply: Reply) -> Block:
    meta = {"intent": reply.intent.value if reply.intent else None,
            "confidence": round(reply.confidence, 3) if reply.confidence is not None else None}
    if reply.classification is not None:
        original = reply.classification.original_intent
        meta["original_intent"] = original.value if original else None
        meta["source"] = reply.classification.source
    return bk.actions(FEEDBACK_BLOCK, [
        bk.button(":thumbsup: Helpful", action_id(ActionKind.FEEDBACK, 0),
                  json.dumps({"v": "helpful", **meta})),
        bk.button(":thumbsdown: Wrong answer", action_id(ActionKind.FEEDBACK, 1),
                  json.dumps({"v": "wrong", **meta})),
    ])


def feedback_value(raw: str) -> tuple[str, dict]:
    """The feedback verdict and the classification the button carried."""
    try:
        data = json.loads(raw)
    except ValueError:
        return raw, {}
    if not isinstance(data, dict):
        return raw, {}
    return str(data.pop("v", "")), data


def decided(blocks: list[Block], kind: ActionKind, user: str) -> list[Block]:
    """The plan message after a decision: its buttons replaced by who decided what."""
    verb = {"approve": ":white_check_mark: Approved", "revise": ":pencil2: Revision requested",
            "cancel": ":no_entry_sign: Cancelled"}.get(kind.value, "Decided")
    kept = [b for b in blocks if b.get("block_id") != DECISION_BLOCK]
    return [*kept, bk.context(f"{verb} by <@{user}>")][: bk.MAX_BLOCKS]


# -- notes and progress ----------------------------------------------------------------------------


def note(text: str) -> SlackMessage:
    """A short mrkdwn message (ephemeral notes, "<@U> chose: ...")."""
    return SlackMessage(text=bk.clip(plain(text), bk.MAX_FALLBACK_TEXT), blocks=[bk.section(text)])


def chose(user: str, text: str) -> SlackMessage:
    return note(f"<@{user}> chose: *{escape(bk.clip(text, 500))}*")


def status(current: str, done: Sequence[str] = (), draft: str = "") -> SlackMessage:
    """The in-progress status message: the current step, the finished ones, streamed text."""
    blocks: list[Block] = [bk.section(f":hourglass_flowing_sand: {escape(bk.clip(current, 500))}")]
    if done:
        steps = "\n".join(f":white_check_mark: {escape(bk.clip(s, 200))}" for s in done[-5:])
        blocks.append(bk.context(steps))
    if draft.strip():
        tail = draft[-2500:]
        blocks.append(bk.section(to_mrkdwn(("…" if len(draft) > 2500 else "") + tail)))
    return SlackMessage(text=bk.clip(current, bk.MAX_FALLBACK_TEXT), blocks=blocks)
