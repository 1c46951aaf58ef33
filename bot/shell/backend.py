"""The terminal shell: a real chat platform on stdin/stdout.

Interactive on a TTY (an editable prompt with history, progress lines, numbered choices; see
``bot.shell.prompt``); scripted otherwise: one message per input line, answers on stdout. Typing the number of a choice clicks it (a suggestion, a
clarification option, or a research plan decision).
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, TextIO

from bot.base import Backend, Ports
from bot.shell.render import TerminalRenderer
from core.models import (
    Action,
    ActionClick,
    ConversationKey,
    IncomingMessage,
    LogEvent,
    ProgressEvent,
    Reply,
)

if TYPE_CHECKING:
    from bot.shell.prompt import LineReader

HELP = """Type a question, e.g. "find react state management libraries".
Then follow up: "analyze the second one", "compare the first two", "what about Python?".
  <number>            pick one of the numbered choices under the last answer
  /research <goal>    plan a research (add --quick or --deep to choose the depth)
  /new                start a new conversation
  /help               this help
  /quit               leave (Ctrl-D works too)"""

QUIT = {"/quit", "/exit", "quit", "exit"}


class ShellBackend(Backend):
    name = "shell"
    platforms = ("shell", "cli")

    def __init__(
        self,
        ports: Ports,
        *,
        conversation: str = "default",
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        interactive: bool | None = None,
        user: str = "you",
        line_reader: LineReader | None = None,
    ) -> None:
        super().__init__(ports)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.interactive = self.stdin.isatty() if interactive is None else interactive
        if self.interactive and line_reader is None:
            from bot.shell.prompt import EditingLineReader  # prompt_toolkit: only on a terminal

            line_reader = EditingLineReader.with_history_file(ports.data_dir)
        self.line_reader = line_reader
        self.render = TerminalRenderer(color=self.interactive and self.stdout.isatty())
        self.user = user
        self.thread = conversation
        self.choices: list[Action] = []
        self._stopped = False

    @property
    def key(self) -> ConversationKey:
        return ConversationKey(platform="shell", channel="local", thread=self.thread)

    def write(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    async def serve(self) -> None:
        earlier = await self.ports.store.get(self.key.conversation_id)
        resuming = f" (continuing: {len(earlier.messages)} earlier messages; /new starts afresh)" if (
            earlier and earlier.messages) else ""
        if self.interactive:
            self.write(self.render.dim(
                f"oh-my-github shell · conversation '{self.thread}'{resuming} · "
                f"{self.ports.source_label} · /help for help"))
        elif resuming:  # scripted: keep stdout for answers, say it on stderr
            print(f"omg shell: conversation '{self.thread}'{resuming}", file=sys.stderr)
        while not self._stopped:
            line = await self._read_line()
            if line is None:
                break
            if not await self.handle_line(line.strip()):
                break

    async def shutdown(self) -> None:
        self._stopped = True

    async def deliver(self, key: ConversationKey, reply: Reply) -> None:
        """A resumed research report: print it, labelled with its conversation."""
        self.write(self.render.dim(f"[conversation '{key.thread}']"))
        self.show(reply)

    async def _read_line(self) -> str | None:
        if self.interactive and self.line_reader is not None:
            self.write()
            return await self.line_reader.read_line()
        line = await asyncio.to_thread(self.stdin.readline)
        return line if line else None

    async def handle_line(self, line: str) -> bool:
        """Handle one input line; False means the user asked to leave."""
        if not line:
            return True
        if line in QUIT:
            return False
        if line == "/help":
            self.write(HELP)
            return True
        if line == "/new":
            import uuid

            self.thread = uuid.uuid4().hex[:8]
            self.choices = []
            self.write(self.render.dim(f"New conversation '{self.thread}'."))
            return True
        if line.startswith("/research"):
            await self._research(line.removeprefix("/research").strip())
            return True
        if line.isdigit() and self.choices:
            index = int(line) - 1
            if 0 <= index < len(self.choices):
                await self._click(self.choices[index])
            else:
                self.write(f"Pick a number from 1 to {len(self.choices)}.")
            return True
        reply = await self.ports.service.handle_message(
            IncomingMessage(key=self.key, text=line, author=self.user), self._progress
        )
        self.show(reply)
        return True

    async def _research(self, args: str) -> None:
        """The goal goes to the core as typed: ``--quick`` / ``--deep`` are read there."""
        reply = await self.ports.service.start_research(
            args, key=self.key, requester=self.user, progress=self._progress
        )
        self.show(reply)

    async def _click(self, action: Action) -> None:
        if self.interactive:
            self.write(self.render.dim(f"→ {action.label}"))
        reply = await self.ports.service.handle_action(
            ActionClick(key=self.key, kind=action.kind, value=action.value, user=self.user),
            self._progress,
        )
        self.show(reply)

    async def _progress(self, event: ProgressEvent) -> None:
        if self.interactive and isinstance(event, LogEvent):
            self.write(self.render.dim(f"  … {event.content}"))

    def show(self, reply: Reply) -> None:
        if reply.duplicate:
            return
        prefix = "" if not self.interactive else "\n"
        self.write(prefix + self.render.markdown(reply.markdown))
        if reply.footer:
            self.write(self.render.dim(reply.footer))
        self.choices = [a for a in reply.actions if a.kind.value != "feedback"]
        if self.choices:
            self.write(self.render.choices([a.label for a in self.choices]))
        if not self.interactive:
            self.write("")
