"""comparison -> overview, a differences table, a winner per dimension, a final recommendation."""

from __future__ import annotations

from collections.abc import Callable

from core.analysis.compare import TIE_MARGIN, deciders
from core.analysis.need import DEFAULT_WEIGHTS
from core.models import (
    DIMENSIONS,
    Comparison,
    ComparisonRow,
    ScoredRepository,
    Section,
    TableCell,
    TableSection,
    TextSection,
)
from core.synth.format import age, compact_number, score, sentence, signed, truncate
from core.synth.phrases import join_words
from core.synth.glossary import label
from core.synth.insights import dimension_value, is_scored
from core.synth.render_context import RenderContext

TABLE_DIMENSIONS = 3  # the dimensions where the repos differ most get a column
TIE = 0.05
WEAK = 4.0  # a "winner" below this is only the least bad
MAX_NOTES = 4

# Words in the user's stated need -> the dimensions that matter most for it.
NEED_DIMENSIONS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("small team", "beginner", "newcomer", "junior", "learn", "simple", "easy", "quick", "prototype",
      "getting started", "side project", "hackathon"), ("ease_of_use", "documentation")),
    (("production", "enterprise", "stable", "reliable", "long-term", "long term", "large team",
      "mission critical", "mature"), ("maturity", "maintenance")),
    (("active", "modern", "maintained", "up to date", "up-to-date", "future"), ("activity", "maintenance")),
    (("community", "support", "popular", "ecosystem", "help", "hiring"), ("community",)),
    (("docs", "documentation", "documented", "tutorial"), ("documentation",)),
    (("contribut", "open source work", "first pr"), ("community", "maintenance", "activity")),
)


def need_dimensions(need: str | None) -> tuple[str, ...]:
    if not need:
        return ()
    text = need.lower()
    chosen: list[str] = []
    for words, dims in NEED_DIMENSIONS:
        if any(w in text for w in words):
            chosen += [d for d in dims if d not in chosen]
    return tuple(chosen)


def for_need(need: str | None) -> str | None:
    """'a small team' / 'for a small team' -> 'for a small team'."""
    text = " ".join((need or "").split()).rstrip(".!?")
    if not text:
        return None
    return text if text.lower().startswith(("for ", "to ", "in ", "with ")) else f"for {text}"


def scored_dimensions(repos: list[ScoredRepository]) -> list[str]:
    """Measured dimensions (relevance left out: it describes the query, not the repository)."""
    return [
        d for d in DIMENSIONS
        if d != "relevance" and any((dimension_value(r, d) or 0) > 0 for r in repos)
    ]


def _value(repo: ScoredRepository, dim: str) -> float:
    return dimension_value(repo, dim) or 0.0


def _cell_score(repo: ScoredRepository, dim: str) -> str:
    value = dimension_value(repo, dim)
    return "n/a" if value is None else f"{value:.1f}"


def differences_table(
    rows: list[ComparisonRow], rc: RenderContext, need: str | None = None, weighted: bool = False
) -> TableSection:
    """``weighted``: a stated need changed the weights, so the fit differs from the quality score
    and gets its own column (otherwise the two columns would repeat the same numbers)."""
    repos = [row.repo for row in rows]
    dims = scored_dimensions(repos)
    # the dimensions the need cares about first, then those where the repos differ most
    wanted = [d for d in need_dimensions(need) if d in dims]
    by_spread = sorted(
        (d for d in dims if d not in wanted),
        key=lambda d: max(_value(r, d) for r in repos) - min(_value(r, d) for r in repos),
        reverse=True,
    )
    chosen = set((wanted + by_spread)[:TABLE_DIMENSIONS])
    spread = [d for d in DIMENSIONS if d in chosen]
    scored = any(is_scored(r) for r in repos)
    header = ["Repository", "Stars", "Language", "Last change"]
    fits = weighted and any(row.fit is not None for row in rows)
    header += ["Quality"] * scored + ["Fit for your need"] * fits
    header += [label(d, capitalize=True) for d in spread]
    table_rows: list[list[TableCell]] = []
    for row, repo in zip(rows, repos):
        cells = [
            TableCell(text=repo.full_name, url=repo.html_url),
            TableCell(text=compact_number(repo.stars) if repo.figures_known else "n/a"),
            TableCell(text=repo.language or "n/a"),
            TableCell(text=age(repo.pushed_at, rc.today) or "n/a"),
        ]
        if scored:
            cells.append(TableCell(text=f"{repo.scores.overall:.1f}" if is_scored(repo) else "n/a"))
        if fits:
            cells.append(TableCell(text="n/a" if row.fit is None else f"{row.fit:.1f}"))
        cells += [TableCell(text=_cell_score(repo, d)) for d in spread]
        table_rows.append(cells)
    return TableSection(title="Key differences", header=header, rows=table_rows)


def leaders(
    repos: list[ScoredRepository], key: Callable[[ScoredRepository], float | None]
) -> list[ScoredRepository]:
    measured = [(value, r) for r in repos if (value := key(r)) is not None]
    if not measured:
        return []
    best = max(value for value, _ in measured)
    return [r for value, r in measured if best - value <= TIE]


def winners(rows: list[ComparisonRow], rc: RenderContext) -> str:
    repos = [row.repo for row in rows]
    lines: list[str] = []
    top = leaders(repos, lambda r: r.measured_stars)
    if top:
        lines.append(f"- **Popularity:** {top[0].full_name} ({compact_number(top[0].stars)} stars)")
    growers = [r for r in repos if r.star_growth_12m]
    if growers:
        fastest = max(growers, key=lambda r: r.star_growth_12m or 0)
        lines.append(
            f"- **{label('star_growth', capitalize=True)}**{rc.explain.note('star_growth')}: "
            f"{fastest.full_name} ({signed(fastest.star_growth_12m or 0)} stars in 12 months)"
        )
    for dim in scored_dimensions(repos):
        best = leaders(repos, lambda r, d=dim: dimension_value(r, d))
        if not best:
            continue
        value = score(_value(best[0], dim))
        if _value(best[0], dim) < WEAK:
            value += "; none of them scores well here"
        who = (
            best[0].full_name if len(best) == 1
            else f"a tie between {join_words([r.full_name for r in best])}"
        )
        basis = rc.explain.note(dim, reason=best[0].scores.reasons.get(dim))
        lines.append(f"- **{label(dim, capitalize=True)}**{basis}: {who} ({value})")
    return "### Winner by dimension\n" + "\n".join(lines)


def notes(rows: list[ComparisonRow], rc: RenderContext) -> str | None:
    blocks: list[str] = []
    for row in rows:
        good = [truncate(h, 200) for h in row.highlights if h.strip()][:MAX_NOTES]
        bad = [truncate(w, 200) for w in row.warnings if w.strip()][:MAX_NOTES]
        if not good and not bad:
            continue
        lines = [f"**{row.repo.full_name}**"]
        lines += [f"- {sentence(h)}" for h in good]
        lines += [f"- Watch out: {sentence(w)}" for w in bad]
        blocks.append("\n".join(lines))
    return "### Strengths and watch-outs\n" + "\n\n".join(blocks) if blocks else None


def pick_winner(data: Comparison) -> tuple[ScoredRepository, tuple[str, ...]]:
    """The Comparator's pick when it made one; else the best fit for the need; else the best overall."""
    repos = [row.repo for row in data.items]
    dims = tuple(d for d in need_dimensions(data.need) if d in scored_dimensions(repos))
    if data.recommended:
        chosen = next((r for r in repos if r.full_name.lower() == data.recommended.lower()), None)
        if chosen is not None:
            return chosen, dims
    warnings = {id(row.repo): len(row.warnings) for row in data.items}
    fits = {id(row.repo): row.fit for row in data.items}

    def strength(repo: ScoredRepository) -> tuple[float, float, int]:
        if fits[id(repo)] is not None:
            focus = fits[id(repo)] or 0.0
        elif dims:
            focus = sum(_value(repo, d) for d in dims) / len(dims)
        else:
            focus = repo.scores.overall
        return (focus, repo.scores.overall - 0.3 * warnings[id(repo)], repo.stars)

    return max(repos, key=strength), dims


def _focus(row: ComparisonRow) -> float:
    return row.fit if row.fit is not None else row.repo.scores.overall


def tied_rows(data: Comparison) -> list[ComparisonRow]:
    """The rows too close to call (best fit, or quality score, within ``TIE_MARGIN``); [] otherwise."""
    if data.recommended or not any(is_scored(row.repo) for row in data.items):
        return []
    best = max(_focus(row) for row in data.items)
    tied = [row for row in data.items if best - _focus(row) < TIE_MARGIN]
    return tied if len(tied) > 1 else []


def tie_recommendation(data: Comparison, tied: list[ComparisonRow]) -> str:
    names = join_words([f"**{row.repo.full_name}**" for row in tied])
    values = " vs ".join(f"{_focus(row):.1f}" for row in tied)
    need = for_need(data.need)
    text = (f"It's too close to call between {names}{f' {need}' if need else ''}: their scores are "
            f"within {TIE_MARGIN} of each other ({values} out of 10), so neither is clearly better.")
    reasons = [r for r in data.recommendation_reasons if r.strip() and not r.startswith("Too close")]
    reasons = reasons or deciders([row.repo for row in tied])
    if reasons:
        text += " What would decide it:\n" + "\n".join(f"- {sentence(truncate(r, 300))}" for r in reasons[:4])
    return "### My recommendation\n" + text


def final_recommendation(data: Comparison, rc: RenderContext) -> str:
    tied = tied_rows(data)
    if tied:
        return tie_recommendation(data, tied)
    winner, dims = pick_winner(data)
    repos = [row.repo for row in data.items]
    need = for_need(data.need)
    lead = f"{need[0].upper()}{need[1:]}, I'd pick" if need else "Overall, I'd pick"
    given = [r for r in data.recommendation_reasons if r.strip()]
    if given and data.recommended and winner.full_name.lower() == data.recommended.lower():
        text = f"{lead} **{winner.full_name}**."
        text += "\n" + "\n".join(f"- {sentence(truncate(r, 300))}" for r in given[:5])
        return "### My recommendation\n" + text
    if dims:
        because = f"it leads on {join_words([label(d) for d in dims])}, which matter most for that"
    elif any(is_scored(r) for r in repos):
        because = f"it has the best quality score ({score(winner.scores.overall)})"
    else:
        because = "it is the most popular and the most actively updated of the group"
    text = f"{lead} **{winner.full_name}**: {because}."
    others = [r for r in repos if r is not winner]
    for other in others:
        edge = [d for d in scored_dimensions(repos) if _value(other, d) - _value(winner, d) > 1.0]
        if edge:
            text += (f" Choose **{other.full_name}** instead if {join_words([label(d) for d in edge[:2]])} "
                     "matters more to you.")
            break
    warning = next((row.warnings[0] for row in data.items if row.repo is winner and row.warnings), None)
    if warning:
        text += f" Keep in mind: {sentence(truncate(warning, 200))}"
    return "### My recommendation\n" + text


def comparison_sections(data: Comparison, rc: RenderContext) -> list[Section]:
    rows = data.items[: rc.max_items]
    names = [r.repo.full_name for r in rows]
    if len(rows) == 1:
        intro = (
            f"I could only find one of the repositories to compare: **{names[0]}**. "
            "Here is what I know about it; tell me another repository to compare it with."
        )
    else:
        intro = f"I compared **{len(rows)} repositories**: {join_words(names)}."
        if len(data.items) > len(rows):
            intro += f" (I kept the first {len(rows)} of the {len(data.items)} you gave me.)"
    need = for_need(data.need)
    if need and data.weights and not _default_weights(data.weights):
        intro += f" You mentioned you need it {need}, so I weighed that in."
    elif need:
        intro += (
            f" You mentioned you need it {need}; I have no specific measure for that, "
            "so I used my standard weights."
        )
    trimmed = data.model_copy(update={"items": rows})
    weighted = bool(data.weights) and not _default_weights(data.weights)
    sections: list[Section] = [
        TextSection(markdown=intro),
        differences_table(rows, rc, data.need, weighted),
        TextSection(markdown=winners(rows, rc)),
    ]
    found = notes(rows, rc)
    if found:
        sections.append(TextSection(markdown=found))
    if len(rows) > 1:
        sections.append(TextSection(markdown=final_recommendation(trimmed, rc)))
    return sections


def _default_weights(weights: dict[str, float]) -> bool:
    """True when the Comparator recognised no need profile (the weights are the defaults)."""
    return all(abs(weights.get(k, 0.0) - v) < 1e-3 for k, v in DEFAULT_WEIGHTS.items())  # wire weights are rounded
