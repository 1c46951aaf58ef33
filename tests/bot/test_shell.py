"""The terminal shell as a user drives it: scripted lines in, answers and numbered choices out."""

from __future__ import annotations

import io

import pytest

from bot.app import build_app
from bot.shell import ShellBackend
from core.models import Clarification, Comparison, RepoDetailData, RepoList

OFFLINE = {"OMG_GITHUB": "offline", "LLM_PROVIDER": "none"}


@pytest.fixture
async def app(tmp_path):
    app = await build_app(env={**OFFLINE, "OMG_DATA_DIR": str(tmp_path)}, memory=True)
    yield app
    await app.aclose()


def shell(app, lines: list[str]) -> tuple[ShellBackend, io.StringIO]:
    out = io.StringIO()
    return ShellBackend(app.ports, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out,
                        interactive=False), out


async def last_data(app, backend: ShellBackend):
    conversation = await app.store.get(backend.key.conversation_id)
    return conversation.messages[-1].structured_data


async def test_the_done_when_conversation(app) -> None:
    backend, out = shell(app, [])
    await backend.handle_line("find react state management libraries")
    assert isinstance(await last_data(app, backend), RepoList)
    assert "1) Analyze" in out.getvalue()  # suggestions are numbered choices
    await backend.handle_line("analyze the second one")
    assert isinstance(await last_data(app, backend), RepoDetailData)
    await backend.handle_line("compare the first two")
    assert isinstance(await last_data(app, backend), Comparison)
    await backend.handle_line("thanks")
    assert "welcome" in out.getvalue().lower()


async def test_tell_me_more_without_context_asks_back(app) -> None:
    backend, out = shell(app, [])
    await backend.handle_line("tell me more")
    assert isinstance(await last_data(app, backend), Clarification)
    assert "Find React state management libraries" in out.getvalue()


async def test_typing_a_number_clicks_that_choice(app) -> None:
    backend, out = shell(app, [])
    await backend.handle_line("find python web frameworks")
    first_choice = backend.choices[0]
    await backend.handle_line("1")
    conversation = await app.store.get(backend.key.conversation_id)
    assert conversation.messages[-2].content == first_choice.value  # as if the user typed it
    await backend.handle_line("99")
    assert "Pick a number from 1 to" in out.getvalue()


async def test_scripted_mode_reads_lines_until_quit_and_new_starts_afresh(app) -> None:
    backend, out = shell(app, ["hello", "/new", "", "/quit", "never read"])
    first = backend.key.conversation_id
    await backend.serve()
    assert backend.key.conversation_id != first
    assert await app.store.get(backend.key.conversation_id) is None
    assert len((await app.store.get(first)).messages) == 2


async def test_bad_input_gets_a_friendly_line_not_a_traceback(app) -> None:
    backend, out = shell(app, [])
    for line in ["\x00\x01", "x" * 40_000, "مرحبا 👋 find rust cli tools", "\x1b[31mred\x1b[0m"]:
        assert await backend.handle_line(line)
    text = out.getvalue()
    assert "Traceback" not in text and "first 4,000 characters" in text


# -- the interactive (TTY) path: prompt_toolkit reading keystrokes from a pipe -------------------

class Typist:
    """Types one burst of keys into the real prompt each time the shell asks for a line."""

    def __init__(self, reader, keys, bursts: list[str]) -> None:
        self.reader, self.keys, self.bursts = reader, keys, list(bursts)

    async def read_line(self) -> str | None:
        self.keys.send_text(self.bursts.pop(0) if self.bursts else "\x04")  # then Ctrl-D
        return await self.reader.read_line()


async def test_the_prompt_edits_lines_and_recalls_history(app, tmp_path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from bot.shell.prompt import HISTORY_FILE, EditingLineReader

    left, up = "\x1b[D", "\x1b[A"
    typed_line = "fnd python web frameworks"
    with create_pipe_input() as keys:
        reader = EditingLineReader.with_history_file(tmp_path, input=keys, output=DummyOutput())
        out = io.StringIO()
        # "fnd ..." + Left to after the "f" + "i" -> "find ..."; then Up recalls it
        bursts = [typed_line + left * (len(typed_line) - 1) + "i\r", up + "\r"]
        backend = ShellBackend(app.ports, stdout=out, interactive=True, line_reader=Typist(reader, keys, bursts))
        await backend.serve()
    conversation = await app.store.get(backend.key.conversation_id)
    typed = [m.content for m in conversation.messages if m.role == "user"]
    assert typed == ["find python web frameworks", "find python web frameworks"]
    assert "^[[" not in out.getvalue()
    assert (tmp_path / HISTORY_FILE).read_text().count("+find python web frameworks") == 1  # repeats kept once


async def test_ctrl_r_searches_the_history(tmp_path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from bot.shell.prompt import EditingLineReader

    (tmp_path / "shell_history").write_text(
        "\n# earlier\n+compare zustand vs redux\n\n# earlier\n+find rust web frameworks\n")
    with create_pipe_input() as keys:
        reader = EditingLineReader.with_history_file(tmp_path, input=keys, output=DummyOutput())
        keys.send_text("\x12zust\r\r")  # Ctrl-R "zust", Enter accepts the match, Enter sends it
        assert await reader.read_line() == "compare zustand vs redux"
        keys.send_text("\x04")
        assert await reader.read_line() is None


async def test_scripted_mode_does_not_touch_the_history(app, tmp_path) -> None:
    backend, out = shell(app, ["find python web frameworks"])
    assert backend.line_reader is None
    await backend.serve()
    assert "1) Analyze" in out.getvalue()
    assert not (tmp_path / "shell_history").exists()
