"""Named numpy arrays in one ``.npz`` file: written byte for byte the same for the same arrays
(fixed timestamps), read without pickle."""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

import numpy as np

log = logging.getLogger("omg.textmodel")
T = TypeVar("T")

_EPOCH = (1980, 1, 1, 0, 0, 0)


def write_archive(path: Path, arrays: Mapping[str, np.ndarray]) -> Path:
    """Writes ``arrays`` to ``path`` (through a temporary file beside it), compressed."""
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as archive:
        for name in sorted(arrays):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(arrays[name]), allow_pickle=False)
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, buffer.getvalue(), compresslevel=9)
    tmp.replace(path)
    return path


def read_archive(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


def load_current(path: Path, fingerprint: str, build: Callable[[dict[str, np.ndarray]], T], *,
                 name: str, refresh: str) -> T | None:
    """``build`` of the arrays at ``path`` when they carry ``fingerprint``; None when the file is
    missing, stale (the code or data it was fitted from changed) or unreadable, with one warning
    line naming ``name`` and the ``refresh`` command: the caller then fits the model in memory."""
    if not path.is_file():
        return None
    try:
        arrays = read_archive(path)
        if str(arrays["fingerprint"]) != fingerprint:
            log.warning("shipped %s is stale; fitting it in memory (run `%s` to refresh it)", name, refresh)
            return None
        return build(arrays)
    except (OSError, EOFError, KeyError, ValueError, TypeError) as exc:  # corrupt, truncated or another format
        log.warning("could not load the shipped %s (%s); fitting it in memory", name, type(exc).__name__)
        return None
