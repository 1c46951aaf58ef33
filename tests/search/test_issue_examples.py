"""The requests that used to fail, asked offline through the chat: what they mean is found even
when no word of it is in the repository's description, and a need nothing fits gets a plain no."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import build_app
from bot.testing import TestBackend
from core.models import RepoList


@pytest.fixture
async def offline() -> AsyncIterator[TestBackend]:
    app = await build_app(env={"OMG_GITHUB": "offline"}, memory=True)
    yield TestBackend(app)
    await app.aclose()


async def listed(chat: TestBackend, request: str) -> list[str]:
    reply = await chat.ask(request)
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    return [item.full_name for item in reply.structured_data.items]


@pytest.mark.parametrize(("request_text", "expected"), [
    ("k8s tui", "derailed/k9s"),  # a name and the kind of software wanted for it; the abbreviations spelled out
    ("find a static site generator written in Go", "gohugoio/hugo"),  # "framework for building websites"
    ("a faster grep", "BurntSushi/ripgrep"),  # "recursively searches directories for a regex pattern"
    ("open source alternative to Firebase", "supabase/supabase"),  # "The Postgres development platform"
])
async def test_the_meaning_finds_what_the_words_miss(offline: TestBackend, request_text: str, expected: str) -> None:
    assert expected in (await listed(offline, request_text))[:10]


async def test_a_named_language_stays_a_hard_filter(offline: TestBackend) -> None:
    reply = await offline.ask("find a static site generator written in Go")
    assert isinstance(reply.structured_data, RepoList)
    assert {item.language for item in reply.structured_data.items} == {"Go"}


async def test_a_choice_of_two_languages_takes_either_and_no_other(offline: TestBackend) -> None:
    reply = await offline.ask("rate limiter library in go or rust")
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    assert {item.language for item in reply.structured_data.items} == {"Go", "Rust"}
    assert "(Go or Rust)" in reply.markdown


async def test_an_application_asked_for_in_a_language_may_be_one_whose_language_is_unknown_offline(
        offline: TestBackend) -> None:
    """awesome-selfhosted files webmail clients without their language: asked for a PHP webmail,
    they are the answer (said to be of a language not known offline), not PHP's mail libraries."""
    reply = await offline.ask("self-hosted PHP webmail")
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    first = reply.structured_data.items[0]
    assert first.full_name in {"the-djmaze/snappymail", "roundcube/roundcubemail", "cypht-org/cypht"}
    assert first.language is None and "whether it is written in PHP is not known offline" in reply.markdown


async def test_those_known_to_be_in_the_language_come_before_those_of_unknown_language(offline: TestBackend) -> None:
    # awesome-selfhosted's game server panels are close too, and their language is unknown offline
    reply = await offline.ask("Minecraft-compatible game server written from scratch in Rust")
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    assert [item.language for item in reply.structured_data.items[:2]] == ["Rust", "Rust"]


async def test_feature_flag_services_are_feature_flag_services(offline: TestBackend) -> None:
    names = await listed(offline, "find feature flag services")
    assert "yt-dlp/yt-dlp" not in names
    assert {"thomaspoignant/go-feature-flag", "flagsmith/flagsmith", "markphelps/flipt"} & set(names[:5])


@pytest.mark.parametrize("request_text", [
    "software for managing a dental clinic", "cobol payroll system",
    # a long description is not a chat: a word no repository uses still names a missing concept
    "scoring software for curling bonspiels with end-by-end results and rink assignments",
    # in a language, the closest of that language match none of the words and are close only in kind
    "migrate our COBOL batch programs to Java automatically",
    # ...the closest of that language itself: not its family's curated-list entries, wordless for being listed
    "OpenTelemetry tracing SDK for Perl",
    # a language is a hard filter: ORMs in C++, Go and Rust are no evidence that one in Crystal fits
    "ORM for the Crystal programming language",
    # Clojure libraries are close to "a Clojure library for ..." through the word alone
    "clojure library for generating QR codes",
    # xlsx libraries in C and Go match every word, which names no fit in Haskell
    "haskell library to read and write excel xlsx files",
    # Twitch chat libraries exist, in other languages than the one named
    "Rust library for building Twitch chat bots",
    # ...as does a DICOM library, in Rust and known from a list only: closer to the need than Go's image
    # packages, though the gate's margin for list-only example requests puts it under them
    "Go package for reading DICOM medical image files",
    # Rust crates are close to "... in a rust service" through the word alone
    "need to read ESRI shapefiles in a rust service, is there a crate for that?",
    # ...and through "crate", Rust's own word for a library
    "Rust crate to read ESRI shapefiles",
    # an acronym no repository and no example request uses names a missing concept as a word does
    "our accounting team in India needs an API client to automate GST return filing and e-way bill generation",
    # grammar parsers are close, but the need is further from any of their example requests than
    # those are from one another: next to what they are for, not among it
    "a library that parses Klingon grammar",
    # in a language, libraries close only in kind, the need typical of none of their requests
    "Kotlin library for parsing and generating G-code for CNC machines and 3D printers",
    # close to screenshot and design tools, but its rarest words are in none of their texts or requests
    "tool that simulates color blindness on screenshots so designers can check UI contrast",
    # over the gate and far ahead of the next, but far less typical of the closest's requests
    "Braille translation and back-translation library for contracted braille",
    # the closest wrap Konva for Vue, a rival framework of the one asked for
    "Blazor component wrapper around the Konva canvas drawing library",
])
async def test_a_need_nothing_fits_gets_a_plain_no(offline: TestBackend, request_text: str) -> None:
    reply = await offline.ask(request_text)
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    assert reply.structured_data.items == []
    assert "nothing in the offline catalog fits" in reply.markdown.lower(), reply.markdown


@pytest.mark.parametrize("request_text", [
    "Our D&D group wants a self-hosted campaign manager for game nights: session notes, NPC sheets and a "
    "combat initiative tracker.",
    "We're getting married and want a small self-hosted site for guest RSVPs, meal choices and a seating "
    "chart planner.",
])
async def test_a_near_domain_request_gets_a_plain_no_or_a_list_that_says_none_is_a_sure_match(
        offline: TestBackend, request_text: str) -> None:
    reply = await offline.ask(request_text)
    data = reply.structured_data
    assert isinstance(data, RepoList), reply.markdown
    if data.items:  # never "I found 10 repositories" with a game-automation tool scored 7/10 first
        assert data.meta is not None and data.meta.uncertain
        assert reply.markdown.startswith("Nothing fits"), reply.markdown
    else:
        assert "nothing in the offline catalog fits" in reply.markdown.lower()


async def test_after_a_plain_no_the_closest_matches_can_be_shown_and_are_called_what_they_are(
        offline: TestBackend) -> None:
    first = await offline.ask("software for managing a dental clinic")
    assert first.suggestions[0] == "Show the closest matches anyway"
    closest = await offline.ask("Show the closest matches anyway")
    assert isinstance(closest.structured_data, RepoList) and closest.structured_data.items, closest.markdown
    assert closest.markdown.startswith("None of these fits"), closest.markdown
    assert "Top 3 picks" not in closest.markdown


@pytest.mark.parametrize(("request_text", "wanted", "replaced"), [
    ("redux feels way too heavy for my react app, what else is there", {"pmndrs/zustand", "pmndrs/jotai"}, "reduxjs/redux"),
    ("I want a nicer htop", {"aristocratos/btop", "ClementTsang/bottom"}, "htop-dev/htop"),
    ("like Trello but self-hosted", {"wekan/wekan", "plankanban/planka", "kanboard/kanboard"}, None),
])
async def test_spoken_requests_are_searches_for_what_they_mean(
    offline: TestBackend, request_text: str, wanted: set[str], replaced: str | None,
) -> None:
    names = await listed(offline, request_text)
    assert wanted & set(names[:10]), names
    assert replaced not in names  # what the user wants to replace is not an answer


@pytest.mark.parametrize(("request_text", "expected"), [
    ("a cat replacement with syntax highlighting", "sharkdp/bat"),  # "A cat(1) clone with wings."
    ("a modern ls replacement", "eza-community/eza"),  # "A replacement for 'ls'"
])
async def test_a_repository_that_offers_itself_instead_comes_first(offline: TestBackend, request_text: str,
                                                                   expected: str) -> None:
    reply = await offline.ask(request_text)
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    assert expected in [item.full_name for item in reply.structured_data.items][:3]
    assert "weak match" not in reply.markdown.split("\n\n")[1].lower()


@pytest.mark.parametrize(("request_text", "expected"), [
    # the repository's own words ("Monitoring system and time series database") are far from the
    # complaint; its example requests are not
    ("our Datadog invoice keeps growing, what can we run ourselves for metrics and dashboards?", "prometheus/prometheus"),
    ("we pay too much for Heroku; can we push to deploy on our own servers instead?", "dokku/dokku"),
])
async def test_a_situation_finds_what_its_example_requests_describe(offline: TestBackend, request_text: str,
                                                                    expected: str) -> None:
    assert expected in (await listed(offline, request_text))[:5]


async def test_a_spoken_request_is_quoted_back_not_turned_into_a_keyword_jumble(offline: TestBackend) -> None:
    said = "we pay too much for Heroku; can we push to deploy on our own servers instead?"
    reply = await offline.ask(said)
    assert "for *we pay too much for Heroku; can we push to deploy on our own servers instead*." in reply.markdown
    follow_up = await offline.ask("what about Go?")
    assert "servers instead (Go)*" in follow_up.markdown
    assert "the results for *we pay too much for Heroku" in follow_up.markdown


async def test_chat_filler_alone_does_not_make_a_request_a_sentence_to_quote(offline: TestBackend) -> None:
    reply = await offline.ask("show me Rust web frameworks")
    assert "for *web frameworks (Rust)*." in reply.markdown, reply.markdown  # not "show me Rust web frameworks (Rust)"


@pytest.mark.parametrize(("request_text", "answer", "within"), [
    ("Elixir library for background jobs backed by PostgreSQL", "oban-bg/oban", 3),
    ("rust library for parsing toml files", "toml-rs/toml", 3),
    # known only from a list organised by language, which files it under Fortran (and three others)
    ("our climate model is all Fortran and we want Bayesian parameter estimation with MCMC sampling without "
     "shelling out to Python. any Fortran library for that?", "cdslaborg/paramonte", 3),
])
async def test_a_library_of_the_language_that_fits_without_the_word_is_found(
        offline: TestBackend, request_text: str, answer: str, within: int) -> None:
    reply = await offline.ask(request_text)
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    assert answer in [item.full_name for item in reply.structured_data.items[:within]]
