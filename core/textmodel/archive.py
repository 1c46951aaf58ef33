"""Named numpy arrays in one ``.npz`` file: written byte for byte the same for the same arrays
(fixed timestamps), read without pickle."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

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
