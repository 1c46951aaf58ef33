"""A described need whose words happen to be repository names is a search, not an analysis or a
comparison; a request that sets two names apart still compares them; an unsure verdict offers the
user's own words back as a search."""

from __future__ import annotations

import pytest

from core.classifier import LocalIntentClassifier, StaticNameIndex
from core.models import Intent

NAMES = ["Textualize/rich", "froala/wysiwyg-editor", "docker/compose", "tailscale/tailscale", "yaml/pyyaml",
         "vitest-dev/vitest", "jestjs/jest", "pmndrs/zustand", "pmndrs/jotai", "metabase/metabase",
         "ollama/ollama", "ronitsingh10/FineTune", "home-assistant/core", "styled-components/styled-components",
         "rails/rails", "phoenixframework/phoenix", "ElemeFE/element", "apache/beam",
         "ScoopInstaller/Scoop", "chocolatey-archive/chocolatey", "mysql/mysql", "MariaDB/mariadb",
         "postgres/postgres", "jqlang/jq", "kubernetes/kubernetes", "apache/kafka", "hashicorp/terraform",
         "tmux/tmux", "microsoft/WSL", "htop-dev/htop", "tmux-plugins/tpm", "mpv-player/mpv", "videolan/vlc",
         "tolitius/mount", "utmapp/UTM", "is-a-dev/register", "parcel-bundler/parcel",
         "jupyterlab/jupyterlab", "jupyter/notebook", "psf/requests",
         "apache/airflow", "dbt-labs/dbt-core", "hashicorp/consul", "etcd-io/etcd", "runatlantis/atlantis",
         "facebook/react"]


@pytest.fixture(scope="module")
def named(classifier: LocalIntentClassifier) -> LocalIntentClassifier:
    return LocalIntentClassifier(classifier.trained, names=StaticNameIndex(NAMES))


@pytest.mark.parametrize("message", [
    "rich text WYSIWYG editor for the web",
    "vulnerability scanner driven by community YAML templates",
    "our docker image is 2GB and I want to see which layer is bloating it",
    "we love Tailscale but security won't let the coordination server run on someone else's cloud",
    "we have ollama running on a spare GPU box, now we want a chat web UI for the whole team",
    "fine-tune small language models with LoRA/QLoRA on one consumer GPU",
    "people keep committing database passwords to the repo, is there something we can run in CI to catch that?",
    "my new laptop came with loads of preinstalled junk apps, how do I strip them all out?",
    "Ruby on Rails admin dashboard framework",  # ends in the kind of software to find
    "security-focused static analysis for Phoenix web applications",  # "static analysis" is a kind, not a request
    "finite element analysis software for structural engineering with beam and shell elements",  # far apart
    # names in its situation, then a request for software in so many words
    "on Windows I install things through winget, scoop and chocolatey. I'd like one graphical app that "
    "shows pending updates for all of them and updates with a click",
    # "all of them" with nothing listed: the names just said, which one tool should work with
    "I juggle winget, scoop and chocolatey and keep forgetting which installed what, is there one GUI "
    "that drives all of them?",
    # the named tool's counterpart for something else
    "jq but for yaml?",
    # a name and the kind of software wanted for it
    "k8s tui",
    # "check" as a noun asks for no analysis, and a question ending in the kind of software wanted is a search
    "need to burn one windows 11 iso to a usb stick from windows, ideally with an option to skip the TPM "
    "check — the usual little utility?",
    "kafka ui",
    "terraform linter",
    # ...or the platform it is wanted on
    "tmux on windows without wsl?",
    "htop for android",
    # a language wanted inside the named tool: what brings it there (a kernel, a plugin) is searched for
    "can I run clojure code inside jupyter lab?",
    "can I write rust in jupyter?",
    # a kind of software first, then the names it serves, set apart or not
    "backup tool for MySQL or Postgres databases",
    "script that reviews a running MySQL or MariaDB server's status and configuration and recommends tuning changes",
    "software for a food bank to register households and schedule food parcel distribution",  # "software" is a kind
    "need a connector that syncs orders between WooCommerce and Odoo",
    # ...or names joined after a preposition that says what the tool works with
    "I hate watching Twitch in the browser; I want to pipe live streams straight into mpv or VLC from the "
    "command line.",
    # the kind of software wanted at the end, whatever names qualify it
    "ASCOM or INDI telescope mount control software",
    # an owner/name no index knows, within a described need: two words of it ("them" are the plots)
    "my thesis plots come out of MATLAB and look awful in LaTeX, so I want them converted into native "
    "TikZ/pgfplots code",
    "Rust conversion between UTM, latitude/longitude and MGRS",
    # a new clause between two names: they are words of one description, not alternatives
    "API-first Python framework: write the OpenAPI YAML and it routes requests to handlers and validates "
    "them against the schema",
    # names the asker already runs, then the need: "both" are those names
    "we run Airflow and dbt, want something that shows data lineage across both",
    "we store configs in Consul and etcd, looking for a UI to browse and edit both",
    "we use Terraform and Atlantis, looking for policy-as-code checks that comment on the PR",
    # ...each with what it is for, then a tool for them
    "we run WooCommerce for the shop and Odoo for accounting; need a connector that syncs orders between them",
    "we have Postgres in prod and MySQL in staging, need a tool to diff schemas between them",
    # ...or where the wanted tool runs
    "video transcoding pipeline we can run on k8s",
])
def test_names_inside_a_described_need_are_words_of_it(named: LocalIntentClassifier, message: str) -> None:
    result = named.classify_sync(message, [])
    assert result.intent is Intent.SEARCH, result.reasoning
    assert result.repos == []


@pytest.mark.parametrize(("message", "intent"), [
    ("is vitest faster than jest for big projects?", Intent.COMPARE),
    ("zustand or jotai for a small app?", Intent.COMPARE),
    ("should I use mpv or vlc for streams?", Intent.COMPARE),
    ("is zustand good for a small team with lots of shared state?", Intent.ANALYZE),
    ("give me an analysis of zustand", Intent.ANALYZE),
    ("analyze the kafka client", Intent.ANALYZE),  # asked for in so many words
    ("can you check tpm?", Intent.ANALYZE),  # "check" with something to check
    ("is zustand good on ios?", Intent.ANALYZE),
    ("is jupyter lab good for teaching python?", Intent.ANALYZE),  # the tool asked about, not a language in it
    ("is there a tool to compare all of them?", Intent.CLARIFY),
    ("postgres or mysql for a small analytics app?", Intent.COMPARE),  # nothing listed, and a comparison asked for
    ("we use react, is it still maintained?", Intent.ANALYZE),  # "it" is what the asker runs
    ("we use Postgres in prod and MySQL in staging, which is faster?", Intent.COMPARE),  # no tool asked for
])
def test_names_set_apart_or_asked_about_keep_their_request(named: LocalIntentClassifier, message: str,
                                                           intent: Intent) -> None:
    assert named.classify_sync(message, []).intent in (intent, Intent.CLARIFY)


def test_a_hyphenated_name_is_read_as_written_and_two_words_joined_are_not_a_name(
        named: LocalIntentClassifier) -> None:
    def mentioned(message: str) -> list[str | None]:
        return [m.full_name for m in named.finder.find(message)]

    assert mentioned("how's the community around home-assistant") == ["home-assistant/core"]
    assert mentioned("alternatives to styled-components") == ["styled-components/styled-components"]
    assert "ronitsingh10/FineTune" not in mentioned("how do I fine-tune a small model")
    assert mentioned("adapters with LoRA/QLoRA") == []  # a term and its variant, not owner/name


@pytest.mark.parametrize("message", [
    "Search for: I want to turn my old laptop into a home server, what should I run on it",
    "search for something to replace our cron jobs",
    "find me a markdown editor that works offline",
    # the people in the thread asked which software they use
    "what do you all use for backups?",
    "what do you guys use for error tracking in prod?",
    "what are you folks running for log shipping these days?",
])
def test_a_search_by_its_wording_is_a_search(named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent is Intent.SEARCH


def test_an_unsure_verdict_offers_the_message_back_as_a_search(named: LocalIntentClassifier) -> None:
    message = "I want to turn my old laptop into a home server, what should I run on it"
    result = named.classify_sync(message, [])
    if result.intent is Intent.CLARIFY:  # the model may be sure enough to search outright
        assert f"Search for: {message}" in result.clarify_options
        assert not any("React state management" in option for option in result.clarify_options)
        again = named.classify_sync(result.clarify_options[0], [])
        assert again.intent is Intent.SEARCH
    else:
        assert result.intent is Intent.SEARCH


@pytest.mark.parametrize("message", [
    "javascript bundler", "container orchestration", "speech recognition", "WebAssembly runtime",
    "someone pushed an AWS key to our repo last month, how do we catch that before it lands next time?",
    "my ssh sessions die whenever the VPN drops and I lose whatever was running in them",
    "I brew beer at home; is there an open source recipe calculator for IBU, ABV and mash water",
])
def test_a_kind_of_software_or_a_described_need_is_searched_without_a_question(
        named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent is Intent.SEARCH


def test_a_question_with_nothing_in_it_still_gets_one(named: LocalIntentClassifier) -> None:
    assert named.classify_sync("which one should I pick?", []).intent is Intent.CLARIFY


def test_a_question_back_about_a_described_need_offers_it_as_a_search_not_canned_examples() -> None:
    from core.classifier.context import EXAMPLES, build_context
    from core.classifier.questions import for_low_confidence, for_vague

    need = "our nightly exports keep timing out and nobody gets told, is there a way to catch that"
    nothing = build_context([])
    assert for_vague(nothing, need).options == [f"Search for: {need}"]
    assert for_vague(nothing).options == list(EXAMPLES)
    unsure = for_low_confidence(Intent.CLARIFY, Intent.CHAT, nothing, need, describes_need=True)
    assert unsure.options == [f"Search for: {need}"]


@pytest.mark.parametrize("message", ["analyze acme/widgets", "is acme/widgets any good for a small team?"])
def test_an_unknown_owner_name_asked_about_is_still_the_target(named: LocalIntentClassifier, message: str) -> None:
    result = named.classify_sync(message, [])
    assert result.intent is Intent.ANALYZE and result.repos == ["acme/widgets"], result.reasoning


@pytest.mark.parametrize("message", [
    "what do you all think of the results?",  # an opinion, no software
    "what do you use for ranking?",  # a lone "you" may be the bot, asked how it works
])
def test_asking_the_thread_anything_else_stays_chat(named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent is not Intent.SEARCH


@pytest.mark.parametrize("message", [
    "Rust SDK for the Stripe API, ideally async on tokio",  # code for a product
    "Terraform provider for NetBox",
    "mysql to clickhouse cdc",  # from one thing to another
    "docker compose -> nomad job",
    "migrating from Redux to Zustand, any codemod that does the boring parts?",
    "row level data diff between Postgres and Snowflake tables after replication",  # moving data between two
    "nginx log analyzer",  # a name and the kind of tool wanted
    "S3 browser",
    "slack standup bot",
    "what do you guys use as an API gateway on k8s",
    "tool that analyzes bundle size and tells you which deps are bloating it",  # what the tool does
    "sqlite gui mac",  # and the desktop it runs on
    "proxmox backup script",
    "how do you all keep secrets out of git, is there a scanner for that",  # a long ask, the model's second reading
    "Our data team has a few hundred dbt models and nobody knows which ones are still used by dashboards. "
    "I'm after a tool that builds column-level lineage from dbt plus Metabase or Superset",
    # a described need, then a choice of languages to have it in
    "interactive selector for which Terraform resources to plan or apply, in Go or Rust",
])
def test_code_for_a_product_a_named_kind_of_tool_or_between_two_is_a_search(named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent is Intent.SEARCH


@pytest.mark.parametrize("message", [
    "compare webpack to vite",
    "is it worth moving from webpack to vite?",  # no tool asked for
    "which is faster, postgres or mysql",
    "go or rust?",
])
def test_a_comparison_between_two_stays_one(named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent in (Intent.COMPARE, Intent.CLARIFY)


@pytest.mark.parametrize("message", ["i need a tool", "is there a tool for that?", "i want something"])
def test_a_bare_ask_for_software_says_too_little_to_search_for(named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent is Intent.CLARIFY


@pytest.mark.parametrize("message", ["hey bot", "good morning bot"])
def test_a_greeting_to_the_bot_asks_for_no_bot(named: LocalIntentClassifier, message: str) -> None:
    assert named.classify_sync(message, []).intent is Intent.CHAT
