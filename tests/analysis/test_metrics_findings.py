"""Key metrics and findings: real numbers when measured, plain 'not available' when not."""

from __future__ import annotations

from core.analysis.findings import build_findings
from core.analysis.metrics import build_metrics
from core.models import Repository, RepoSignals
from core.search.scoring import score_repository
from tests.analysis.fixtures import NOW, abandoned, days_ago, redux, zustand


def _by_name(metrics):
    return {m.name: m for m in metrics}


def test_rich_metrics_cover_every_group_with_values() -> None:
    repo, signals, _ = zustand()
    metrics = _by_name(build_metrics(repo, signals, now=NOW, source_kind="github"))
    assert {m.group for m in metrics.values()} == {"overview", "activity", "maintenance", "community"}
    assert metrics["commits_30d"].value == "25"
    assert metrics["commits_90d"].value == "84"
    assert metrics["releases"].value == "120"
    assert "v5.0.8" in metrics["releases"].note and "weeks ago" in metrics["releases"].note
    assert metrics["last_push"].value == "2 days ago"
    assert metrics["open_issues"].value == "3"
    assert metrics["closed_issues_90d"].value == "45"
    assert metrics["merged_pulls_90d"].value == "52"
    assert metrics["first_response"].value == "4 hours"
    assert metrics["contributors"].value == "290"
    assert metrics["star_growth"].value == "+4.4k in 12 months (+1.5k in 6)"
    assert metrics["license"].value == "MIT"
    assert metrics["age"].value == "about 7 years"
    assert metrics["community_profile"].value == "75%"
    assert "CONTRIBUTING guide" in metrics["community_profile"].note


def test_offline_metrics_say_plainly_what_is_missing() -> None:
    repo = Repository(full_name="a/b", stars=1200, forks=80, language="Go", open_issues=14,
                      pushed_at=days_ago(10), star_growth_12m=300)
    metrics = _by_name(build_metrics(repo, RepoSignals(), now=NOW, source_kind="catalog"))
    for name in ("commits_30d", "commits_90d", "releases", "contributors", "first_response",
                 "closed_issues_90d", "license", "age", "community_profile", "fork_growth"):
        assert metrics[name].value is None, name
        assert metrics[name].note == "not available in the offline snapshot", name
    assert metrics["open_issues"].value == "14"
    assert "together" in metrics["open_issues"].note  # issues + PRs, as GitHub counts them
    assert metrics["star_growth"].value == "+300 in 12 months"
    assert metrics["last_push"].value == "10 days ago"


def test_live_source_has_no_star_history_and_a_missing_license_is_none() -> None:
    repo = Repository(full_name="a/b", stars=10, pushed_at=days_ago(1))
    metrics = _by_name(build_metrics(repo, RepoSignals(has_license=False), now=NOW, source_kind="github"))
    assert metrics["license"].value == "none"
    assert "GitHub keeps no star or fork history" in metrics["star_growth"].note
    assert metrics["commits_90d"].note == "not measured (GitHub did not return it)"


def test_findings_quote_real_numbers_and_explain_terms() -> None:
    repo, signals, readme = zustand()
    scores = score_repository(repo, signals, None, readme, now=NOW)
    findings = build_findings(repo, signals, scores, now=NOW)
    text = " ".join(findings)
    assert "84 commits in the last 90 days" in text
    assert "25 of them in the last 30" in text
    assert "4 hours" in text and "'time to first response'" in text
    assert "120 releases" in text and "v5.0.8" in text
    assert "pull requests (proposed code changes)" in text
    assert "+4.4k" not in text or "4.4k new stars" in text
    assert "Strongest area" in text or "Balanced profile" in text
    assert len(findings) <= 7


def test_findings_flag_risks() -> None:
    repo, signals, _ = abandoned()
    findings = " ".join(build_findings(repo, signals, None, now=NOW))
    assert "No code has been pushed for about 2.2 years" in findings
    assert "No commits in the last 90 days" in findings
    assert "never published a release" in findings
    assert "Slow to respond" in findings
    assert "bus factor" in findings
    assert "No license" not in findings or "permission" in findings


def test_old_release_is_reported() -> None:
    repo, signals, _ = redux()
    findings = " ".join(build_findings(repo, signals, None, now=NOW))
    assert "No release in 13 months" in findings


def test_offline_findings_only_use_what_exists() -> None:
    repo = Repository(full_name="a/b", stars=5000, forks=300, pushed_at=days_ago(3),
                      star_growth_12m=2000)
    findings = build_findings(repo, RepoSignals(), None, now=NOW)
    assert findings == ["Growing fast: 2k new stars in 12 months (67% more than a year ago)."]


def test_recent_committers_stand_in_for_contributors_under_their_own_name() -> None:
    repo, signals, _ = zustand()
    graphql = signals.model_copy(update={"contributors": None, "recent_committers": 2,
                                         "recent_commits_sampled": 100})
    metrics = _by_name(build_metrics(repo, graphql, now=NOW, source_kind="github"))
    assert "contributors" not in metrics  # not "not measured": the stand-in is shown instead
    assert metrics["recent_committers"].value == "2"
    assert metrics["recent_committers"].note == ("distinct authors of the last 100 commits on the "
                                                 "default branch, bots aside")
    scores = score_repository(repo, graphql, now=NOW)
    assert "2 recent committers" in scores.reasons["community"]
    findings = build_findings(repo, graphql, scores, now=NOW)
    assert any(f.startswith("Small team: 2 people wrote the last 100 commits") for f in findings)
    assert not any("contributor" in f.lower() for f in findings)


def test_neither_contributors_nor_committers_is_shown_as_not_measured() -> None:
    repo, _, _ = zustand()
    metrics = _by_name(build_metrics(repo, RepoSignals(), now=NOW, source_kind="github"))
    assert metrics["contributors"].value is None and "recent_committers" not in metrics


def test_one_commit_reads_as_the_only_commit() -> None:
    from core.analysis.format import committers

    assert committers(1, 1) == "1 person wrote the only commit"
    assert committers(14, 100) == "14 people wrote the last 100 commits"
    assert committers(0, 0) == "no commits yet"
