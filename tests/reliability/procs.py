"""Real bot processes for the reliability tests and the load benchmark.

    bot = await BotProcess.start("a", env)       # ``python -m bot run`` in Slack HTTP mode
    bot.url                                      # http://127.0.0.1:<port>/slack/events
    bot.kill()                                   # SIGKILL: a crash
    await bot.stop()                             # SIGTERM: a graceful shutdown
    bot.log_lines(), bot.peak_rss_mb()

Each process gets a minimal environment (nothing leaks in from the test runner), its own data
directory and a free loopback port; its stderr (JSON log lines) goes to a file for inspection.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def base_env(**extra: str) -> dict[str, str]:
    """Just what a Python process needs, plus ``extra`` (never the runner's own secrets)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    env.update(extra)
    return env


@dataclass
class BotProcess:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path
    env: dict[str, str] = field(repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    async def start(cls, name: str, env: dict[str, str], workdir: Path, *, timeout: float = 45.0,
                    args: tuple[str, ...] = ("run",),
                    ready: Callable[[], bool] | None = None) -> "BotProcess":
        """Start the process and wait until it serves: ``GET /healthz`` answers (Slack HTTP
        mode), or ``ready()`` is true (e.g. the fake Discord gateway saw it identify)."""
        workdir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        env = base_env(PORT=str(port), SLACK_HOST="127.0.0.1",
                       OMG_DATA_DIR=str(workdir / "data"), **env)
        log_path = workdir / f"{name}.log"
        with open(log_path, "ab") as log_file:
            process = subprocess.Popen([sys.executable, "-m", "bot", *args], cwd=workdir, env=env,
                                       stdin=subprocess.DEVNULL, stdout=log_file, stderr=log_file)
        bot = cls(name, port, process, log_path, env)
        await bot.wait_ready(timeout, ready)
        return bot

    async def wait_ready(self, timeout: float, ready: Callable[[], bool] | None = None) -> None:
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"bot {self.name} exited ({self.process.returncode}):\n{self.tail()}")
                if ready is not None:
                    if ready():
                        return
                    await asyncio.sleep(0.1)
                    continue
                try:
                    async with http.get(f"http://127.0.0.1:{self.port}/healthz") as response:
                        if response.status == 200:
                            return
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
        self.kill()
        raise RuntimeError(f"bot {self.name} did not start within {timeout:g} s:\n{self.tail()}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """A crash: SIGKILL, no clean-up at all."""
        if self.alive():
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    async def stop(self, timeout: float = 30.0) -> int:
        """A graceful shutdown (SIGTERM); returns the exit code."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.alive():
            self.kill()
        return int(self.process.returncode or 0)

    def peak_rss_mb(self) -> float:
        """The process's peak resident memory so far (VmHWM), in MB."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def log_lines(self) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = []
        for raw in self.log_text().splitlines():
            try:
                lines.append(json.loads(raw))
            except ValueError:
                lines.append({"raw": raw})
        return lines

    def tail(self, n: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-n:])
