"""The fit: lexical and semantic ranks fused, the floor, the judge's floor, the named language."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from core.models import Repository, SearchParams
from core.search.fit import (
    ELSEWHERE_GATE,
    LEXICAL_FLOOR,
    MATCH_GATE,
    THIN_EVIDENCE_GATE,
    WEAK_DROPPED_FROM,
    fits,
    popularity_prior,
    semantic_query,
)
from core.search.measures import DimensionScore
from core.search.need import read_need
from core.search.screener import Screener
from core.search.semantic import query_text
from core.search.text_scores import TextScores
from tests.fakes.search_source import SearchSource, repo
from tests.search.gate_readings import gate_reading

NOW = datetime(2026, 8, 22, 12, tzinfo=UTC)


def deadline() -> float:
    return time.monotonic() + 30


def test_chat_filler_is_not_part_of_the_need() -> None:
    assert query_text("show me Rust web frameworks") == "Rust web frameworks"
    assert query_text("I need a message queue?") == "message queue"
    assert query_text("find") == "find"  # nothing left: the words as written


def test_a_refined_search_keeps_the_first_need_and_adds_new_words() -> None:
    params = SearchParams(text="react state management -> refine search: hooks", keywords=["hooks"])
    assert semantic_query(params) == "react state management hooks"


def test_meaning_finds_what_the_words_miss_and_the_floor_drops_the_rest() -> None:
    candidates = [
        repo("gin-gonic/gin", 80_000, "Gin is a high-performance HTTP web framework written in Go", "Go"),
        repo("BurntSushi/ripgrep", 50_000, "ripgrep recursively searches directories for a regex pattern", "Rust"),
    ]
    # ripgrep's name holds the word "grep": a lexical match on every core concept
    fitted = fits(SearchParams(text="a faster grep"), candidates, all_core={"BurntSushi/ripgrep"})
    assert "BurntSushi/ripgrep" in fitted
    assert "gin-gonic/gin" not in fitted  # under the floor: not padding
    assert fitted["BurntSushi/ripgrep"].closeness >= LEXICAL_FLOOR
    # what grep is joins the request, so ripgrep fits by meaning alone
    assert "BurntSushi/ripgrep" in fits(SearchParams(text="a faster grep"), candidates, all_core=set())
    assert fits(SearchParams(text="a knitting pattern designer"), candidates, all_core=set()) == {}  # nothing close enough


def test_weak_matches_are_left_out_once_enough_candidates_fit() -> None:
    fitting = [
        repo("k/sift", 800, "A fast and powerful alternative to grep", "Go"),
        repo("j/ugrep", 900, "ultra fast grep with interactive query UI", "C++"),
        repo("m/ack", 700, "ack is a grep-like search tool optimized for source code", "Perl"),
        repo("i/rg", 600, "recursively searches directories for a regex pattern", "Rust"),
        repo("h/ag", 500, "A code-searching tool similar to ack, but faster", "C"),
        repo("l/pt", 400, "A code search tool similar to ack and the_silver_searcher(ag)", "Go"),
    ]
    weak = repo("x/diff", 90_000, "A syntax-aware diff tool", "Rust")  # 0.37 close: over the floor, under WEAK_FIT
    params = SearchParams(text="a faster grep")
    few = fits(params, [fitting[1], weak], all_core=set())  # ugrep 0.61: the weak match is within the relative floor
    assert few["x/diff"].weak, "with few that fit, a weak match stays, labelled"
    assert "x/diff" not in fits(params, [fitting[0], weak], all_core=set())  # sift 0.73: too far under the best
    enough = fits(params, [*fitting[:WEAK_DROPPED_FROM], weak], all_core=set())
    assert "x/diff" not in enough and len(enough) == WEAK_DROPPED_FROM


def test_popularity_breaks_what_meaning_leaves_close_and_small_requests_turn_it_off() -> None:
    assert popularity_prior(100_000, True) > popularity_prior(300, False) > popularity_prior(10, True) > 0
    assert popularity_prior(0, True) == 0
    assert popularity_prior(100_000, True, small=True) == 0


def test_asking_what_people_use_weighs_popularity_more() -> None:
    candidates = [repo("a/tinyflags", 300, "Subcommands and flags for command line apps in Go", "Go"),
                  repo("b/bigcli", 40_000, "A framework for modern CLI applications in Go", "Go")]
    plain = fits(SearchParams(text="subcommands and flags for a Go CLI"), candidates, all_core=set())
    common = fits(SearchParams(text="subcommands and flags for a Go CLI, what do people normally use?"), candidates,
                  all_core=set())
    lead = lambda fitted: fitted["b/bigcli"].fused - fitted["a/tinyflags"].fused  # noqa: E731
    assert read_need("what library do people use for flags").asks_common
    assert not read_need("flags for a Go CLI").asks_common
    assert lead(common) > lead(plain)


async def test_nothing_that_fits_is_an_empty_list_and_a_plain_note() -> None:
    candidates = [repo("yt-dlp/yt-dlp", 100_000, "A feature-rich command-line audio/video downloader", "Python")]
    params = SearchParams(text="find feature flag services", keywords=["feature", "flag"])
    report = await Screener(SearchSource(candidates)).screen(candidates, params, now=NOW, deadline=deadline())
    assert report.items == []
    assert any("rather show nothing than unrelated repositories" in note and "closest matches anyway" in note
               for note in report.notes)


async def test_a_named_language_is_a_hard_filter_with_a_separate_line() -> None:
    candidates = [
        repo("rwf2/Rocket", 25_000, "A web framework for Rust", "Rust"),
        repo("tokio-rs/axum", 20_000, "Ergonomic and modular web framework built with Tokio, Tower, and Hyper", "Rust"),
        repo("django/django", 80_000, "The Web framework for perfectionists with deadlines", "Python"),
    ]
    params = SearchParams(text="rust web frameworks", language="Rust", synonym_groups=[["web framework"]])
    report = await Screener(SearchSource(candidates)).screen(candidates, params, now=NOW, deadline=deadline())
    assert {i.language for i in report.items} == {"Rust"}
    assert any("In other languages than Rust: django/django (Python)" in note for note in report.notes)
    assert any(note.startswith("Only 2 repositories fit") for note in report.notes)


async def test_a_candidate_whose_language_is_not_known_is_not_said_to_be_in_another_one() -> None:
    candidates = [
        repo("rwf2/Rocket", 25_000, "A web framework for Rust", "Rust"),
        repo("django/django", 80_000, "The Web framework for perfectionists with deadlines", "Python"),
        repo("someone/listed-framework", 900, "A small web framework", None),
    ]
    params = SearchParams(text="rust web frameworks", language="Rust", synonym_groups=[["web framework"]])
    report = await Screener(SearchSource(candidates)).screen(candidates, params, now=NOW, deadline=deadline())
    other = next(note for note in report.notes if note.startswith("In other languages than Rust"))
    assert "django/django (Python)" in other and "listed-framework" not in other
    assert any("it may be Rust" in note and "someone/listed-framework" in note for note in report.notes)


class StrictJudge:
    """An LLM judge that read the repositories: only the ORM fits."""

    async def score_text(self, repo, signals, params, readme):
        score = 9.0 if repo.full_name == "go-gorm/gorm" else 1.0
        return TextScores(relevance=DimensionScore(score, "judged by the model"))


async def test_a_judge_that_rules_a_result_off_topic_removes_it() -> None:
    candidates = [
        repo("go-gorm/gorm", 38_000, "The fantastic ORM library for Golang", "Go"),
        repo("go-xorm/xorm", 6_000, "Simple and Powerful ORM for Go", "Go"),
    ]
    params = SearchParams(text="golang orm", language="Go", keywords=["orm"])
    source = SearchSource(candidates)
    plain = await Screener(source).screen(candidates, params, now=NOW, deadline=deadline())
    assert [i.full_name for i in plain.items] == ["go-gorm/gorm", "go-xorm/xorm"]
    judged = await Screener(source, StrictJudge()).screen(candidates, params, now=NOW, deadline=deadline())
    assert [i.full_name for i in judged.items] == ["go-gorm/gorm"]


def test_an_add_on_of_what_the_request_replaces_is_not_the_answer() -> None:
    from core.search.fit import ADD_ON_PENALTY, not_the_answer
    from core.search.need import read_need

    need = read_need("tmux but easier to learn")
    assert not_the_answer(need, "gpakosz/.tmux", "Oh my tmux! My tmux configuration") == ADD_ON_PENALTY
    assert not_the_answer(need, "tmux-plugins/tpm", "Tmux Plugin Manager") == ADD_ON_PENALTY
    assert not_the_answer(need, "zellij-org/zellij", "A terminal workspace with batteries included") == 0.0
    grep = read_need("a faster grep")
    assert not_the_answer(grep, "BurntSushi/ripgrep", "recursively searches directories for a regex pattern") == 0.0
    apis = read_need("hackathon this weekend, need some free APIs to build something fun with")
    assert not_the_answer(apis, "public-apis/public-apis", "A collective list of free APIs") == 0.0
    git = read_need("i want to host my own git server with code review")
    assert not_the_answer(git, "go-gitea/gitea", "Git with a cup of tea! Painless self-hosted all-in-one") == 0.0


def test_a_live_search_embeds_only_the_candidates_it_will_look_at_closely() -> None:
    import numpy as np

    from core.catalog import Catalog
    from core.models import Repository
    from core.search.fit import CLOSE_LOOK, _shipped_or_text, need_vector

    catalog = Catalog.load()
    known = [r.to_repository() for r in catalog.records if r.figures_known][:CLOSE_LOOK + 8]
    live = [r.model_copy(update={"topics": ["live-topic"]}) for r in known]  # as GitHub returns them
    unknown = Repository(full_name="someone/not-in-the-catalog", description="a brand new tool", topics=["cli"])
    need = need_vector("a fast command line tool")
    rows, to_encode = _shipped_or_text([*live, unknown], None, need)
    encoded = {index for index, _ in to_encode}
    assert len(live) in encoded  # what the catalog does not know is always embedded from its text
    assert len(encoded) == CLOSE_LOOK + 1
    borrowed = [i for i in range(len(live)) if i not in encoded]
    closeness = np.stack([catalog.vector(live[i].full_name, live[i].description) for i in range(len(live))]) @ need
    assert max(closeness[borrowed]) <= min(closeness[sorted(encoded - {len(live)})])  # the closest get a close look
    assert all(rows[i] is not None for i in borrowed)
    _, without_need = _shipped_or_text([*live, unknown], None)
    assert len(without_need) == len(live) + 1  # with no need to rank by, every live text is embedded


def test_a_listed_repository_an_older_snapshot_measured_ranks_with_those_stars() -> None:
    from core.catalog import Catalog

    sentry = Catalog.load().get("getsentry/sentry")
    assert sentry is not None and not sentry.figures_known and sentry.earlier_stars  # 43k on 2026-02-22
    assert sentry.to_repository().measured_stars is None  # never shown as a figure of the newest date
    assert popularity_prior(0, False, earlier_stars=sentry.earlier_stars) > popularity_prior(0, False)
    assert popularity_prior(0, False, earlier_stars=50) == popularity_prior(0, False)  # never under a list's credit


def test_a_live_candidate_the_catalog_knows_is_as_close_as_its_example_requests() -> None:
    from core.catalog import Catalog

    record = Catalog.load().get("prometheus/prometheus")
    assert record is not None
    text = f"{record.description} (as GitHub describes it today)"
    known = repo(record.full_name, 60_000, text, "Go", topics=["monitoring"])
    stranger = repo("someone/metrics-fork", 60_000, text, "Go", topics=["monitoring"])  # the same text, no examples
    params = SearchParams(text="our Datadog invoice keeps growing, what can we run ourselves for metrics and dashboards?")
    fitted = fits(params, [known, stranger], all_core=set(), gate=False)
    assert fitted[known.full_name].closeness > fitted[stranger.full_name].closeness + 0.05


def test_matching_only_the_qualifier_costs_nothing_to_a_candidate_close_in_meaning() -> None:
    toast = repo("t/hot-toast", 9_000, "Lightweight and customizable toast notifications for React", "TypeScript")
    react = repo("f/react", 200_000, "The library for web and native user interfaces.", "JavaScript")
    params = SearchParams(text="little toast popups like 'saved!' in the corner of our React app")
    plain = fits(params, [toast, react], all_core=set())
    penalised = fits(params, [toast, react], all_core=set(), qualifier_only={"t/hot-toast", "f/react"})
    assert penalised["t/hot-toast"].fused == plain["t/hot-toast"].fused
    assert "f/react" not in penalised or penalised["f/react"].fused < plain["f/react"].fused


def test_in_a_language_candidates_close_only_in_kind_and_matching_no_word_read_further_under_the_gate() -> None:
    near = repo("a/interchange", 3_000, "Reads and writes healthcare interchange messages", "Java")  # ~0.52 close
    lang = repo("b/jdk", 20_000, "The Java Development Kit", "Java")
    params = SearchParams(text="a library to read and write HL7 v2 hospital messages", language="Java")
    plain = gate_reading(params, [near, lang])
    thin = gate_reading(params, [near, lang], wordless={"a/interchange", "b/jdk"})
    assert thin.over == pytest.approx(plain.over - (THIN_EVIDENCE_GATE - MATCH_GATE))
    assert thin.no_match_logit() > plain.no_match_logit()
    unfiltered = params.model_copy(update={"language": None})  # with no language the evidence is not thin
    assert gate_reading(unfiltered, [near, lang], wordless={"a/interchange", "b/jdk"}).over \
        == pytest.approx(gate_reading(unfiltered, [near, lang]).over)


def test_a_closest_candidate_known_only_from_a_list_and_matching_no_word_reads_further_under_the_gate() -> None:
    from core.catalog import Catalog

    catalog = Catalog.load()
    record = catalog.get("SGrondin/bottleneck")  # "A powerful rate limiter that makes throttling easy."
    assert record is not None and catalog.listed_only(record.full_name)
    limiter = repo(record.full_name, 0, record.description, "JavaScript")
    params = SearchParams(text="I want to throttle the bandwidth of individual apps on my Mac, like capping a cloud backup client")
    plain = gate_reading(params, [limiter])
    assert gate_reading(params, [limiter], wordless={record.full_name}).over \
        == pytest.approx(plain.over - (THIN_EVIDENCE_GATE - MATCH_GATE))
    stranger = repo("someone/limiter", 0, record.description, "JavaScript")  # the same text, a known project
    assert gate_reading(params, [stranger], wordless={"someone/limiter"}).over \
        == pytest.approx(gate_reading(params, [stranger]).over)


def test_among_packages_of_the_named_language_closeness_without_its_name_ranks_them() -> None:
    from core.catalog import Catalog
    from core.search.translator import RuleBasedTranslator

    catalog = Catalog.load()
    params = RuleBasedTranslator().translate_sync(
        "julia package to formulate LP and MILP models and hand them to open-source or commercial solvers")
    assert params.language == "Julia"
    names = ["jump-dev/JuMP.jl", "JuliaLang/julia", "FluxML/Flux.jl", "JuliaPlots/Plots.jl", "SciML/DifferentialEquations.jl"]
    julia = [r.to_repository() for r in (catalog.get(name) for name in names) if r is not None]
    assert len(julia) >= 3
    fitted = fits(params, julia, all_core=set(), gate=False, in_language={r.full_name for r in julia})
    # every Julia package is close to "julia package ..." through the word: how close each is without it ranks them
    assert max(fitted, key=lambda name: fitted[name].fused) == "jump-dev/JuMP.jl"


def test_a_candidate_just_over_the_gate_is_no_sure_fit_unless_the_words_name_it() -> None:
    from core.catalog import Catalog

    record = Catalog.load().get("SGrondin/bottleneck")  # "A powerful rate limiter that makes throttling easy."
    limiter = repo(record.full_name, 0, record.description, "JavaScript")
    vague = SearchParams(text="I want to throttle the bandwidth of individual apps on my Mac, like capping a cloud "
                                 "backup client")
    assert not fits(vague, [limiter], all_core=set(), gate=False)[limiter.full_name].sure  # ~0.52 close: just over the gate
    assert fits(vague, [limiter], all_core={limiter.full_name})[limiter.full_name].sure  # its words name it
    plain = SearchParams(text="rate limiter for node.js to throttle calls to an API")
    assert fits(plain, [limiter], all_core=set())[limiter.full_name].sure


def test_a_request_the_gate_nearly_answers_with_a_plain_no_has_no_sure_fit() -> None:
    from core.catalog import Catalog

    catalog = Catalog.load()
    limiters = [catalog.get(name).to_repository() for name in ("SGrondin/bottleneck", "animir/node-rate-limiter-flexible")]
    asked = SearchParams(text="back off when a node service gets too many requests")
    reading = gate_reading(asked, limiters)
    assert not reading.nothing_fits and reading.nothing_surely_fits  # just under the gate's threshold
    fitted = fits(asked, limiters, all_core=set())
    assert fitted and not any(f.sure for f in fitted.values())  # listed as the closest matches, none a sure one
    plain = SearchParams(text="limit requests per second from a node client")
    assert not gate_reading(plain, limiters).nothing_surely_fits
    assert fits(plain, limiters, all_core=set())["SGrondin/bottleneck"].sure


def test_under_a_language_filter_only_what_is_in_it_or_made_for_it_is_evidence() -> None:
    from core.catalog import Catalog
    from core.search.translator import RuleBasedTranslator

    catalog = Catalog.load()
    params = RuleBasedTranslator().translate_sync("ORM for the Crystal programming language")
    assert params.language == "Crystal"
    orms_elsewhere = [catalog.get(name).to_repository() for name in ("go-gorm/gorm", "silverqx/TinyORM")]
    crystal = catalog.get("mathieulaporte/machine").to_repository()  # Crystal, about machine learning
    candidates = [*orms_elsewhere, crystal]
    # the Go and C++ ORMs are close in meaning, but no evidence that anything fits in Crystal
    anywhere, in_crystal = gate_reading(params, candidates), gate_reading(params, candidates, in_language={crystal.full_name})
    assert in_crystal.over < anywhere.over and in_crystal.no_match_logit() > anywhere.no_match_logit()


def test_a_rare_word_used_only_by_other_languages_candidates_says_nothing_fits_in_the_named_one() -> None:
    candidates = [
        repo("a/go-phone", 900, "Go library to parse and print international phone numbers", "Go"),  # 0.54 close
        repo("g/libphonenumber-js", 9_000, "A port of Google's libphonenumber for parsing, formatting and validating "
             "international phone numbers", "JavaScript"),
    ]
    params = SearchParams(text="validate and format phone numbers the libphonenumber way, written in Go", language="Go")

    def users(word: str, most: int) -> frozenset[str] | None:
        return frozenset({"g/libphonenumber-js"}) if word == "libphonenumber" else None

    plain = gate_reading(params, candidates, in_language={"a/go-phone"})
    assert gate_reading(params, candidates, in_language={"a/go-phone"}, users=users).over \
        == pytest.approx(plain.over - (ELSEWHERE_GATE - MATCH_GATE))
    # where a candidate in the language uses the word too, the gate reads as before
    assert gate_reading(params, candidates, in_language={"a/go-phone"},
                        users=lambda word, most: frozenset(["a/go-phone"]) if word == "libphonenumber" else None).over \
        == pytest.approx(plain.over)
    # ...and where the only other-language candidates using it are further from the need than the
    # best in the language: a word in passing ("keeps deleted files recoverable"), no proof of elsewhere
    far = repo("z/chess", 900, "A chess engine with a UCI interface", "Rust")
    assert gate_reading(params, [*candidates, far], in_language={"a/go-phone"},
                        users=lambda word, most: frozenset(["z/chess"]) if word == "libphonenumber" else None).over \
        == pytest.approx(gate_reading(params, [*candidates, far], in_language={"a/go-phone"}).over)


def test_when_nothing_is_a_sure_fit_closeness_leads_and_popularity_counts_less() -> None:
    from core.catalog import Catalog
    from core.search.fit import UNSURE_POPULARITY

    catalog = Catalog.load()
    famous = catalog.get("rustdesk/rustdesk").to_repository()  # a remote desktop with 100k+ stars
    server = catalog.get("ngircd/ngircd").to_repository()  # an IRC server, known only from a curated list
    bouncer = catalog.get("znc/znc").to_repository()  # an IRC bouncer: what is asked for, by its example requests
    params = SearchParams(text="our team still lives on Libera IRC but everyone's laptop drops off constantly. want "
                               "something we can self-host on a cheap VPS that stays connected 24/7 and plays back "
                               "what we missed when we reconnect")
    fitted = fits(params, [famous, server, bouncer], all_core=set())
    assert not any(f.sure for f in fitted.values())  # just over the gate: the closest matches, none a sure one
    assert fitted[server.full_name].closeness > fitted[famous.full_name].closeness
    assert max(fitted, key=lambda name: fitted[name].fused) == bouncer.full_name
    # with popularity at its full weight the famous project would have come closer to it
    def at_full_weight(r: Repository) -> float:
        earlier = None if r.figures_known else catalog.earlier_stars(r.full_name)
        prior = popularity_prior(r.stars, r.figures_known, earlier_stars=earlier)
        return fitted[r.full_name].fused + (1 - UNSURE_POPULARITY) * prior

    lead = fitted[bouncer.full_name].fused - fitted[famous.full_name].fused
    assert at_full_weight(bouncer) - at_full_weight(famous) < lead


def test_a_candidate_whose_example_requests_the_need_is_typical_of_gains_in_fit() -> None:
    from core.catalog import Catalog
    from core.search.fit import TYPICALITY_WEIGHT, need_vector

    catalog = Catalog.load()
    server, bouncer = (catalog.get(name).to_repository() for name in ("ngircd/ngircd", "znc/znc"))
    params = SearchParams(text="something we can self-host that stays connected to IRC 24/7 and plays back what we "
                               "missed when we reconnect")
    _, typical = catalog.example_readings(need_vector(semantic_query(params)), [server.full_name, bouncer.full_name])
    assert typical[1] > typical[0]  # a bouncer's requests are about playing back; a server's are not
    with_term = fits(params, [server, bouncer], all_core=set(), gate=False)
    gap = with_term[bouncer.full_name].fused - with_term[server.full_name].fused
    closer = with_term[bouncer.full_name].closeness - with_term[server.full_name].closeness
    assert gap > closer  # the bouncer gains more than its closeness alone gives it
    assert TYPICALITY_WEIGHT > 0


def test_a_need_further_from_the_closest_candidates_example_requests_than_they_are_apart_is_atypical() -> None:
    from core.catalog import Catalog
    from core.search.fit import _typicality, need_vector

    catalog = Catalog.load()
    parsers = [catalog.get(name).to_repository() for name in ("shnewto/bnf", "taocpp/PEGTL")]
    klingon = _typicality(catalog, need_vector("a library that parses Klingon grammar"), parsers)
    bnf = _typicality(catalog, need_vector("parse text with a grammar written in Backus-Naur form"), parsers)
    assert klingon is not None and bnf is not None and klingon < 0 < bnf
    unknown = repo("someone/klingon-parser", 10, "Parses Klingon grammar", "Rust")  # a live candidate: no examples
    assert _typicality(catalog, need_vector("a library that parses Klingon grammar"), [unknown]) is None


def test_a_live_candidate_is_read_as_if_it_had_example_requests() -> None:
    import numpy as np

    from core.search.fit import _examples_or_own
    from core.search.gate import EXAMPLES_OVER_OWN

    examples, own = np.array([0.7, -1.0]), np.array([0.5, 0.55])
    assert _examples_or_own(examples, own, 0) == pytest.approx(0.7)
    assert _examples_or_own(examples, own, 1) == pytest.approx(0.55 + EXAMPLES_OVER_OWN)


def test_a_name_the_closest_candidates_never_write_tells_that_nothing_fits() -> None:
    from core.search.gate import GateReading

    said = GateReading(over=0.05, typicality=-0.05, lead=0.05, examples=0.65, words=5, unknown_word=False,
                       in_language=True, covered=0.45, named_covered=1.0)
    unsaid = GateReading(over=0.05, typicality=-0.05, lead=0.05, examples=0.65, words=5, unknown_word=False,
                         in_language=True, covered=0.45, named_covered=0.0)  # "an Elixir implementation of PASETO"
    assert not said.nothing_fits and unsaid.nothing_fits


def test_the_gate_weighs_its_readings_together() -> None:
    from core.search.gate import NO_MATCH_AT, UNSURE_BAND, GateReading

    typical = GateReading(over=0.02, typicality=0.15, lead=0.05, examples=0.62, words=5, unknown_word=False, in_language=False, covered=0.7, named_covered=1.0)
    atypical = GateReading(over=0.02, typicality=-0.15, lead=0.05, examples=0.62, words=5, unknown_word=False, in_language=False, covered=0.7, named_covered=1.0)
    assert not typical.nothing_fits and atypical.nothing_fits  # just over the gate: typicality decides
    assert typical.nothing_surely_fits == (typical.no_match_logit() > NO_MATCH_AT - UNSURE_BAND)
    under = GateReading(over=-0.03, typicality=0.20, lead=0.10, examples=0.70, words=5, unknown_word=False, in_language=False, covered=0.7, named_covered=1.0)
    assert not under.nothing_fits  # a little under the gate, but typical of the closest's requests
    far_over = GateReading(over=0.25, typicality=-0.10, lead=0.05, examples=0.70, words=5, unknown_word=False, in_language=False, covered=0.7, named_covered=1.0)
    assert not far_over.nothing_fits
    assert GateReading(over=0.02, typicality=None, lead=0.05, examples=0.62, words=5, unknown_word=False, in_language=False, covered=0.7, named_covered=1.0) \
        .no_match_logit() < NO_MATCH_AT + 5  # a live candidate's typicality is read as the usual one


def test_the_gate_reads_how_much_of_the_request_the_closest_candidates_speak_of() -> None:
    from core.catalog import Catalog

    catalog = Catalog.load()
    weather = repo("a/forecast", 900, "Weather forecasts and radar maps in the terminal", "Go")  # a live candidate
    ripgrep = catalog.get("BurntSushi/ripgrep").to_repository()
    asked = SearchParams(text="a terminal tool for the weather forecast")
    assert gate_reading(asked, [weather, ripgrep]).covered == pytest.approx(1.0)
    beside = gate_reading(SearchParams(text="a terminal tool for the snowboard wax from the weather forecast"), [weather, ripgrep])
    assert beside.covered < 0.7  # "snowboard", the rarest word, is in neither text
    assert beside.named_covered == 1.0  # it writes no word as a name
    named = gate_reading(SearchParams(text="a terminal tool for the Snowboard forecast"), [weather, ripgrep])
    assert named.named_covered == 0.0 and named.covered > 0.0  # the name alone is unsaid
    # a catalog candidate speaks through its example requests too
    assert catalog.vectors().words_of_examples(catalog.get("BurntSushi/ripgrep").id) <= catalog.words_of(ripgrep.full_name)


def test_a_candidate_whose_texts_use_the_requests_rare_words_gains_in_fit() -> None:
    from core.search.fit import COVERED_WEIGHT

    forecasts = repo("a/forecast", 900, "Weather forecasts in the terminal", "Go")
    riders = repo("b/riders", 900, "Weather forecasts in the terminal, for snowboard riders", "Go")
    fitted = fits(SearchParams(text="snowboard weather forecasts in the terminal"), [forecasts, riders], all_core=set())
    assert fitted["a/forecast"].covered < fitted["b/riders"].covered == 1.0
    assert COVERED_WEIGHT > 0 and fitted["b/riders"].fused > fitted["a/forecast"].fused


def test_a_client_of_a_product_few_repositories_name_must_name_it() -> None:
    webhooks = repo("a/webhooks", 5_000, "Webhook signature verification and payments webhooks for Rust services", "Rust")
    paystack = repo("b/paystack-rs", 40, "Rust client for the Paystack payments API", "Rust")
    request = "Rust crate for the Paystack payments API with webhook signature verification"
    assert list(fits(SearchParams(text=request), [webhooks, paystack], all_core=set())) == ["b/paystack-rs"]
    assert fits(SearchParams(text=request), [webhooks], all_core=set()) == {}  # none names it: nothing fits
    # asked for the closest matches anyway, they are shown
    assert "a/webhooks" in fits(SearchParams(text=request), [webhooks], all_core=set(), gate=False)


def test_a_product_of_several_common_words_is_named_run_together_or_not_at_all() -> None:
    sockets = repo("a/websockets", 5_000, "WebSocket client library for Go", "Go")
    hass = repo("b/hass-go", 40, "Go client for the HomeAssistant websocket API", "Go")
    fitted = fits(SearchParams(text="Go client library for the Home Assistant websocket API"), [sockets, hass],
                  all_core=set())
    assert list(fitted) == ["b/hass-go"]


def test_what_a_product_is_does_not_name_it() -> None:
    crm = repo("a/crm", 5_000, "Open source CRM for PHP teams: deals, leads and contacts", "PHP")
    client = repo("b/pipedrive-php", 40, "PHP client for the Pipedrive API: deals, persons, organizations", "PHP")
    request = "PHP client library for the Pipedrive CRM API to create deals"
    assert list(fits(SearchParams(text=request), [crm, client], all_core=set())) == ["b/pipedrive-php"]


def test_the_rare_names_a_request_writes_that_no_candidate_mentions() -> None:
    from core.search.fit import unnamed_names

    guardian = repo("a/guardian", 3_000, "Token-based authentication for Elixir apps", "Elixir")
    paseto = repo("b/paseto", 40, "PASETO (platform-agnostic security tokens) for Elixir", "Elixir")
    params = SearchParams(text="Elixir implementation of PASETO security tokens")
    assert unnamed_names(params, [guardian]) == ["PASETO"]  # as the request writes it
    assert unnamed_names(params, [guardian, paseto]) == []
    assert unnamed_names(SearchParams(text="Elixir library for security tokens"), [guardian]) == []  # it names nothing



def test_a_product_named_by_a_lists_section_without_what_it_is() -> None:
    from core.search.fit import unnamed_product

    # awesome-rust files tiberius under "Microsoft SQL": the product's name less "Server", run together
    toolkit = repo("a/sqlkit", 5_000, "Database driver toolkit for Rust", "Rust")
    tiberius = repo("b/tds", 40, "", "Rust", categories=["awesome-rust: Libraries > Database > Microsoft SQL"])
    params = SearchParams(text="native Rust driver for Microsoft SQL Server")
    assert unnamed_product(params, [toolkit]) == "Microsoft SQL Server"
    assert unnamed_product(params, [toolkit, tiberius]) is None


def test_a_live_candidate_made_for_a_rival_host_is_left_out_before_the_gate() -> None:
    wrapper = repo("someone/vue-konva", 1_000, "Vue components for the Konva canvas drawing library", "JavaScript")
    plain = repo("someone/konva-tools", 1_000, "Helpers for the Konva canvas drawing library", "JavaScript")
    params = SearchParams(text="Blazor component wrapper around the Konva canvas drawing library")
    assert "someone/vue-konva" not in fits(params, [wrapper, plain], all_core=set())
    vue = SearchParams(text="Vue component wrapper around the Konva canvas drawing library")
    assert "someone/vue-konva" in fits(vue, [wrapper, plain], all_core={"someone/vue-konva"})
