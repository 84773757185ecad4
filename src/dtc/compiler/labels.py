"""A choice's label: the element the book prints in bold, else the few words before the notation.

``**Frog Mouth** (D0, S2)`` is labelled "Frog Mouth"; ``Passages lead right (WIS D1, S3, F4)``
is labelled "right". Labels are read only when something asks for one (the compiled graph, a
message, the editor): ``dtc lint`` of a large book reads none for most choices.
"""

from __future__ import annotations

import re

BOLD_LABEL = re.compile(r"(?:\*\*|__)([^*_\n]{1,80})(?:\*\*|__)\s*$")
#: Everything up to and including the last cut (greedy, so one call finds the last one).
LAST_CUT = re.compile(r".*(?:[.!?;:,()\n\"“”]|\*\*)", re.S)
#: An effect such as ``[+stone key]`` (see ``EFFECTS`` in :mod:`dtc.compiler.entries`): a cut, like a full stop.
EFFECT = re.compile(r"\[[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]*[+-][^\[\]]{0,200}\]")
STOP_WORDS = frozenset(
    [
        "or", "and", "you", "may", "can", "could", "then", "to", "either", "lead", "leads", "have", "has", "is",
        "are", "there", "also", "will", "would", "must", "should", "into", "onto", "through", "toward",
        "towards", "but", "if", "we",
    ]
)
ARTICLES = frozenset(("a", "an", "the", "this", "that"))
#: How far before the parenthesis a label is looked for.
REACH = 160


def read_label(before: str) -> str:
    """The label of a choice whose notation follows ``before`` (the entry text up to it)."""
    if before.rstrip().endswith(("**", "__")):
        bold = BOLD_LABEL.search(before)
        if bold:
            return bold.group(1).strip()
    if "[" in before:
        before = EFFECT.sub(".", before)
    cut = LAST_CUT.match(before)
    segment = before[cut.end() :] if cut else before
    # The label is at most the last five words, and only a sixth is ever looked at (to stop
    # there): the words before it stay one piece, not split (the same answer as a full split).
    words = segment.rsplit(None, 6)
    taken: list[str] = []
    for word in reversed(words):
        if word.lower().strip("'’") in STOP_WORDS or len(taken) == 5:
            break
        taken.append(word)
    taken.reverse()
    at_sentence_start = len(taken) == len(words)
    caps: list[str] = []
    for word in reversed(taken):
        if not word[:1].isupper():
            break
        caps.append(word)
    caps.reverse()
    if caps and (len(caps) < len(taken) or not at_sentence_start):
        taken = caps
    while taken and taken[0].lower() in ARTICLES:
        taken = taken[1:]
    return " ".join(taken).strip("*_'\"“”’ ")
