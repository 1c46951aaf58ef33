"""Reading the need behind a request: named products, what it compares with, spoken wording,
resources; and what the fit makes of them."""

from __future__ import annotations

import pytest

from core.models import Repository, SearchParams
from core.search.fit import MATCH_GATE, UNKNOWN_WORD_GATE, fits, need_vector
from core.search.need import is_resource, read_need
from core.search.semantic import query_vector
from tests.search.gate_readings import gate_reading


def repo(full_name: str, description: str, stars: int = 10_000, language: str | None = None) -> Repository:
    return Repository(full_name=full_name, description=description, url=f"https://github.com/{full_name}",
                      stars=stars, language=language)


@pytest.mark.parametrize(("message", "compared"), [
    ("redux feels way too heavy for my react app, what else is there", ("redux",)),
    ("I want a nicer htop", ("htop",)),
    ("my team wants to stop paying for Slack", ("slack",)),
    ("like Trello but self-hosted", ("trello",)),
    ("something like cat but with colours", ("cat",)),
    ("an open source alternative to Google Analytics", ("google analytics",)),
    ("I want google analytics without all the creepy tracking", ("google analytics",)),
    ("we want our own github running on our servers", ("github",)),
    ("run chatgpt-like models on my laptop", ("chatgpt",)),
    ("postman got too bloated, what's a lighter option", ("postman",)),
    ("python orm besides sqlalchemy", ("sqlalchemy",)),  # things like it, without it
    ("java web frameworks other than spring", ("spring",)),
    # ruled out in passing
    ("SQL-first Go ORM to migrate to? not gorm, too magic for us", ("gorm",)),
    ("an IRC daemon in C, an actual server, not a bouncer like ZNC", ("znc",)),
    ("a markdown editor, but not electron", ("electron",)),
])
def test_what_a_request_compares_with(message: str, compared: tuple[str, ...]) -> None:
    assert read_need(message).compared == compared


@pytest.mark.parametrize("message", [
    "find a static site generator written in Go",
    "top 5 python orms",  # "top" the word, not the tool
    "system monitor for the terminal",  # "terminal like" is not "terminal-like"
    "I want to control my smart lights without the vendor's cloud",  # "lights" is no product
    "desktop apps with a web UI and a Rust core",  # "a Rust core" is a part, not a Rust rewrite of "core"
    "my logbook in a web app instead of desktop software",  # a kind of software, not the repository "desktop"
    "a note app; besides that, it should sync offline",
    "an image resizer that is fast, not slow.",  # "not" before an everyday word rules out no product
    "a fast json parser, not sure which one",
    "what can I drop in that stores bookmarks in flat files?",  # a particle after the verb, no product
])
def test_plain_requests_compare_with_nothing(message: str) -> None:
    assert read_need(message).compared == ()


def test_named_products_are_glossed_with_what_they_are() -> None:
    need = read_need("my team wants to stop paying for Slack, what could we host ourselves")
    assert need.text.endswith("slack: team chat and messaging platform")
    assert "find files" not in read_need("find a static site generator written in Go").text  # "find" the verb


@pytest.mark.parametrize("message", [
    "a TypeScript client for the Calendly v2 API",
    "Python library to build extracts and publish them to Tableau Server",
    "Go wrapper around the Statuspage API",
])
def test_a_product_called_through_its_api_is_not_glossed(message: str) -> None:
    # what the wanted code talks to is not the kind of software wanted
    assert ":" not in read_need(message).text


def test_a_product_to_replace_is_still_glossed_beside_its_api() -> None:
    assert read_need("self-hosted alternative to Calendly").text.endswith("calendly: meeting scheduling")
    assert read_need("a terminal client for Discord").text.endswith("discord: voice and text chat for communities")


def test_spoken_requests_trust_their_words_less() -> None:
    assert not read_need("react state management").spoken
    assert read_need("what do people use for scraping websites in python?").spoken
    assert read_need("our logs are all over the place and we want one spot to search them").spoken
    assert read_need("I need a kanban board").word_trust < read_need("kanban board").word_trust


def test_lists_tutorials_books_and_languages_themselves_are_resources() -> None:
    assert is_resource("vinta/awesome-python", "An opinionated list of awesome Python frameworks")
    assert is_resource("EbookFoundation/free-programming-books", "Freely available programming books")
    assert is_resource("golang/go", "The Go programming language")
    assert is_resource("someone/dotfiles", "my config")
    assert not is_resource("gohugoio/hugo", "The world's fastest framework for building websites.")
    assert not is_resource("pallets/flask", "The Python micro framework for building web applications.")
    assert is_resource("astaxie/build-web-application-with-golang", "A golang ebook intro how to build a web with golang")
    assert is_resource("jackfrued/Python-100-Days", "Python - 100天从新手到大师")
    assert is_resource("TheAlgorithms/Python", "All Algorithms implemented in Python")
    assert is_resource("trekhleb/javascript-algorithms", "Algorithms and data structures implemented in JavaScript")
    assert is_resource("airbnb/javascript", "JavaScript Style Guide")
    assert not is_resource("kovidgoyal/calibre", "E-book library manager that can view, convert, and catalog e-books")
    assert not is_resource("krzyzanowskim/CryptoSwift", "cryptographic algorithms implemented in Swift")
    assert read_need("awesome lists about rust").wants_resources
    assert not read_need("a rust web framework").wants_resources


def _patterns_alone(full_name: str, description: str | None) -> bool:
    from core.search.need import _LANGUAGE_ITSELF, _RESOURCE_DESCRIPTION, _RESOURCE_NAME

    text = description or ""
    return bool(_RESOURCE_NAME.search(full_name.split("/", 1)[-1]) or _RESOURCE_DESCRIPTION.search(text)
                or _LANGUAGE_ITSELF.search(text))


# one description for each way the patterns name a resource
RESOURCE_DESCRIPTIONS = [
    "A curated list of tools", "a list of things", "list of useful scripts", "collection of links to read",
    "The awesome list for shells", "free programming books", "Interview questions and answers",
    "tutorials for beginners", "learn rust in a weekend", "roadmap to becoming a developer", "a vim cheatsheet",
    "my dotfiles", "dotfiles for macOS", "30 days of JavaScript", "resources for learning Go", "study guide",
    "course materials for CS101", "a golang ebook", "learn how to code", "master the command line",
    "All algorithms implemented in C", "entry-level open source projects", "algorithms and data structures",
    "data structures and algorithms in Go", "JavaScript style guide", "concepts every developer should know",
    "Go 教程", "The Go programming language", "a programming language for kids", "the lua interpreter in C",
]


@pytest.mark.parametrize("description", RESOURCE_DESCRIPTIONS)
def test_a_resource_is_found_in_any_case_as_the_patterns_alone_find_it(description: str) -> None:
    for text in (description, description.upper(), description.title()):
        assert is_resource("someone/project", text) and _patterns_alone("someone/project", text)


def test_the_word_check_before_the_patterns_never_changes_a_catalog_verdict() -> None:
    from core.catalog import Catalog

    for record in Catalog.load().records:
        for description in (record.description, *record.list_descriptions):
            assert is_resource.__wrapped__(record.full_name, description) == _patterns_alone(record.full_name, description)


def test_what_is_compared_with_joins_the_meaning_but_not_the_results() -> None:
    message = "redux feels way too heavy for my react app, what else is there"
    assert not (need_vector(message) == query_vector(read_need(message).text)).all()  # redux's vector joined
    candidates = [
        repo("reduxjs/redux", "A JS library for predictable and maintainable global state management", 61_000),
        repo("pmndrs/zustand", "Bear necessities for state management in React", 50_000),
    ]
    fitted = fits(SearchParams(text=message), candidates, all_core=set(), gate=False)
    assert "reduxjs/redux" not in fitted and "pmndrs/zustand" in fitted


def test_a_list_ranks_after_the_software_it_lists_or_is_left_out() -> None:
    candidates = [
        repo("vinta/awesome-python", "An opinionated list of awesome Python frameworks, libraries and software", 230_000),
        repo("encode/httpx", "A next generation HTTP client for Python.", 14_000),
    ]
    fitted = fits(SearchParams(text="python http client"), candidates, all_core=set(), gate=False)
    listed = fitted.get("vinta/awesome-python")
    assert "encode/httpx" in fitted and (listed is None or fitted["encode/httpx"].fused > listed.fused)


def test_a_word_the_collection_never_uses_raises_the_bar_for_a_match() -> None:
    candidates = [repo("someone/stitch", "Cross-stitch pattern editor", 900)]  # cosine ~0.57
    params = SearchParams(text="library for knitting pattern design")
    plain = gate_reading(params, candidates)  # close enough in meaning on its own
    unknown = gate_reading(params, candidates, known=lambda word: word != "knitting")
    assert unknown.unknown_word and unknown.over == pytest.approx(plain.over - (UNKNOWN_WORD_GATE - MATCH_GATE))
    assert unknown.no_match_logit() > plain.no_match_logit()
    cannot_tell = gate_reading(params, candidates, known=lambda word: None)  # a source that cannot tell
    assert not cannot_tell.unknown_word and cannot_tell.over == pytest.approx(plain.over)


def test_what_the_request_replaces_is_known_by_its_usual_spellings() -> None:
    need = read_need("JavaScript runtime alternative to Node.js")
    assert need.replaces("nodejs/node") and not need.replaces("denoland/deno")


def test_a_description_that_offers_itself_instead_stands_in() -> None:
    cat = read_need("a cat replacement with syntax highlighting")
    assert cat.compared == ("cat",)
    assert cat.stands_in("A cat(1) clone with wings.") and not cat.stands_in("Cats library for Scala")
    redis = read_need("alternative to redis")
    assert redis.stands_in("A Redis-compatible in-memory store")
    assert redis.stands_in("A drop-in replacement for Redis and Memcached")
    assert not redis.stands_in("Redis Desktop client")


def test_managing_dotfiles_asks_for_a_tool_not_for_dotfiles() -> None:
    assert not read_need("I need something to manage my dotfiles across machines").wants_resources
    assert read_need("show me some nice dotfiles").wants_resources


@pytest.mark.parametrize(("name", "description"), [
    ("cat", "A cat(1) clone with wings."), ("ls", "A modern replacement for ls"), ("redis", "Redis-compatible store"),
    ("firebase", "The open-source Firebase alternative"), ("node.js", "A drop-in NodeJS replacement"),
    ("cat", "Ein Klon von cat, eine Alternative zu cat — schneller"),
])
def test_a_description_offered_in_place_of_a_name_is_found_as_the_pattern_alone_finds_it(name: str, description: str) -> None:
    from core.search.need import _stand_in_pattern, _stands_in_for

    assert _stands_in_for(name, description) == bool(_stand_in_pattern(name).search(description))
    assert _stands_in_for(name, description) or not description.isascii()


def test_the_word_checks_before_the_stand_in_pattern_never_change_a_catalog_verdict() -> None:
    from core.catalog import Catalog
    from core.search.need import _stand_in_pattern, _stands_in_for

    descriptions = [record.description for record in Catalog.load().records]
    for name in ("cat", "redis", "firebase", "node.js", "google analytics", "c++"):
        pattern = _stand_in_pattern(name)
        assert [_stands_in_for(name, d) for d in descriptions] == [bool(pattern.search(d)) for d in descriptions]


def test_me_after_show_find_give_or_tell_is_chat_filler_not_the_asker() -> None:
    from core.search.need import is_situated

    assert not is_situated("show me Rust web frameworks") and not is_situated("find me a markdown editor")
    assert is_situated("help me find a tool for my thesis") and is_situated("our app is slow")


def test_what_the_asker_already_runs_is_no_answer_but_tools_for_it_are() -> None:
    need = read_need("my karabiner-elements json on macos has grown to thousands of lines. is there a tool "
                     "where i write key remaps in a compact syntax and it generates the json for me?")
    assert need.left_out("pqrs-org/Karabiner-Elements")
    assert not need.left_out("yqrashawn/GokuRakuJoudo") and not need.left_out("someone/karabiner-elements-profiles")
    assert read_need("our Selenium suite is flaky and slow").left_out("SeleniumHQ/selenium")
    assert read_need("our team wants a wiki").owned == ()  # the asker's team, no product
    assert read_need("our new office needs a visitor log").owned == ()
    # what an add-on plugs into is the platform the asker runs, not an answer
    need = read_need("we run everything on proxmox. is there a terraform provider so we can declare our VMs as code?")
    assert need.left_out("hashicorp/terraform") and not need.left_out("someone/terraform-provider-proxmox")
    assert read_need("Kubernetes operator that snapshots etcd to S3").left_out("kubernetes/kubernetes")
    assert read_need("how do people install tmux plugins without copying files around?").left_out("tmux/tmux")
    assert read_need("a browser extension that blocks trackers").owned == ()  # a kind of program, no product


def test_abbreviations_the_model_reads_poorly_are_spelled_out_beside_them() -> None:
    assert read_need("k8s tui").text == "k8s (Kubernetes) tui (terminal user interface)"
    assert read_need("a11y linter for our React app").text.startswith("a11y (accessibility) linter")
    assert read_need("an LLM gateway, any LLM").text.count("(large language model)") == 1  # its first use only
    assert read_need("a go library for the RAG pattern").text.count("retrieval-augmented generation") == 1
    assert read_need("db migrations in go").text == "db migrations in go"  # read well: left as it is
    assert read_need("e2e-tests runner").text == "e2e-tests runner"  # part of a longer word


def test_a_spelled_out_abbreviation_brings_the_need_closer_to_what_it_means() -> None:
    accessibility = query_vector("accessibility linter")
    assert float(need_vector("a11y linter") @ accessibility) > float(query_vector("a11y linter") @ accessibility) + 0.2


def test_acronyms_and_codes_are_words_of_the_request() -> None:
    from core.search.need import coded_words

    assert coded_words("a slicer for my FDM printer that reads STL") == ["fdm", "stl"]
    assert coded_words("decode SAE J1939 frames and C2PA manifests") == ["sae", "j1939", "c2pa"]
    # sizes, speeds and versions are not
    assert coded_words("someone committed a 2GB video; Node 18, 60fps, v2 and 4K") == []


def test_chat_words_tell_nothing_about_the_request() -> None:
    from core.search.need import telling_words

    # "dumb" is in no repository text: it must not read as a concept the catalog lacks
    assert telling_words("ok dumb question but is there a thing that fixes the command I just mistyped?") == [
        "fixes", "command", "mistyped"]
    assert "anyone" not in telling_words("anyone know a way to fake postgres in-memory for our jest tests?")


@pytest.mark.parametrize(("message", "calls"), [
    ("a TypeScript client for the Calendly v2 API", ("Calendly",)),
    ("Rust crate for the Paystack payments API with charges and transfers", ("Paystack",)),
    ("local-network control library for Tuya smart plugs", ("Tuya",)),
    ("Flutter/Dart client for the IGDB video game database API", ("IGDB",)),  # capitals, before "API"
    ("any Elixir client for the Have I Been Pwned API?", ("Have", "I", "Been", "Pwned")),
    ("server-side client for Apple's DeviceCheck API", ("DeviceCheck",)),  # not its owner
    ("Swift SDK for the Adyen checkout API", ("Adyen",)),
    ("is there a Dart client for Strapi's REST API with auth?", ("Strapi",)),
    ("Go client library for the Home Assistant websocket API", ("Home", "Assistant")),
    ("python wrapper for the anilist graphql api", ("anilist",)),  # typed in lower case, before "api"
    ("Auth0 SDK for Flutter to handle universal login", ("Auth0",)),  # named before the kind; Flutter is where it runs
    ("need a Swift Keychain wrapper", ("Keychain",)),
    ("is there a WinRM client crate for Rust?", ("WinRM",)),
    ("embedded-hal implementation crates for Nordic nRF microcontrollers", ("Nordic", "nRF")),  # a capital inside
])
def test_the_product_the_wanted_code_talks_to(message: str, calls: tuple[str, ...]) -> None:
    assert read_need(message).calls == calls


@pytest.mark.parametrize("message", [
    "Go package for the UDP messaging protocol used by TouchOSC",  # a protocol in capitals, no API
    "a library for DNA sequence manipulation",
    "Ruby gem so our specs stop hitting the real Stripe API",  # the gem records calls; it is no Stripe client
    "a Python library for parsing TOML",
    "a Rust crate for the terminal",
    "a tiny wrapper for the web audio api",
    "TURN/STUN relay server for WebRTC clients behind NAT",  # it serves clients
    "Simple HTTP client for Rust",
])
def test_a_request_for_code_of_a_kind_calls_no_product(message: str) -> None:
    assert read_need(message).calls == ()


@pytest.mark.parametrize(("message", "calls"), [
    ("open-source implementation of the Matter smart-home protocol", ("Matter",)),
    ("a Terraform provider for Proxmox", ("Proxmox",)),
    ("Prometheus exporter for Fronius inverters", ("Fronius",)),
    ("an Anki add-on that imports Kindle highlights", ()),  # "add-on that": what it extends is not said after it
])
def test_what_the_wanted_code_extends_or_implements(message: str, calls: tuple[str, ...]) -> None:
    assert read_need(message).calls == calls


def test_what_the_asker_says_they_run_is_no_answer() -> None:
    need = read_need("we use Keycloak for SSO; need a small service that syncs Keycloak groups into Grafana teams")
    assert need.owned == ("keycloak",) and need.left_out("keycloak/keycloak")
    assert read_need("we run console commands from the admin page").owned == ()  # a word, not a product


def test_where_the_asker_lives_all_day_is_the_setting_not_the_need() -> None:
    need = read_need("I basically live in tmux on my VPS and want an IRC client that stays connected")
    assert "tmux" in need.owned and need.left_out("tmux/tmux")
    assert "terminal multiplexer" not in need.text  # not glossed: a multiplexer is not what is asked for
    assert "terminal multiplexer" in read_need("something like tmux but easier").text
    assert read_need("i basically live in the terminal and want a git tui").owned == ()  # a kind of program


def test_the_words_a_request_writes_as_names() -> None:
    from core.search.need import named_words

    assert named_words("Elixir implementation of PASETO security tokens") == ["paseto"]  # the first word may be any
    assert named_words("export my Kindle highlights to Notion, I'd like Markdown") == ["kindle", "notion", "markdown"]
    assert named_words("Swift wrapper for HealthKit and LAS/LAZ files") == ["healthkit", "las", "laz"]
    assert named_words("turn Nginx.conf blocks into k8s Ingress objects") == ["nginx", "conf", "k8s", "ingress"]
    assert named_words("i want a tool for my notes") == []
