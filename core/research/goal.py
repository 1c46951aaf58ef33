"""Research goals as users type them: mode flags, cleaning, validation, long-goal condensing."""

from __future__ import annotations

import re
import unicodedata

from pydantic import Field

from core.errors import InputError
from core.models import WireModel
from core.models.research import ResearchMode

DEFAULT_MAX_GOAL_CHARS = 600

_FLAG = re.compile(
    r"(?:^|\s)(?:--|—|–)(quick|deep|quick[-_]scan|deep[-_]probe)\b", re.IGNORECASE
)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_VOWELS = set("aeiouy")
_KEYBOARD_RUNS = tuple(  # keyboard mashing ("asdf", "hjkl"); "erty" is left out: property, liberty
    run for row in ("qwertyuiop", "asdfghjkl", "zxcvbnm")
    for i in range(len(row) - 3) if (run := row[i : i + 4]) != "erty"
)
# three-key runs nobody types in a word ("asd", "qwe"); "wer", "ert", "iop"... appear in real words
_MASH_RUNS = ("qwe", "asd", "sdf", "dfg", "fgh", "ghj", "hjk", "jkl", "zxc", "xcv", "cvb", "vbn", "bnm")
_ANSI = re.compile(r"(?:\x1b|\\x1b|\\e|\\033|\^\[)?\[[0-9;?]*[A-Za-z]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

EXAMPLES = (
    "latest release of FastAPI",
    "trade-offs of Rust async runtimes for a high-throughput web service",
)


class InvalidGoal(InputError):
    """The goal is empty or unreadable; ``code`` says which, the message suggests examples."""

    code = "invalid_goal"  # each instance names the precise problem (empty_goal, unclear_goal...)

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class Goal(WireModel):
    text: str
    original_chars: int
    truncated: bool = False
    mode_flag: ResearchMode | None = None  # from --quick / --deep inside the goal text
    notes: list[str] = Field(default_factory=list)


def parse_mode(value: str | ResearchMode | None) -> ResearchMode | None:
    """'quick' | 'deep' | 'quick_scan' | 'deep_probe' | '--quick' ... -> a mode; '' / 'auto' -> None."""
    if value is None or isinstance(value, ResearchMode):
        return value
    word = value.strip().lower().lstrip("-—– ").replace("-", "_")
    if word in ("", "auto", "none"):
        return None
    if word in ("quick", "quick_scan", "quickscan", "scan"):
        return ResearchMode.QUICK_SCAN
    if word in ("deep", "deep_probe", "deepprobe", "probe"):
        return ResearchMode.DEEP_PROBE
    raise InvalidGoal("invalid_mode", f"I don't know the research mode {value!r}. Use --quick or --deep.")


def split_mode_flags(text: str) -> tuple[str, ResearchMode | None]:
    """Remove ``--quick`` / ``--deep`` from the goal text; the last flag wins."""
    mode: ResearchMode | None = None
    for match in _FLAG.finditer(text):
        mode = parse_mode(match.group(1))
    return _FLAG.sub(" ", text).strip(), mode


def _clean(text: str) -> str:
    text = _ANSI.sub(" ", text)  # terminal colour codes pasted along with (or instead of) a goal
    kept = "".join(
        ch if unicodedata.category(ch)[0] != "C" else " " for ch in unicodedata.normalize("NFC", text)
    )
    return re.sub(r"\s+", " ", kept).strip().strip("\"'“”‘’`").strip()


def _meaningful(word: str) -> bool:
    if any(ch.isdigit() for ch in word):
        return True
    if not word.isascii():
        return True  # other scripts: trust them (서울 날씨, 東京)
    lower = word.lower()
    if len(set(lower)) == 1 and len(lower) > 2:
        return False  # "aaaa"
    if len(lower) < 2:
        return False
    if len(lower) <= 4 and lower.isalpha() and word.isupper():
        return True  # acronyms: AI, LLM, GPU, CI
    if not any(ch in _VOWELS for ch in lower) or any(run in lower for run in _KEYBOARD_RUNS + _MASH_RUNS):
        return False
    return re.search(r"[^aeiouy\d]{6,}", lower) is None  # "asdfghjkl", "qwrtsdf"


def _content(word: str) -> bool:
    """A word that can carry a search: not filler, not a bare number (a technology always counts)."""
    from core.research.queries import KEEP, STOPWORDS, is_technology

    lower = word.lower()
    if is_technology(lower, word) or lower in KEEP:
        return True
    return lower not in STOPWORDS and not lower.isdigit()


def is_nonsense(text: str) -> bool:
    """No word that means anything: gibberish, keyboard mashing, only stopwords or numbers."""
    words = [w for w in _WORD.findall(text) if len(w) > 1 or not w.isascii()]
    if not words:
        return True  # only single letters or symbols
    good = [w for w in words if _meaningful(w)]
    if not good or len(good) / len(words) < 0.5:
        return True
    return not any(_content(w) for w in good)


def condense(text: str, max_chars: int) -> str:
    """Keep whole leading sentences (the goal is usually stated first), then cut at a word."""
    sentences = _SENTENCE_END.split(text)
    kept = ""
    for sentence in sentences:
        candidate = f"{kept} {sentence}".strip()
        if len(candidate) > max_chars:
            break
        kept = candidate
    if not kept:
        cut = text[: max_chars - 1]
        kept = (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(",;:- ") + "…"
    return kept


def read_goal(raw: str | None, *, max_chars: int = DEFAULT_MAX_GOAL_CHARS) -> Goal:
    """Validate and normalise a research goal; raise InvalidGoal for empty or unreadable ones."""
    text, flag = split_mode_flags(raw or "")
    coloured = _ANSI.search(text) is not None
    text = _clean(text)
    if not text and coloured:
        text = "?"  # only colour codes or control characters: unclear rather than empty
    if not text:
        raise InvalidGoal(
            "empty_goal",
            f"Tell me what to research, for example *{EXAMPLES[0]}* or *{EXAMPLES[1]}*.",
        )
    if is_nonsense(text):
        raise InvalidGoal(
            "unclear_goal",
            "I couldn't make out a research goal there. Could you say it in a few words? "
            f"For example *{EXAMPLES[0]}*.",
        )
    goal = Goal(text=text, original_chars=len(text), mode_flag=flag)
    if len(text) > max_chars:
        goal.text = condense(text, max_chars)
        goal.truncated = True
        goal.notes.append(
            f"Your goal was long ({len(text):,} characters), so I planned from its first "
            f"{len(goal.text):,} characters."
        )
    return goal
