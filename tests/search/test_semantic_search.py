"""Search as a new user tries it, offline: meaning over words, an honest floor, the named language.

The bot answers from the packaged catalog (``OMG_GITHUB=offline``), as ``make run`` does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import BotApp, build_app
from bot.testing import TestBackend
from core.models import RepoList
from tests.fakes.github import FakeGitHub


@pytest.fixture
async def bot(tmp_path) -> AsyncIterator[TestBackend]:
    app: BotApp = await build_app(env={"OMG_GITHUB": "offline", "OMG_DATA_DIR": str(tmp_path)}, memory=True)
    try:
        yield TestBackend(app)
    finally:
        await app.aclose()


async def names_for(bot: TestBackend, message: str) -> list[str]:
    reply = await bot.ask(message)
    assert isinstance(reply.structured_data, RepoList), reply.markdown
    return [item.full_name for item in reply.structured_data.items]


async def test_rust_web_frameworks_are_only_rust(bot: TestBackend) -> None:
    reply = await bot.ask("show me Rust web frameworks")
    assert isinstance(reply.structured_data, RepoList)
    items = reply.structured_data.items
    assert items and {item.language for item in items} == {"Rust"}
    assert {"tokio-rs/axum", "rwf2/Rocket"} <= {item.full_name for item in items}


@pytest.fixture
async def live(tmp_path) -> AsyncIterator[TestBackend]:
    async with FakeGitHub() as gh:
        app: BotApp = await build_app(env={**gh.env(), "OMG_DATA_DIR": str(tmp_path)}, memory=True)
        try:
            yield TestBackend(app)
        finally:
            await app.aclose()


async def test_live_results_are_gated_and_kept_to_the_named_language(live: TestBackend) -> None:
    reply = await live.ask("show me Rust web frameworks")
    assert isinstance(reply.structured_data, RepoList) and reply.structured_data.meta.source == "github"
    items = reply.structured_data.items
    assert items and {item.language for item in items} == {"Rust"}


async def test_a_client_of_a_product_nothing_names_is_a_plain_no_live_and_offline(bot: TestBackend,
                                                                                  live: TestBackend) -> None:
    request = "Rust crate for the Paystack payments API with charges, transfers and webhook signature verification"
    for backend in (bot, live):
        reply = await backend.ask(request)
        assert isinstance(reply.structured_data, RepoList) and reply.structured_data.items == [], reply.markdown
        assert "Nothing" in reply.markdown
        assert "None of the repositories found in Rust names Paystack" in reply.markdown  # why nothing fits


async def test_a_plain_no_says_which_rare_name_of_the_request_nothing_found_mentions(bot: TestBackend) -> None:
    reply = await bot.ask("Elixir implementation of PASETO security tokens")
    assert isinstance(reply.structured_data, RepoList) and reply.structured_data.items == [], reply.markdown
    assert "None of the repositories found in Elixir mentions PASETO." in reply.markdown
