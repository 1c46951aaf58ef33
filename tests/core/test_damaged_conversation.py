"""A damaged conversation file is set aside and the reply says the earlier history was lost."""

from __future__ import annotations

from pathlib import Path

from bot.app import build_app
from bot.testing import TestBackend


async def test_the_reply_says_the_history_could_not_be_read(tmp_path: Path) -> None:
    app = await build_app(env={"OMG_DATA_DIR": str(tmp_path), "OMG_GITHUB": "offline", "LLM_PROVIDER": "none"})
    try:
        bot = TestBackend(app)
        await bot.ask("find react state management libraries")
        [stored] = (tmp_path / "conversations").glob("*.json")
        stored.write_text('{"id": "damaged')
        reply = await bot.ask("hello")
        assert "couldn't read the earlier history" in (reply.footer or "")
        [kept] = (tmp_path / "conversations").glob("*.damaged-*")
        assert kept.read_text() == '{"id": "damaged'
        assert "earlier history" not in ((await bot.ask("thanks")).footer or "")
    finally:
        await app.aclose()
