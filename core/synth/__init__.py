"""The synthesizer: validated structured data -> Markdown + follow-up suggestions (pure logic)."""

from core.synth.base import Synthesis, SynthesisContext, Synthesizer
from core.synth.synthesizer import DefaultSynthesizer

__all__ = ["DefaultSynthesizer", "Synthesis", "SynthesisContext", "Synthesizer"]
