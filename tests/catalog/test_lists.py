"""The curated-list part of the catalog: categories for snapshot repositories, list-only
repositories with no figures, the share-alike rows kept apart, and honest replies about them."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import build_app
from bot.testing import TestBackend
from core.catalog import Catalog
from core.catalog.build import LISTS_DIR, LISTS_FILE, SHARE_ALIKE_FILE, build_lists
from core.catalog.catalog import default_data_file
from core.catalog.lists import C_OR_CPP, c_or_cpp, csharp_or_fsharp, list_language, read_listed, section_language
from core.models import Comparison, RepoList, SearchParams

SHARED_LISTS = Path(__file__).resolve().parents[3] / "shared" / "data" / "awesome-lists"
GARAGE = "deuxfleurs-org/garage"  # only in awesome-rust: "S3-compatible distributed object storage ..."


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def test_list_only_repositories_join_the_snapshot(catalog: Catalog) -> None:
    list_only = [r for r in catalog.records if not r.figures_known]
    assert 12_900 <= len(list_only) <= 13_100  # 13,602 listed, 597 of them already in the snapshot
    assert len({r.full_name.lower() for r in catalog.records}) == len(catalog)
    assert [r.id for r in catalog.records] == list(range(len(catalog)))


def test_snapshot_repositories_gain_their_categories(catalog: Catalog) -> None:
    ripgrep = catalog.get("BurntSushi/ripgrep")
    assert ripgrep is not None and ripgrep.figures_known and ripgrep.stars > 10_000
    assert ripgrep.categories == ["awesome-cli-apps: Files and Directories > Search"]
    assert ripgrep.to_repository().categories == ripgrep.categories


def test_a_list_only_repository_has_no_figures(catalog: Catalog) -> None:
    garage = catalog.get(GARAGE)
    assert garage is not None and not garage.figures_known
    assert garage.language == "Rust"  # from a one-language list
    assert "object storage" in garage.description
    repo = garage.to_repository()
    assert not repo.figures_known and repo.measured_stars is None and repo.measured_forks is None
    assert repo.open_issues is None and repo.pushed_at is None and repo.star_growth_12m is None
    # however a search meets it (offline, or live with measured figures), the catalog lists it only
    assert catalog.listed_only(GARAGE) and catalog.listed_only(GARAGE.upper())
    assert not catalog.listed_only("gohugoio/hugo") and not catalog.listed_only("nobody/nothing")


def test_a_list_organised_by_language_gives_its_entries_their_sections_language(catalog: Catalog) -> None:
    assert section_language("josephmisiti/awesome-machine-learning", "Python > Spiking Neural Networks") == "Python"
    assert section_language("josephmisiti/awesome-machine-learning", "Tools > Misc") is None
    assert section_language("awesome-selfhosted/awesome-selfhosted-data", "Go") is None  # a topic there, not a language
    assert list_language([("avelino/awesome-go", "Web Frameworks", ""), ("josephmisiti/awesome-machine-learning", "Python > NLP", "")]) is None
    tonic = catalog.get("neuromorphs/tonic")  # known only from that list
    assert tonic is not None and not tonic.figures_known and tonic.language == "Python"


def test_an_entry_no_list_gives_a_language_has_the_one_its_description_states(catalog: Catalog) -> None:
    selfhosted = "awesome-selfhosted/awesome-selfhosted-data"
    assert list_language([(selfhosted, "Communication - IRC", "Modular IRC server written in C for Linux")]) == "C"
    assert list_language([(selfhosted, "Database Management", "Database management in a single PHP file.")]) == "PHP"
    assert list_language([(selfhosted, "Games", "A web-based pictionary game.")]) is None  # it says none
    assert list_language([(selfhosted, "Feed Readers", "A Python client for feeds")]) is None  # what it serves
    # a list about one language still decides
    assert list_language([("avelino/awesome-go", "Database", "Bindings written in C")]) == "Go"
    unrealircd = catalog.get("unrealircd/unrealircd")  # known only from the self-hosted list
    assert unrealircd is not None and not unrealircd.figures_known and unrealircd.language == "C"


def test_a_language_and_its_familys_lists_give_the_family_member_a_filter_on_either_accepts(catalog: Catalog) -> None:
    both = [("sorrycc/awesome-javascript", "Security", ""), ("dzharii/awesome-typescript", "Tools", "")]
    assert list_language(both) == "TypeScript"
    assert list_language([("avelino/awesome-go", "Web", ""), ("rust-unofficial/awesome-rust", "Web", "")]) is None
    pompelmi = catalog.get("pompelmi/pompelmi")  # in both lists: unknown before, so no JavaScript search met it
    assert pompelmi is not None and not pompelmi.figures_known and pompelmi.language == "TypeScript"
    # awesome-java's rows ship in the share-alike file, awesome-kotlin's in the other: the same
    both_jvm = [r for r in catalog.records
                if not r.figures_known and {c.split(":")[0] for c in r.categories} == {"awesome-java", "awesome-kotlin"}]
    assert len(both_jvm) >= 5 and all(r.language == "Kotlin" for r in both_jvm)


def test_a_repository_in_both_license_files_has_the_language_every_list_filing_it_gives(catalog: Catalog) -> None:
    permissive, share_alike = (read_listed([path]) for path in (LISTS_FILE, SHARE_ALIKE_FILE))
    assert all(permissive[name].language == listed.language for name, listed in share_alike.items() if name in permissive)
    # awesome-go says Go and awesome-selfhosted (share-alike) says nothing: Go, where the files once disagreed
    maddy = catalog.get("foxcpp/maddy")
    assert maddy is not None and not maddy.figures_known and maddy.language == "Go"
    themis = catalog.get("cossacklabs/themis")  # filed under seven languages' lists
    assert themis is not None and themis.language is None


def test_category_text_is_searchable(catalog: Catalog) -> None:
    # "Files and Directories > Search" is list text only: ripgrep's own description says "search tool"
    found = [r.full_name for r in catalog.search(SearchParams(keywords=["directories"]), sort="best", limit=200)]
    assert "BurntSushi/ripgrep" in found
    storage = [r.full_name for r in catalog.search(SearchParams(keywords=["s3", "object", "storage"]), sort="best")]
    assert GARAGE in storage


def test_star_filters_and_sorts_never_treat_unknown_as_zero(catalog: Catalog) -> None:
    small = catalog.search(SearchParams(keywords=["storage"], max_stars=5000), limit=100)
    assert small and all(r.figures_known for r in small)
    by_stars = catalog.search(SearchParams(keywords=["storage"]), sort="stars", limit=300)
    known = [r.figures_known for r in by_stars]
    assert known == sorted(known, reverse=True)  # measured ones first, the unmeasured after
    # a push date that was never measured is not an old one: as on the live path (``in_range``), it
    # passes the filter, and sorts after every measured one
    recent = catalog.search(SearchParams(keywords=["storage"], pushed_after=catalog.snapshot_date), sort="updated", limit=300)
    known = [r.figures_known for r in recent]
    assert True in known and False in known and known == sorted(known, reverse=True)


def test_bare_names_of_list_only_repositories_are_not_references(catalog: Catalog) -> None:
    assert catalog.names.resolve("garage") == []
    assert catalog.names.resolve(GARAGE.upper()) == [GARAGE]


def test_share_alike_rows_are_kept_apart_with_their_license() -> None:
    permissive = gzip.decompress(LISTS_FILE.read_bytes()).decode("utf-8")
    assert "CC-BY-SA" not in permissive
    share_alike = gzip.decompress(SHARE_ALIKE_FILE.read_bytes()).decode("utf-8")
    assert "awesome-selfhosted" in share_alike and "akullpp/awesome-java" in share_alike
    note = (LISTS_DIR / "awesome-lists-sharealike.LICENSE.md").read_text(encoding="utf-8")
    assert "CC BY-SA 3.0" in note and "CC BY-SA 4.0" in note
    attribution = (LISTS_DIR / "AWESOME_LISTS.md").read_text(encoding="utf-8")
    assert "Vinta Chen" in attribution and "Thiago Avelino" in attribution
    for notice in ("avelino_awesome-go", "vuejs_awesome-vue", "fffaraz_awesome-cpp", "veggiemonk_awesome-docker"):
        assert (LISTS_DIR / "LICENSES" / f"{notice}.LICENSE.txt").is_file()


def test_a_list_of_c_and_cpp_libraries_says_which_where_the_description_does(catalog: Catalog) -> None:
    assert c_or_cpp("Single C file TLS 1.2/1.3 implementation") == "C"
    assert c_or_cpp("A tiny JSON parser in ANSI C.") == "C"
    assert c_or_cpp("Header-only C++11 JSON library") == "C++"
    assert c_or_cpp("A C/C++ library for audio") == C_OR_CPP  # both
    assert c_or_cpp("Extremely fast non-cryptographic hash algorithm.") == C_OR_CPP  # neither
    assert c_or_cpp("Objective-C runtime helpers") == C_OR_CPP and c_or_cpp("Fast C# parser") == C_OR_CPP
    assert list_language([("fffaraz/awesome-cpp", "Math", "Fixed point maths"),
                          ("josephmisiti/awesome-machine-learning", "C > General-Purpose Machine Learning", "")]) == "C"
    xxhash, tlse = catalog.get("Cyan4973/xxHash"), catalog.get("eduardsui/tlse")  # only in awesome-cpp
    assert xxhash is not None and xxhash.language == C_OR_CPP
    assert tlse is not None and tlse.language == "C"


def test_a_dotnet_list_entry_is_fsharp_where_its_description_names_fsharp_alone(catalog: Catalog) -> None:
    assert csharp_or_fsharp("Functional (F#) ASP.NET Core micro framework") == "F#"
    assert csharp_or_fsharp("A smooth testing framework for F# with tests as values") == "F#"
    assert csharp_or_fsharp("Computer algebra library, made primarily for C# and F#") == "C#"  # both
    assert csharp_or_fsharp("HTML5 web browser for WinForms and WPF (cefsharp)") == "C#"  # neither
    giraffe = catalog.get("giraffe-fsharp/Giraffe")  # only in awesome-dotnet
    assert giraffe is not None and giraffe.language == "F#"


async def test_a_search_for_c_or_cpp_finds_a_library_the_list_left_either(offline: TestBackend) -> None:
    for language in ("C", "C++"):
        reply = await offline.ask(f"extremely fast non-cryptographic hash function in {language}")
        assert isinstance(reply.structured_data, RepoList), reply.markdown
        assert "Cyan4973/xxHash" in [r.full_name for r in reply.structured_data.items[:3]], reply.markdown


def test_the_catalog_loads_without_the_share_alike_file() -> None:
    without = Catalog.load(default_data_file(), [LISTS_FILE])
    with_all = Catalog.load()
    assert len(without) < len(with_all)
    assert without.get("passbolt/passbolt_api") is None  # only in awesome-selfhosted
    assert with_all.get("passbolt/passbolt_api") is not None
    assert set(read_listed([LISTS_FILE])) < set(read_listed([LISTS_FILE, SHARE_ALIKE_FILE]))


@pytest.mark.skipif(not SHARED_LISTS.is_dir(), reason="awesome-lists source data not available")
def test_packaged_lists_are_rebuilt_identically_from_the_source() -> None:
    permissive, share_alike = build_lists(SHARED_LISTS)
    assert permissive == LISTS_FILE.read_bytes()
    assert share_alike == SHARE_ALIKE_FILE.read_bytes()


@pytest.fixture
async def offline() -> AsyncIterator[TestBackend]:
    app = await build_app(env={"OMG_GITHUB": "offline"}, memory=True)
    yield TestBackend(app)
    await app.aclose()


async def test_offline_replies_never_present_unmeasured_figures_as_facts(offline: TestBackend) -> None:
    reply = await offline.ask(f"analyze {GARAGE}")  # nothing measured: a plain answer, no scorecard
    assert reply.structured_data is None and reply.error is None, reply.markdown
    assert "0 stars" not in reply.markdown and "only listed in awesome-rust" in reply.markdown
    assert "no star, activity or issue figures" in reply.markdown

    reply = await offline.ask(f"compare {GARAGE} vs minio/minio")
    assert isinstance(reply.structured_data, Comparison), reply.markdown
    assert "0 stars" not in reply.markdown
    assert f"Popularity:** {GARAGE}" not in reply.markdown

    reply = await offline.ask("find S3 compatible object storage written in Rust")
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    unmeasured = [r for r in reply.structured_data.items if not r.figures_known]
    assert unmeasured, reply.markdown
    assert "no star or activity figures offline" in reply.markdown
    assert all(r.scores.reasons.get("maturity", "").find("0 stars") < 0 for r in unmeasured)


def test_the_languages_said_to_be_absent_offline_are_absent() -> None:
    """``vocabulary.NOT_OFFLINE`` lets a list's application of unknown language stand for none of
    them: true only while the catalog holds no repository in them."""
    from core.search.vocabulary import NOT_OFFLINE

    assert not {record.language for record in Catalog.load().records} & NOT_OFFLINE
