"""A choice's label: the bold text that names it, else the few words before the notation.

``**Frog Mouth** (D0, S2)`` is labelled "Frog Mouth"; ``Passages lead right (WIS D1, S3, F4)``
is labelled "right"; ``the **Gallery** runs on (D0, S7)`` is labelled "Gallery". Words that are
no label worth showing — a number (``turn to 17``), part of a stat block (``Morale 7 | Cutlass
d6``), a fragment (``came``, ``runs on``, ``leads back``) — give none: :func:`read_label` is
then empty and the choice is named by :func:`fallback_label` ("Go on to 17"), which DT307
``unlabelled-choice`` reports. Labels are read only when something asks for one (the compiled
graph, a message, the editor, DT307 in ``dtc lint``).
"""

from __future__ import annotations

import re

BOLD_LABEL = re.compile(r"(?:\*\*|__)([^*_\n]{1,80})(?:\*\*|__)\s*$")
#: Bold text anywhere (for bold earlier in the clause than the notation).
BOLD = re.compile(r"(?:\*\*|__)([^*_\n]{1,80})(?:\*\*|__)")
#: Everything up to and including the last cut (greedy, so one call finds the last one). An
#: arrow is a cut too: ``the way you came → 14`` is a reference, not a name.
LAST_CUT = re.compile(r".*(?:[.!?;:,()\n\"“”→⇒]|->|=>|\*\*)", re.S)
#: The same without bold marks: where the clause that holds the notation begins.
CLAUSE_CUT = re.compile(r".*(?:[.!?;:,()\n\"“”→⇒]|->|=>)", re.S)
#: Where the words a message quotes begin (an arrow stays in: ``the way you came → 14``).
_QUOTED_CUT = re.compile(r".*[.!?;:,()\n\"“”]", re.S)
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
#: Linking words that open another clause: bold before one of them names something else.
CONNECTIVES = frozenset(("or", "and", "then", "either", "but", "if"))
#: After ``you`` or ``we`` comes a verb (``the way you came``); after ``is`` or ``are``, what a
#: thing is like (``the way is clear``): words there name something only with one of these.
DETERMINERS = ARTICLES | frozenset(("these", "those", "its", "your", "his", "her", "their", "my", "our", "some"))
#: Words that say which way, not what: a label of these alone is a direction (``back``,
#: ``up``), fine as a clause of its own (``Back (D0, S1)``) but a fragment after a linking verb
#: (``the trestle leads back``, ``the **Rails** lead on``), where the subject names the way.
DIRECTIONS = frozenset(
    [
        "on", "onward", "onwards", "up", "down", "back", "in", "out", "off", "away", "ahead", "along",
        "forward", "forwards", "over", "inside", "outside", "below", "above", "beyond", "further", "farther",
        "around", "round", "across", "past", "here", "there",
    ]
)
#: Words that name nothing at all: a label made only of these is a fragment (``at least``,
#: ``it``); with a direction it is one only where the direction alone would be.
FILLERS = frozenset(
    ["at", "least", "again", "still", "now", "instead", "too", "once", "more", "it", "them", "him", "her", "me",
     "us", "yourself"]
)
PARTICLES = DIRECTIONS | FILLERS
#: A label ending in one of these lacks the word it points at (``deal with``).
DANGLING = frozenset(("with", "by", "from", "for", "of", "at", "about"))
#: Verbs that say where a way goes (``the corridor runs on``, ``a spiral stair goes down``):
#: such a clause is labelled by the way itself, its subject.
WAY_VERBS = frozenset(
    [
        "runs", "goes", "winds", "climbs", "drops", "descends", "rises", "continues", "opens", "turns",
        "bends", "slopes", "spirals", "heads", "stretches", "curves", "lies", "waits", "narrows", "widens",
        "twists", "run", "go", "wind", "climb", "drop", "descend", "rise", "continue", "open", "bend", "slope",
        "spiral", "stretch", "curve", "lie", "wait", "narrow", "widen", "twist",
    ]
)
#: Linking verbs after which a fragment (``leads back``, ``is clear``) leaves the subject to name the way.
WAY_STOPS = frozenset(("lead", "leads", "is", "are"))
#: After ``you`` or ``we`` comes a verb; after ``is`` or ``are`` what a thing is like.
_SUBJECTS_AND_LINKS = frozenset(("you", "we", "is", "are"))
#: ``HP 4``: a creature's stat block, never a label.
STAT_BLOCK = re.compile(r"\bHP\s*\d")
#: A letter, of any script: words without one (``17``, ``→``) name nothing.
LETTER = re.compile(r"[^\W\d_]")
_PUNCTUATION = ".,;:!?'’\"“”*_"
#: How far before the parenthesis a label is looked for.
REACH = 160
#: How many of a segment's last words are split off: the five a label can take and one more,
#: to stop at (a property test holds the answer to that of a full split).
_LAST_WORDS = 6


def read_label(before: str) -> str:
    """The label of a choice whose notation follows ``before`` (the entry text up to it), or ""
    when none worth showing is found there (see :func:`fallback_label`)."""
    # A line break right before the parenthesis is no cut: hard-wrapped prose goes on.
    before = before.rstrip()
    if before.endswith(("**", "__")):
        bold = BOLD_LABEL.search(before)
        if bold:
            named = bold.group(1).strip()
            return named if names_something(named) else ""
    if "[" in before:
        before = EFFECT.sub(".", before)
    cut = LAST_CUT.match(before)
    label = _words_label(before[cut.end() :] if cut else before)
    if "**" in before or "__" in before:
        named = _bold_in_clause(before, label)
        if named:
            return named
    return label


def fallback_label(success: object, failure: object, difficulty: int | None, dice: str | None) -> str:
    """What names a choice with no label worth showing: ``Roll d6`` for a random branch, ``Try
    for 17`` for a check (17 on success), ``Go on to 17`` for a move."""
    if dice is not None:
        return f"Roll {dice}"
    if failure is not None and difficulty:
        return f"Try for {success}"
    return f"Go on to {success}"


def names_something(label: str) -> bool:
    """Whether words could name a choice: some letters, no stat block, not only a number."""
    return LETTER.search(label) is not None and "|" not in label and not ("HP" in label and STAT_BLOCK.search(label))


def _worth_showing(label: str, after_link: bool) -> bool:
    """Whether words read before the notation are a label: they name something, are not only
    fillers (``at least``), nor only directions after a linking verb (``after_link``: the
    trestle leads ``back``), and do not end on a word that needs another (``deal with``)."""
    if not names_something(label):
        return False
    words = label.lower().split()
    last = words[-1].strip(_PUNCTUATION)
    if last in DANGLING:
        return False
    if last not in PARTICLES:
        return True
    words = [w.strip(_PUNCTUATION) for w in words]
    if not all(w in PARTICLES for w in words):
        return True
    return not after_link and any(w in DIRECTIONS for w in words)


def _words_label(segment: str) -> str:
    """The label the last few words of a segment (after the last cut) give, or ""."""
    # The label is at most the last five words, and only a sixth is ever looked at (to stop
    # there): the words before it stay one piece, not split (the same answer as a full split).
    words = segment.rsplit(None, _LAST_WORDS)
    taken: list[str] = []
    stop = ""
    for word in reversed(words):
        if len(taken) == 5:
            break
        lowered = word.lower().strip("'’")
        if lowered in STOP_WORDS:
            stop = lowered
            break
        taken.append(word)
    taken.reverse()
    at = len(words) - 1 - len(taken)  # where the stop word is, if one was
    at_sentence_start = at < 0
    caps: list[str] = []
    for word in reversed(taken):
        if not word[:1].isupper():
            break
        caps.append(word)
    caps.reverse()
    if caps and (len(caps) < len(taken) or not at_sentence_start):
        taken = caps
    elif stop in _SUBJECTS_AND_LINKS and (at > 0 or stop in WAY_STOPS) and not any(
            _marks_a_name(w) for w in taken):
        if stop in WAY_STOPS:  # "the way back is clear": the way is what the reader takes
            return _words_label(" ".join(words[:at]))
        return ""  # "the way you came": a verb, no name ("You smell something fishy" keeps its words)
    elif len(taken) > 1 and ((last := taken[-1].lower()) in PARTICLES or last in WAY_VERBS):
        taken = _subject_of_way(taken)
    while taken and taken[0].lower() in ARTICLES:
        taken = taken[1:]
    label = " ".join(taken).strip("*_'\"“”’ ")
    if label and _worth_showing(label, stop in WAY_STOPS):
        return label
    if stop in WAY_STOPS:  # "the stair leads back down": the stair
        return _words_label(" ".join(words[:at]))
    return ""


def _marks_a_name(word: str) -> bool:
    """Whether a word shows the words around it name a thing: a determiner, a capital, an 's."""
    return word.lower() in DETERMINERS or word[:1].isupper() or word.endswith(("'s", "’s"))


def _subject_of_way(taken: list[str]) -> list[str]:
    """``the corridor runs on`` -> ``the corridor``: the subject of a way verb followed only by
    particles, when it is marked as a name (a determiner, or a capital or 's after its first
    word); else the words as they are."""
    end = len(taken)
    while end and taken[end - 1].lower() in PARTICLES:
        end -= 1
    verb = end - 1
    if verb >= 1 and taken[verb].lower() in WAY_VERBS and any(  # (a capital first may open the sentence)
            w.lower() in DETERMINERS or (i > 0 and _marks_a_name(w)) for i, w in enumerate(taken[:verb])):
        return taken[:verb]
    return taken


def _bold_in_clause(before: str, label: str) -> str:
    """Bold text earlier in the notation's clause, when it names the choice: ``the **Gallery**
    runs on``, ``Back to the **Cellar** floor``. It does when no linking word stands between it
    and the notation, or when only a fragment does (``the **Rails** lead on``); not across a
    connective (``**Key** and then back``)."""
    cut = CLAUSE_CUT.match(before)
    clause = before[cut.end() :] if cut else before
    last = None
    for last in BOLD.finditer(clause):  # noqa: B007 (the last one is wanted)
        pass
    if last is None:
        return ""
    named = last.group(1).strip()
    if not named or not names_something(named):
        return ""
    tail = clause[last.end() :]
    if "**" in tail or "__" in tail:  # bold that opens again, round the notation (**Iron Door (D0, S2)**)
        return ""
    between = [w.lower().strip("'’") for w in tail.split()]
    if any(w in CONNECTIVES for w in between):
        return ""
    if label and any(w in STOP_WORDS for w in between):
        return ""
    return named


def words_before(before: str, most: int = 6) -> str:
    """The last words of the clause before the notation (at most ``most``), as written: what a
    message about a choice with no label quotes (empty when nothing stands there)."""
    before = before.rstrip()
    if "[" in before:
        before = EFFECT.sub(".", before)
    cut = _QUOTED_CUT.match(before)
    words = (before[cut.end() :] if cut else before).rsplit(None, most)
    return " ".join(words[-most:])
