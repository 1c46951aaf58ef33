"""The Companion: friendly replies to small talk, and a real answer to "what can you do?".

Pure rules, no LLM: a reply to "thanks" should never cost a model call or wait on one.
When the thread has results, replies point back at them ("I can analyze pmndrs/zustand next").
"""

from __future__ import annotations

import re

from core.agents.base import AgentContext, AgentResult
from core.models import structured_repo_names

TERMINAL_PLATFORMS = {"shell", "cli"}

_HELP = re.compile(
    r"^(help|help me|/help|\?)$|\b(can|could|would) you help\b|\bi need (some )?help\b"
    r"|\b(what (else )?can (you|u) do|what do you do|how (do|does) (you|this|it) work|what are you"
    r"|who are you|commands?|how (do i|to|can i) use|capabilit\w*|what can i (ask|say|do)|features?"
    r"|examples?|getting started)\b"
)
_NEGATIVE = re.compile(
    r"\b(not (very )?helpful|(that'?s|this is|you'?re) wrong|useless|bad (answer|bot)|doesn'?t help"
    r"|didn'?t help|not what i (meant|wanted|asked)|that'?s not right)\b"
)
_THANKS = re.compile(r"\b(thanks|thank (you|u)|thx|ty|tysm|cheers|appreciate( it)?|much obliged|kudos)\b")
_GOODBYE = re.compile(
    r"\b(bye|goodbye|good bye|see (you|ya)|later|cya|that'?s all|thats all|good night|have a (good|nice)"
    r"|talk (to you )?later|i'?m done)\b"
)
_HOW_ARE_YOU = re.compile(
    r"\b(how are (you|u)|how'?s it going|how are things|how do you do|what'?s up|sup)\b"
)
_GREETING = re.compile(r"^(hi|hello|hey|hiya|howdy|yo|greetings|good (morning|afternoon|evening)|hola)\b")
_POSITIVE = re.compile(
    r"^(ok|okay|k|got it|cool|great|nice|awesome|perfect|sounds good|(that'?s |very )?helpful"
    r"|good|makes sense|understood|sure|alright|all right|neat|wow|amazing|excellent|love it)\b"
)


def _normalize(message: str) -> str:
    return " ".join(message.lower().replace("’", "'").split()).strip(" !.?")


def capabilities(platform: str) -> str:
    """The answer to "what can you do?", with example messages to copy."""
    if platform in TERMINAL_PLATFORMS:
        research = (
            '- `omg research "<goal>" --quick` for a quick scan, or `--deep` for a deep probe\n'
            "- in a Slack or Discord thread: `/research <goal> --quick` or `--deep`"
        )
    else:
        research = (
            "- `/research <goal> --quick` for a quick scan, or `--deep` for a deep probe\n"
            '- from a terminal: `omg research "<goal>" --quick`'
        )
    return f"""I help you discover, analyze and compare GitHub repositories. Here's what I can do:

**Find repositories**: describe what you need; add a language or a popularity bar if you like.
- *find React state management libraries*
- *Python web frameworks with over 10k stars*

**Analyze one**: activity, maintenance, community, and whether to contribute to it, watch it or avoid it.
- *analyze pmndrs/zustand*
- *is fastapi well maintained?*

**Compare a few**: a side-by-side table, the winner on each dimension, and my pick for your need.
- *compare zustand vs redux*
- *which is better for a small team: jotai or zustand?*

**Follow up** on what I just showed you: I remember this thread.
- *analyze the second one*, *compare the first two*, *what about Python?*, *show me more results*

**Research** a bigger question: I draft a plan, your team approves it with a button, I run it.
{research}

Not sure where to start? Try *find React state management libraries*."""


def _pointer(names: list[str]) -> str:
    """A nudge back to the thread's results, if any."""
    if len(names) >= 2:
        return f" If you'd like, I can analyze **{names[0]}** or compare the first two."
    if names:
        return f" If you'd like, I can analyze **{names[0]}** in more depth."
    return ""


class Companion:
    """Small talk and help. ``reply`` is pure, so it is easy to test and reuse."""

    name = "companion"

    async def run(self, ctx: AgentContext) -> AgentResult:
        platform = ctx.conversation.key.platform if ctx.conversation is not None else ""
        return AgentResult(text=self.reply(ctx.message, structured_repo_names(ctx.previous), platform))

    def reply(self, message: str, names: list[str], platform: str = "") -> str:
        text = _normalize(message)
        if _HELP.search(text):
            lead = "Hello! " if _GREETING.search(text) else ""
            return lead + capabilities(platform)
        if _NEGATIVE.search(text):
            return (
                "Sorry that missed the mark. Tell me a bit more about what you're after (a language, "
                "what it should do, how popular it should be) and I'll try again."
            )
        if _THANKS.search(text):
            return "You're welcome! Happy to help find repos." + _pointer(names)
        if _GOODBYE.search(text):
            return "Goodbye! Come back any time you need to find, analyze or compare repositories."
        if _HOW_ARE_YOU.search(text):
            return (
                "I'm doing well, thanks for asking! Ready to dig into some repositories."
                + (_pointer(names) or " What are you looking for today?")
            )
        if _GREETING.search(text):
            return (
                "Hello! I help you find, analyze and compare GitHub repositories. Try "
                "*find React state management libraries*, or ask *what can you do?*"
            )
        if _POSITIVE.search(text):
            return "Glad that helps!" + (_pointer(names) or " What would you like to explore next?")
        return (
            "I'm best with GitHub repositories: finding them, analyzing one in depth, or comparing "
            "a few. Try *find Python web frameworks*, or ask *what can you do?* to see more."
        )
