"""The reference grammar: regular expressions for ordinals, ranges, plurals, pronouns and names.

Kept apart from ``core.classifier.mentions`` (which applies them) so the grammar reads in one place.
"""

from __future__ import annotations

import re

ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "last": -1, "penultimate": -2, "top": 1, "bottom": -1,
}
CARDINALS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10,
}
ORD_WORD = (
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|penultimate|top|bottom|"
    r"\d{1,2}(?:st|nd|rd|th)"
)
NOUN = (
    r"ones?|repos?|repositor(?:y|ies)|results?|options?|items?|entr(?:y|ies)|picks?|projects?|"
    r"librar(?:y|ies)|libs?|tools?|packages?|frameworks?|choices?|links?|suggestions?|crates?|modules?"
)
CONNECTOR = (
    r"$|[?.!,;:)]|and\b|&|or\b|vs\b|v\.?s\.?|versus\b|with\b|to\b|against\b|please\b|pls\b|plz\b|"
    r"then\b|too\b|instead\b|over\b|is\b|was\b|looks\b|seems\b|sounds\b|for me\b|here\b|"
    r"(?:in|on|from) (?:the|that|this|your) list\b|of (?:them|these|those|the list)\b|side by side\b"
)
FLAGS = re.IGNORECASE

URL_RE = re.compile(
    r"(?:https?://)?(?:www\.)?github\.com/([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9_.-]+)(?:/[^\s]*)?", FLAGS
)
FULL_RE = re.compile(r"(?<![\w/.:@-])([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9_.-]{1,100})(?![\w/])")
RANGE_RE = re.compile(
    rf"\b(?:the\s+)?(first|top|last|bottom)\s+(two|three|four|five|six|seven|eight|nine|ten|\d{{1,2}})"
    rf"(?:\s+(?:{NOUN}))?(?=\s*(?:{CONNECTOR}|you\b|from\b))",
    FLAGS,
)
POSITION_RE = re.compile(
    rf"\b(the\s+)?(second[\s-]+(?:to[\s-]+)?last|{ORD_WORD})(?:\s+({NOUN}))?\b", FLAGS
)
MARKER_RE = re.compile(
    r"(?:#\s?|\b(?:number|no\.|num|nr\.?|option|result|item|entry|pick|choice|repo|position|spot|slot|rank|place)"
    r"\s*#?\s*)(\d{1,2})\b"
    r"(?!\s*(?:k\b|%|stars|\.\d|\+))",
    FLAGS,
)
BARE_NUMBERS_RE = re.compile(
    r"^\s*(?:(?:analy[sz]e|compare|check|open|show(?: me)?|put|line up|stack up|pit|details?(?: on| for| about)?|more (?:on|about)|"
    r"tell me (?:more )?about|what about|how about|and|pick|take|go with|choose|"
    r"i(?:'ll| will)? (?:take|pick|choose|go with))\s+)?#?\s*"
    r"(\d{1,2}(?:\s*(?:,|and|&|vs\.?|versus|or|with|\+)\s*#?\s*\d{1,2})*)"
    r"(?:\s+(?:side[\s-]by[\s-]side|head[\s-]to[\s-]head|against each other|together))?"
    r"\s*(?:please|pls|plz)?\s*[.!?]*\s*$",
    FLAGS,
)
BOTH_RE = re.compile(r"\b(?:both(?:\s+of\s+(?:them|these|those))?|(?:the|these|those)\s+two(?!\s+\w+\s+\w))\b", FLAGS)
ALL_RE = re.compile(
    rf"\b(?:all\s+of\s+(?:them|these|those|the\s+above)|(?:them|these|those)\s+all|"
    rf"all\s+(?:three|four|five|six|seven|eight|nine|ten|\d{{1,2}})\b|"
    rf"all\s+(?:the\s+|these\s+|those\s+)?(?:results|repos|repositories|options|ones|items|projects|libraries|libs|tools)|"
    rf"each\s+of\s+(?:them|these|those)|every\s*one\s+of\s+(?:them|these|those)|the\s+whole\s+list|"
    rf"(?:these|those)\s+(?:ones|repos|repositories|libraries|libs|tools|projects|options|results|picks)|"
    rf"them|they|(?:these|those)(?=\s*(?:{CONNECTOR}|are\b|look\b|seem\b)))",
    FLAGS,
)
ALL_SHORT_RE = re.compile(r"^\s*(?:compare\s+|analy[sz]e\s+)?all(?:\s+please)?\s*[.!?]*\s*$", FLAGS)
OTHERS_RE = re.compile(
    r"\b(?:the\s+others|the\s+other\s+ones|the\s+rest(?:\s+of\s+them)?|the\s+remaining\s+ones|others)\b", FLAGS
)
PRONOUN_RE = re.compile(
    r"\b(?:(?:that|this|the\s+other)\s+(?:one|repo|repository|project|library|lib|tool|package|framework|crate|thing)|"
    r"the\s+(?:repo|repository)|it's|its|it|(?:that|this)(?=\s*(?:$|[?.!,;:)]|please\b|for me\b|one\b)))",
    FLAGS,
)
PRONOUN_AFTER_VERB = re.compile(
    r"\b(?:analy[sz]e|about|is|compare|check|on|into|review|audit|with|vs|than|like|prefer|using|use)\s+(that|this)\b",
    FLAGS,
)
POSSESSIVE = re.compile(r"\b(?:my|our|your|his|her|their|a|an)\s*$", FLAGS)
REF_LEAD = re.compile(
    r"(?:^|\b(?:analy[sz]e|compare|check|about|on|into|and|vs|with|than|pick|choose|take|open|prefer|like|select)|[,&])\s*$",
    FLAGS,
)
LAST_NOT_REF = re.compile(r"\s*(?:week|month|year|day|time|night|commit|release|update|\d)", FLAGS)
SLASH_WORDS = {
    "and/or", "ci/cd", "i/o", "tcp/ip", "w/o", "a/b", "n/a", "client/server", "c/c++", "yes/no",
    "on/off", "read/write", "input/output", "he/him", "she/her", "they/them", "either/or", "km/h", "s/he",
}
TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+#-]*[A-Za-z0-9+#]|[A-Za-z0-9]")


def ordinal_value(word: str) -> int:
    low = re.sub(r"\s+|-", " ", word.lower())
    if low in ORDINALS:
        return ORDINALS[low]
    if "last" in low:  # "second to last", "second last"
        return -2
    return int(re.match(r"\d+", low).group())  # type: ignore[union-attr]


def number(word: str) -> int:
    low = word.lower()
    return CARDINALS[low] if low in CARDINALS else int(low)
