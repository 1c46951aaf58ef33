"""Questions that ask for one pick ("which of those is best maintained?"): answered, not re-listed.

``asked_quality`` reads which quality a "which ... best/most ..." question is about;
``pick_answer`` answers it from the measured signals and says which signals those were, or says
plainly that the data at hand can't tell and what would be checked with GitHub access. A
maintenance question offline never turns into a tie of backlog scores.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from core.analysis.format import ago, compact, days_since, plural, signed
from core.models import ScoredRepository

_PICK = re.compile(
    r"\b(?:which|what)(?:\s+one|\s+repo(?:sitory)?|\s+project|\s+library)?\b.*?\b(?:is|are|has|have|looks?|seems?)?\b"
    r"|\bthe\s+(?:best|most|least)\b|\bbest\s+one\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Quality:
    key: str
    label: str  # "best maintained"
    pattern: str


QUALITIES: tuple[Quality, ...] = (
    Quality("maintenance", "best maintained",
            r"(?:best|better|most|well|actively|still)[- ]maintained|maintenance|responsive|most cared for"),
    Quality("activity", "most active", r"most active|more active|most (?:recently )?updated|most alive|most development"),
    Quality("popularity", "most popular", r"most popular|more popular|most (?:used|starred|stars)|biggest"),
    Quality("growth", "fastest growing", r"fast(?:est|er)[- ]growing|growing fast(?:est|er)|trending|most momentum|rising"),
    Quality("documentation", "best documented",
            r"(?:best|better|most|well)[- ]documented|best docs|better docs|documentation"),
    Quality("ease_of_use", "easiest to use", r"easiest|easier|simplest|simpler|quickest to (?:learn|start)"),
    Quality("community", "biggest community", r"(?:biggest|largest|best|bigger|larger) community"),
    Quality("maturity", "most mature", r"most mature|more mature|most stable|most established|oldest"),
)


_WHICH = re.compile(r"^\s*(?:so\s+|and\s+|ok\s+)?(?:which|what(?:'s| is) the best|what should (?:we|i) (?:use|pick|choose))\b", re.I)


def is_pick_question(message: str) -> bool:
    """"which of those is best for a small team?", "which one should we use?"."""
    return bool(_WHICH.search(message))


def pick_lead(recommended: str | None, reasons: Sequence[str], need: str | None) -> str:
    """The comparison's pick, said first when the user asked "which one?"."""
    target = f" for {need}" if need else ""
    if recommended is None:
        first = reasons[0].rstrip(".") if reasons else f"Too close to call{target}"
        return f"{first}, so there is no clear winner; what would decide it is listed below."
    why = f" {reasons[0].rstrip('.')}." if reasons else ""
    return f"My pick{target} is **{recommended}**.{why}"


def asked_quality(message: str) -> Quality | None:
    """The quality a pick question asks about, or None when the message isn't one."""
    if not _PICK.search(message):
        return None
    for quality in QUALITIES:
        if re.search(rf"\b(?:{quality.pattern})\b", message, re.I):
            return quality
    return None


def pick_answer(repos: Sequence[ScoredRepository], quality: Quality, *, now: datetime, offline: bool) -> str:
    """One paragraph that answers "which is <quality>?" for ``repos`` (two or more)."""
    if quality.key == "maintenance":
        return _maintenance(repos, now=now, offline=offline)
    if quality.key == "popularity":
        return _leader(repos, quality, lambda r: float(r.stars), lambda r: f"{compact(r.stars)} stars",
                       basis="stars")
    if quality.key == "growth":
        return _leader(repos, quality, lambda r: None if r.star_growth_12m is None else float(r.star_growth_12m),
                       lambda r: f"{signed(r.star_growth_12m or 0)} stars in 12 months",
                       basis="stars gained over the last 12 months")
    if quality.key == "activity" and offline:
        return _leader(repos, quality, lambda r: _recency(r, now), lambda r: f"last push {_when(r, now)}",
                       basis="the date of the last push (the snapshot has no commit counts)")
    value = _dimension(quality.key)
    if all(value(r) is None for r in repos):
        what = {"documentation": "no README was read", "ease_of_use": "no README was read"}.get(
            quality.key, "that isn't measured in this data")
        return (f"I can't tell which is the {quality.label} here: {what}. With GitHub access I would read "
                "each README and check the docs, examples and install steps.")
    return _leader(repos, quality, value, lambda r: f"{quality.key.replace('_', ' ')} {value(r):.1f}/10",
                   basis=f"the {quality.key.replace('_', ' ')} score")


def _maintenance(repos: Sequence[ScoredRepository], *, now: datetime, offline: bool) -> str:
    responsive = [r for r in repos if r.signals is not None and r.signals.median_first_response_hours is not None]
    if responsive:
        best = min(responsive, key=lambda r: r.signals.median_first_response_hours or 0.0)  # type: ignore[union-attr]
        hours = best.signals.median_first_response_hours or 0.0  # type: ignore[union-attr]
        merged = best.signals.merged_pulls_90d if best.signals else None
        extra = f" and {plural(merged, 'pull request')} merged in 90 days" if merged is not None else ""
        return (f"**{best.full_name}** looks best maintained: new issues get a first reply within "
                f"{_hours(hours)} (median){extra}. I judged this from issue response times, issues "
                "closed and pull requests merged over the last 90 days.")
    where = "offline" if offline else "from the data I could fetch"
    ranked = sorted(repos, key=lambda r: (_recency(r, now) or -1e9, -(_backlog(r) or 1e9)), reverse=True)
    best = ranked[0]
    facts = [f"last push {_when(best, now)}"]
    if best.open_issues is not None:
        facts.append(f"{plural(best.open_issues, 'open issue or pull request', 'open issues and pull requests')} "
                     f"for its {compact(best.stars)} stars")
    lead = (f"I can't tell that reliably {where}: there is no data on how quickly issues and pull "
            "requests get handled. ")
    same = len(ranked) > 1 and _recency(ranked[1], now) == _recency(best, now) and _backlog(ranked[1]) == _backlog(best)
    if same:
        lead += "On the signals that do exist (the last push and the open issue backlog) they look alike. "
    else:
        lead += (f"On the signals that do exist (the last push and the open issue backlog), "
                 f"**{best.full_name}** looks the most actively kept up ({', '.join(facts)}). ")
    return lead + ("With GitHub access I would check how quickly maintainers first reply to new issues, "
                   "and how many issues were closed and pull requests merged in the last 90 days.")


def _leader(repos: Sequence[ScoredRepository], quality: Quality,
            value: Callable[[ScoredRepository], float | None], fact: Callable[[ScoredRepository], str], *,
            basis: str) -> str:
    scored = [(v, r) for r in repos if (v := value(r)) is not None]
    if not scored:
        return f"I can't tell which is the {quality.label}: {basis} isn't available for these repositories."
    scored.sort(key=lambda pair: pair[0], reverse=True)
    best_value, best = scored[0]
    tied = [r for v, r in scored if v == best_value]
    if len(tied) > 1:
        names = ", ".join(r.full_name for r in tied[:-1]) + f" and {tied[-1].full_name}"
        return f"{names} are level on {basis} ({fact(best)}), so none of them is clearly the {quality.label}."
    runner = f" Next is {scored[1][1].full_name}: {fact(scored[1][1])}." if len(scored) > 1 else ""
    return f"**{best.full_name}** is the {quality.label}: {fact(best)}.{runner} I judged this from {basis}."


def _dimension(key: str) -> Callable[[ScoredRepository], float | None]:
    return lambda r: getattr(r.scores, key)


def _recency(repo: ScoredRepository, now: datetime) -> float | None:
    days = days_since(repo.pushed_at, now)
    return None if days is None else -float(days)


def _backlog(repo: ScoredRepository) -> float | None:
    return None if repo.open_issues is None else repo.open_issues / max(repo.stars, 1000)


def _when(repo: ScoredRepository, now: datetime) -> str:
    return ago(repo.pushed_at, now) or "unknown"


def _hours(hours: float) -> str:
    if hours < 1:
        return "an hour"
    return f"about {round(hours)} hours" if hours < 48 else f"about {round(hours / 24)} days"
