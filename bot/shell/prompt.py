"""Line editing for the interactive shell, through prompt_toolkit.

Arrow keys move in the line, Up/Down recall earlier lines, Ctrl-R searches them (prompt_toolkit's
Emacs key bindings), and the history persists in ``<OMG_DATA_DIR>/shell_history`` across runs.
prompt_toolkit is the library IPython and many database shells use for this; unlike the standard
``readline`` module it works the same on every platform and runs inside the asyncio loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from prompt_toolkit import PromptSession
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

PROMPT = "you> "
HISTORY_FILE = "shell_history"


class LineReader(Protocol):
    async def read_line(self) -> str | None:
        """The next line the user entered, or None when they leave (Ctrl-D)."""
        ...


class EditingLineReader:
    """An editable prompt with history; ``input``/``output`` are injectable for tests."""

    def __init__(
        self,
        history: History | None = None,
        *,
        input: Input | None = None,  # noqa: A002 - prompt_toolkit's own parameter names
        output: Output | None = None,
    ) -> None:
        self.session: PromptSession[str] = PromptSession(
            history=history or InMemoryHistory(), input=input, output=output,
            enable_history_search=False,  # Up recalls the previous line; Ctrl-R searches
        )

    @classmethod
    def with_history_file(cls, data_dir: Path, **kwargs: object) -> EditingLineReader:
        data_dir.mkdir(parents=True, exist_ok=True)
        return cls(FileHistory(str(data_dir / HISTORY_FILE)), **kwargs)  # type: ignore[arg-type]

    async def read_line(self) -> str | None:
        try:
            return await self.session.prompt_async(PROMPT)
        except EOFError:
            return None
        except KeyboardInterrupt:  # Ctrl-C clears the line, like a shell; Ctrl-D leaves
            return ""
