"""The deterministic answer: a verdict, a pick, a fact or an overview from measured signals only.

It runs offline and whenever the LLM's answer is missing or rejected. Every figure it states was
measured (stars, growth, last push; releases, commits and issue response when GitHub was read),
and it says what it could not check and which subjects the data does not have.
"""

from __future__ import annotations

from datetime import datetime

from core.analysis.compare import STALE_DAYS, deciders, pick
from core.analysis.format import ago, days_since
from core.models import ScoredRepository
from core.research.evidence import Candidate
from core.models.research import ResearchAnswer, SourceRef
from core.research.question import FactKind, Question, Shape
from core.research.subjects import (
    DataLabel, edges, figures, find_subject, fits, is_measured, scored, unmeasured_checks,
)

MIGRATE_MARGIN = 1.0  # a move costs effort: the target must fit clearly better (0-10 scale)
STAY_MARGIN = 0.5
PICK_SIZE = 3
MIGRATION_UNMEASURED = "the migration effort itself (API differences, rewriting code and tests): no source measures it"


def _risky(repo: ScoredRepository, now: datetime) -> bool:
    idle = days_since(repo.pushed_at, now)
    return repo.archived or (idle is not None and idle > STALE_DAYS)


def _missing(word: str, found: Candidate | None, label: DataLabel) -> str | None:
    if found is None:
        return f"{word} isn't in {label.text}: none of the searches found it, so it could not be measured."
    if not is_measured(found):
        return (f"{found.name} is listed in {label.text} without any figures (no stars, pushes or "
                "activity), so it could not be measured.")
    return None


def _confidence(repos: list[ScoredRepository], label: DataLabel, *, decisive: bool) -> tuple[str, str]:
    with_activity = sum(1 for r in repos if r.signals is not None and r.signals.commits_90d is not None)
    if with_activity == len(repos) and repos and decisive:
        return "high", "the subjects' activity, releases and popularity were all measured and point the same way"
    basis = ("only stars, growth and push dates were measured" if with_activity == 0
             else f"activity data was measured for {with_activity} of {len(repos)}")
    if decisive:
        return "medium", f"the measured signals agree, but {basis}"
    return "low", f"the measured signals don't separate them clearly and {basis}"


def migrate(question: Question, candidates: list[Candidate], label: DataLabel, now: datetime) -> ResearchAnswer:
    current, target = find_subject(question.current or "", candidates), find_subject(question.target or "", candidates)
    current_word, target_word = question.shown(question.current or ""), question.shown(question.target or "")
    missing = [m for m in (_missing(current_word, current, label), _missing(target_word, target, label)) if m]
    not_checked = [*unmeasured_checks(candidates, label), MIGRATION_UNMEASURED]
    if missing:
        known = [c for c in (current, target) if c is not None and is_measured(c)]
        measured = [scored(c, now) for c in known]
        lines = [figures(r, None, now) for r in measured]
        absent = target_word if target is None or not is_measured(target) else current_word
        head = (f"**It depends on data I don't have: {absent} couldn't be measured**, so I can't "
                f"recommend migrating from {current_word} to {target_word} on measured evidence. "
                f"{missing[0]}")
        head += (f" Only {measured[0].full_name} was measured." if measured else " Neither side was measured.")
        return ResearchAnswer(
            shape="migrate", headline=head, comparison=lines, missing=missing, not_checked=not_checked,
            would_change=[f"Measuring {absent} ({'with GitHub access' if label.offline else 'under its exact owner/name'}) "
                          f"and comparing it with {current_word} on the same signals."],
            confidence="low", confidence_reason=f"{absent} is missing from the data, so there is nothing to compare",
        )
    assert current is not None and target is not None
    repos = [scored(current, now), scored(target, now)]
    fit = fits(repos, question.need)
    now_repo, next_repo = repos
    fx, fy = fit[now_repo.full_name], fit[next_repo.full_name]
    lead, warn = edges(repos, now)
    need = f" for {question.need.text}" if question.need else ""
    x, y = current_word, target_word
    decisive = True
    if _risky(now_repo, now) and not _risky(next_repo, now):
        head = f"**Migrate.** {now_repo.full_name} is {'archived' if now_repo.archived else 'no longer pushed to'}, while {next_repo.full_name} is active"
    elif _risky(next_repo, now) and not _risky(now_repo, now):
        head = f"**Stay on {x}.** {next_repo.full_name} is {'archived' if next_repo.archived else 'not pushed to in over a year'}, so moving to it would trade a maintained dependency for a stalled one"
    elif fx is not None and fy is not None and fy - fx >= MIGRATE_MARGIN:
        head = f"**Migrate to {y}.** {next_repo.full_name} fits{need} clearly better on the measured signals ({fy:.1f} vs {fx:.1f} out of 10)"
    elif fx is not None and fy is not None and fx - fy >= STAY_MARGIN:
        head = f"**Stay on {x}.** {now_repo.full_name} fits{need} better on the measured signals ({fx:.1f} vs {fy:.1f} out of 10), so a migration would cost effort without a measured gain"
    else:
        decisive = False
        scores = f" ({fy:.1f} vs {fx:.1f} out of 10)" if fx is not None and fy is not None else ""
        split = "; ".join(d[:1].lower() + d[1:] for d in deciders(repos)[:2])
        head = (f"**It depends on what you need most.** {next_repo.full_name} and {now_repo.full_name} fit{need} about "
                f"equally well on the measured signals{scores}, so whether migrating from {x} to {y} pays off turns on "
                f"what matters most to you" + (f": {split}" if split else ""))
    head += f". Figures from {label.text}."
    trade_offs = [f"{r.full_name}: {h}." for r in repos for h in lead[r.full_name]]
    risks = [f"{r.full_name}: {w}." for r in repos for w in warn[r.full_name]]
    risks.append(f"Migrating costs effort that no signal here measures: rewriting code that uses {x}, its tests, and the team's habits.")
    would_change = [f"{d}." for d in deciders(repos)] if not decisive else []
    would_change += [
        f"{y} stalling (no push for over a year) or {x} being archived would change it at once.",
        *([f"Measured release cadence and issue response for both ({label.text} has none) could tip a close call."]
          if label.offline else []),
    ]
    level, reason = _confidence(repos, label, decisive=decisive)
    return ResearchAnswer(
        shape="migrate", headline=head, comparison=[figures(r, fit[r.full_name], now) for r in repos],
        trade_offs=trade_offs, risks=risks, would_change=would_change, not_checked=not_checked,
        confidence=level, confidence_reason=reason,
    )


def choose(question: Question, candidates: list[Candidate], label: DataLabel, now: datetime, topic: str) -> ResearchAnswer:
    missing: list[str] = []
    if question.subjects:
        found = [(question.shown(w), find_subject(w, candidates)) for w in question.subjects]
        missing = [m for w, c in found if (m := _missing(w, c, label))]
        pool = [c for _, c in found if c is not None and is_measured(c)]
    else:
        pool = [c for c in candidates if is_measured(c) and "opposing_views" not in c.purposes][:8]
    need = f" for {question.need.text}" if question.need else ""
    not_checked = unmeasured_checks(candidates, label)
    if not pool:
        head = (f"**The sources at hand can't tell**: the searches for {topic} found nothing measurable to rank"
                f"{need} in {label.text}." + (" With GitHub access I would search all of GitHub for it." if label.offline else ""))
        return ResearchAnswer(shape="pick", headline=head, missing=missing, not_checked=not_checked,
                              confidence="low", confidence_reason="nothing was measured")
    hits = {c.name: c.hits for c in pool}
    repos = [scored(c, now) for c in pool]
    fit = fits(repos, question.need)
    ranked = sorted(repos, key=lambda r: (not _risky(r, now), round(fit[r.full_name] or 0.0, 1),
                                          hits[r.full_name], r.stars), reverse=True)
    chosen = pick(ranked, fit, question.need, now=now) if len(ranked) > 1 else None
    lead, warn = edges(ranked[:PICK_SIZE + 1], now)
    best = ranked[0]
    decisive = chosen is not None and chosen.full_name is not None
    if chosen is not None and chosen.full_name is None:
        tied = [r for r in ranked if r.full_name in chosen.tied]
        values = " vs ".join(f"{fit[r.full_name]:.1f}" for r in tied[:3])
        edge = next((d for d in deciders(tied) if best.full_name in d), None)
        why = edge or (f"found by {hits[best.full_name]} searches, the most corroborated" if hits[best.full_name] > 1
                       else "the first of them in the searches")
        head = (f"**Pick {best.full_name}{need}, but it's a close call.** {', '.join(r.full_name for r in tied[:3])} "
                f"fit about equally well ({values} out of 10); {why[:1].lower() + why[1:]}.")
    else:
        reasons = [*(chosen.reasons[:1] if chosen else []), *lead.get(best.full_name, [])[:2]]
        why = "; ".join(r.rstrip(".") for r in reasons) or "the only measurable candidate"
        head = f"**Pick {best.full_name}{need}.** {why[:1].upper() + why[1:]}."
    if question.need and question.need.profiles and not decisive:
        head += f" For {question.need.text}, {question.need.why}, and the fit weighs those."
    if missing:
        head += f" Not ranked: {' '.join(missing)}"
    level, reason = _confidence(ranked[:PICK_SIZE], label, decisive=decisive)
    return ResearchAnswer(
        shape="pick", headline=head + f" Figures from {label.text}.",
        comparison=[f"{i}. {figures(r, fit[r.full_name], now)}" for i, r in enumerate(ranked[:PICK_SIZE], start=1)],
        trade_offs=[f"{n}: {h}." for n, hs in lead.items() if n != best.full_name for h in hs],
        risks=[f"{n}: {w}." for n, ws in warn.items() for w in ws],
        would_change=[f"{d.rstrip('.')}." for d in (chosen.reasons[1:] if chosen and chosen.full_name is None else [])],
        missing=missing, not_checked=not_checked, confidence=level, confidence_reason=reason,
    )


def fact(question: Question, candidates: list[Candidate], label: DataLabel, now: datetime,
         sources: list[SourceRef]) -> ResearchAnswer:
    word = question.subjects[0] if question.subjects else None
    subject = find_subject(word, candidates) if word else (candidates[0] if candidates else None)
    if subject is None:
        what = word or "the subject"
        return ResearchAnswer(
            shape="fact", headline=f"**The sources at hand can't tell**: {what} isn't in {label.text}, so nothing about it was fetched.",
            missing=[f"{what} isn't in {label.text}."], confidence="low", confidence_reason="the subject was not found",
        )
    titles = [s.title for s in sources if subject.name in s.title]
    s = subject.signals
    if question.fact is FactKind.RELEASE:
        if s is not None and s.latest_release:
            when = f", published {s.latest_release_at.date().isoformat()}" if s.latest_release_at else ""
            cite = next((t for t in titles if "Releases" in t), titles[0] if titles else "")
            return ResearchAnswer(shape="fact", headline=f"**{subject.name}'s latest release is {s.latest_release}{when}** (source: {cite or 'its GitHub releases'}).",
                                  cited=[cite] if cite else [], confidence="high", confidence_reason="read from the release data")
        why = f"{label.text} has no release data" if label.offline else "no release data was fetched for it"
        return ResearchAnswer(shape="fact", headline=f"**The sources at hand can't tell** the latest release of {subject.name}: {why}. Its GitHub releases page has it.",
                              not_checked=[f"the releases of {subject.name}"], confidence="low", confidence_reason=why)
    if question.fact is FactKind.SUPPORT:
        feature = question.feature or ""
        readme = subject.readme or ""
        if feature and feature.lower() in readme.lower():
            at = readme.lower().index(feature.lower())
            quote = readme[max(0, at - 80): at + len(feature) + 80].strip()
            cite = next((t for t in titles if "README" in t), "")
            return ResearchAnswer(shape="fact", headline=f"**Yes, {subject.name}'s README mentions {feature}**: “…{quote}…” (source: {cite or 'its README'}).",
                                  cited=[cite] if cite else [], confidence="medium", confidence_reason="a README mention, not a test of the feature")
        why = "its README was read and doesn't mention it" if readme else "no README was fetched"
        return ResearchAnswer(shape="fact", headline=f"**The sources at hand can't tell** whether {subject.name} supports {feature}: {why}. Its documentation or issue tracker would settle it.",
                              not_checked=[f"{feature} support in {subject.name}"], confidence="low", confidence_reason=why)
    pushed, idle = ago(subject.repo.pushed_at, now), days_since(subject.repo.pushed_at, now)
    if subject.repo.archived:
        head = f"**No: {subject.name} is archived**, so it gets no more updates."
    elif idle is None:
        head = f"**The sources at hand can't tell** whether {subject.name} is maintained: {label.text} has no push date for it."
    else:
        state = "Yes" if idle <= 180 else "Probably not" if idle > STALE_DAYS else "Slowing down"
        commits = f", {s.commits_90d:,} commits in the last 90 days" if s and s.commits_90d is not None else ""
        head = f"**{state}: {subject.name} was last pushed {pushed}{commits}** (from {label.text})."
    return ResearchAnswer(shape="fact", headline=head, not_checked=unmeasured_checks([subject], label),
                          confidence="medium" if idle is not None else "low",
                          confidence_reason="judged from the last push" + (" and commits" if s and s.commits_90d is not None else " only"))


def overview(question: Question, candidates: list[Candidate], label: DataLabel, now: datetime, topic: str) -> ResearchAnswer:
    pool = [c for c in candidates if is_measured(c)]
    if not pool:
        more = " With GitHub access I would search all of GitHub for it." if label.offline else ""
        return ResearchAnswer(shape="overview", headline=f"**The sources at hand can't tell**: the searches found nothing about {topic} in {label.text}.{more}",
                              confidence="low", confidence_reason="nothing was found")
    repos = [scored(c, now) for c in pool[:8]]
    healthy = [r for r in repos if not _risky(r, now)][:PICK_SIZE]
    _, warn = edges(repos, now)
    stale = [r.full_name for r in repos if _risky(r, now)]
    if not healthy:
        return ResearchAnswer(
            shape="overview", comparison=[figures(r, None, now) for r in repos[:PICK_SIZE]],
            headline=(f"**The sources at hand can't answer this well**: the only projects the searches found for {topic} "
                      f"in {label.text} are archived or idle for over a year ({', '.join(stale[:3])})."),
            risks=[f"{n}: {w}." for n, ws in warn.items() for w in ws][:6],
            not_checked=unmeasured_checks(candidates, label), confidence="low",
            confidence_reason="no actively maintained project was found",
        )
    names = ", ".join(r.full_name for r in healthy)
    head = (f"**Short answer:** the best-supported projects for {topic} are {names}, the most corroborated and "
            f"actively pushed of what the searches found in {label.text}.")
    if stale:
        head += f" Avoid {', '.join(stale[:3])}: archived or idle for over a year."
    level, reason = _confidence(healthy, label, decisive=len(healthy) >= 2)
    return ResearchAnswer(
        shape="overview", headline=head, comparison=[figures(r, None, now) for r in healthy],
        risks=[f"{n}: {w}." for n, ws in warn.items() for w in ws][:6],
        not_checked=unmeasured_checks(candidates, label), confidence=level, confidence_reason=reason,
    )


def deterministic_answer(question: Question, candidates: list[Candidate], label: DataLabel, now: datetime,
                         *, sources: list[SourceRef], topic: str) -> ResearchAnswer:
    if question.shape is Shape.MIGRATE:
        return migrate(question, candidates, label, now)
    if question.shape is Shape.PICK:
        return choose(question, candidates, label, now, topic)
    if question.shape is Shape.FACT:
        return fact(question, candidates, label, now, sources)
    return overview(question, candidates, label, now, topic)
