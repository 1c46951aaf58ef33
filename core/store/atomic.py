"""Atomic file replacement: write a temp file in the same directory, fsync, rename."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path


def write_atomic_sync(path: Path, data: bytes) -> None:
    """Readers see the old file or the new one, never a torn write (even after kill -9)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


async def write_atomic(path: Path, data: bytes) -> None:
    """The same, off the event loop (one thread hop for the whole write-fsync-rename)."""
    await asyncio.to_thread(write_atomic_sync, path, data)


async def read_bytes(path: Path) -> bytes | None:
    def _read() -> bytes | None:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    return await asyncio.to_thread(_read)
