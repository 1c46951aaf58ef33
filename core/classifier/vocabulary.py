"""Which words may be read as bare repository names.

Two tiers keep "what about Python?" a language and "analyze rich" a repository:

- ``NEVER_NAMES``: English function words and the bot's own vocabulary ("analyze", "best",
  "thanks"): never a repository, whatever the catalog says.
- ``Vocabulary.common``: ordinary words of the domain (languages, topics, the words of the
  utterance set). A common word is a name only in the *lenient* pass, which runs when an
  analyze/compare request still lacks a target ("compare go and rust", "analyze rich").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from core.classifier.stop_words import ENGLISH_STOP_WORDS

from core.classifier.names import name_key

LANGUAGES: frozenset[str] = frozenset(
    """python javascript js typescript ts rust go golang java kotlin swift c c++ cpp c# csharp ruby php
    elixir erlang haskell scala dart lua zig julia r shell bash zsh powershell clojure ocaml fsharp f#
    perl groovy objective-c objc matlab fortran cobol nim crystal v solidity assembly wasm webassembly
    html css sql node nodejs dotnet .net""".split()
)

_BOT_WORDS = """
analyze analyse analysis analyzing analysing audit review evaluate assess inspect check compare
comparing comparison vs versus v.s difference differences find search searching show list give
recommend suggest suggestion looking look need want good best better worse worst great nice cool
awesome thanks thank thx ty cheers hi hello hey yo sup ok okay k kk sure yes yeah yep no nope
please pls plz more details detail info information tell about what which who why how when where
help repo repos repository repositories library libraries lib libs tool tools framework frameworks
project projects package packages crate crates module modules one ones other others else first
second third fourth fifth sixth seventh eighth ninth tenth last top bottom both all them it its this
that these those they quality maintained healthy health active activity popular popularity alternative
alternatives similar like use using used need something anything any code app apps stuff things thing
option options result results item items number num pick choice winner lol haha hmm hm huh um uh
idk dunno maybe sorry bye goodbye morning evening night welcome perfect great works working
doing done interesting wow okay alright fine right wrong can could would should will shall may might
do does did is are was were be been am has have had get gets getting make made let lets let's
again now then also too just only still even really very much many lot lots bit little new old
latest recent trending stars star starred forks issues license docs documentation community
ai ml ui ux api db os io cli gui llm llms bot bots sdk orm cms crm erp ci cd vm nlp cv rag iot aws
gcp act ant cam eco ice om oat pi pow yi z n gt wtf mas pt rt sf fay ash ale ane eta req sci quo
""".split()

# Languages stay out of this tier (sklearn's stop words include "go") so "compare go and rust" works.
NEVER_NAMES: frozenset[str] = (frozenset(ENGLISH_STOP_WORDS) | frozenset(_BOT_WORDS)) - {
    lang for lang in LANGUAGES if len(lang) > 1
}

_WORD = re.compile(r"[a-z][a-z0-9+#.-]*[a-z0-9+#]|[a-z]")


@dataclass(frozen=True)
class Vocabulary:
    """Words that are ordinary vocabulary (``common``) versus candidate repository names."""

    common: frozenset[str] = field(default_factory=frozenset)
    platforms: frozenset[str] = field(default_factory=frozenset)  # name keys of "react", "django"...

    def never(self, word: str) -> bool:
        return word.lower() in NEVER_NAMES

    def is_common(self, word: str) -> bool:
        low = word.lower()
        return low in NEVER_NAMES or low in LANGUAGES or low in self.common

    def is_platform(self, word: str) -> bool:
        """Frameworks and runtimes people search *within* ("what about vue?" after a search)."""
        return name_key(word) in self.platforms

    @classmethod
    def from_texts(
        cls, texts: Iterable[str], names: Iterable[str] = (), platforms: Iterable[str] = ()
    ) -> "Vocabulary":
        """Every word of ``texts`` is common, except the ``names`` used as repository slots."""
        words: set[str] = set()
        for text in texts:
            words.update(_WORD.findall(text.lower()))
        exempt = {n.lower() for n in names}
        return cls(common=frozenset(words - exempt), platforms=frozenset(name_key(p) for p in platforms))
