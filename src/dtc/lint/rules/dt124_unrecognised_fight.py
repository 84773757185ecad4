from __future__ import annotations

import re
from collections.abc import Iterator

from dtc.compiler.compile import creature_index, match_creature
from dtc.compiler.entries import FIGHT as FIGHT_WORD
from dtc.compiler.model import Creature
from dtc.compiler.read_effects import FIGHT as STARTS_A_FIGHT
from dtc.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity, Span
from dtc.lint.rules.base import Context, Rule, rule

#: The sentence that says where winning a fight leads ("If you win, go to 4"); not "If you
#: succeed" or "If you survive", which also follow checks.
WIN = re.compile(r"^\W*(?:if\s+you\s+(?:win|defeat|kill|slay|beat|prevail)|if\s+victorious|when\s+you\s+win)\b", re.I)
SENTENCE = re.compile(r"[^.!?\n\]]+[.!?]*")  # (an effect's bracket ends one too: "[+alarm] 2 Rats attack.")
#: The sentence that starts a fight, as the docs give it.
START = "Follow the combat rules."


@rule("DT124", "unrecognised-fight", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A fight told in prose that dtc does not start.

    ## What it finds
    An entry that names a creature of the bestiary in a sentence about fighting ("Fight the
    Bell Warden!", "2 Wreckers attack.") and says where winning leads ("If you win, go to 4"),
    but holds nothing that starts a fight: no "Follow the combat rules" (or procedures)
    sentence and no stat block of its own.

    ## Why it matters
    `dtc play`, `dtc simulate` and the editions start a fight only where the text says
    "Follow the combat rules" or holds a stat block. Here no fight happens: the reader walks on
    as if the creature were not there, and "If you win, go to 4" is an exit open to everyone.

    ## Example
    ```
    Bell Warden HP 10 | Morale 12 | Bronze Fists d8
    ...
    2 The bell chamber. Fight the Bell Warden! If you win, go to 4.
    ```

    ## Fix
    Say who with a count before the name, and start the fight: `1 Bell Warden attacks!
    Follow the combat rules. If you win, go to 4.` (or write the creature's stat block last
    on a line of the entry). When the creature is already counted (`2 Wreckers attack.`), the
    fix on offer adds "Follow the combat rules." after that sentence (unsafe: check that a
    fight is what you meant).
    """
    doc = ctx.doc
    # the entries as parsed (list.__iter__): only their words are read here, so the language
    # server is not asked to move every entry to its place after an edit; a finding's entry is
    # taken by index (doc.entries[i]), at its place
    parsed = list.__iter__(doc.entries)
    if not doc.creatures and not any(e.creatures for e in parsed):
        return
    index = creature_index(doc)
    names: list[tuple[re.Pattern[str], Creature]] | None = None
    for i, entry in enumerate(list.__iter__(doc.entries)):
        text = entry.text
        if entry.creatures or STARTS_A_FIGHT.search(text) or not _wins(text):
            continue
        counted = next((m for m in entry.fight_mentions if match_creature(m.name, index) is not None), None)
        if counted is not None:
            said = f"{counted.count} {counted.name}"
            sentence = _sentence_at(text, text.find(said)) if said in text else None
            write = f"after it write '{START}' (that sentence starts the fight)"
        else:
            if names is None:
                names = [(name_pattern(c.name), c) for c in index.values()]
            found = _named_in_a_fight(text, names)
            if found is None:
                continue
            sentence, creature = found
            said = creature.name
            write = (f"write '1 {creature.name} attacks! {START}' (a count before the name says who; that "
                     "sentence starts the fight)")
        number = ctx.res.numbers[i]
        entry = doc.entries[i]
        span, fix = _where(ctx, entry.span, entry.end_line, sentence, counted is not None)
        yield self.diag(
            ctx,
            f"entry {number} tells of a fight with {said}" + (f" ('{sentence}')" if sentence else "")
            + " and where winning leads, but dtc does not recognise a fight there, so none starts: " + write,
            span or entry.span, number, fix)


def _wins(text: str) -> bool:
    low = text.lower()
    if "win" not in low and "defeat" not in low and "kill" not in low and "slay" not in low \
            and "beat" not in low and "prevail" not in low and "victorious" not in low:
        return False
    return any(WIN.match(m.group()) for m in SENTENCE.finditer(text))


def name_pattern(name: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in name.split()]
    return re.compile(r"\b" + r"\s+".join(words) + r"(?:s|es)?\b")


def _named_in_a_fight(text: str, names: list[tuple[re.Pattern[str], Creature]]) -> tuple[str, Creature] | None:
    """The first sentence holding a fight word and a creature's name, and that creature."""
    for m in SENTENCE.finditer(text):
        sentence = m.group()
        if not FIGHT_WORD.search(sentence) or WIN.match(sentence):
            continue
        for pattern, creature in names:
            if pattern.search(sentence):
                return quoted(sentence), creature
    return None


def _sentence_at(text: str, at: int) -> str | None:
    for m in SENTENCE.finditer(text):
        if m.start() <= at < m.end():
            return quoted(m.group())
    return None


def quoted(sentence: str, most: int = 80) -> str:
    """A sentence as a message quotes it: on one line, at most ``most`` characters."""
    words = " ".join(sentence.split())
    return words if len(words) <= most else words[: most - 1].rstrip() + "…"


def _where(ctx: Context, head: Span, end_line: int, sentence: str | None,
           counted: bool) -> tuple[Span | None, Fix | None]:
    """The sentence's span in the source, and (for a counted creature) the fix that starts the fight."""
    lines = ctx.lines
    if lines is None or not sentence:
        return None, None
    text = lines.text
    lo = lines.offset(head.line, head.column)
    hi = lines.offset(end_line + 1, 1) if end_line < len(lines.starts) else len(text)
    pattern = re.compile(r"\s+".join(re.escape(w) for w in sentence.rstrip("…").split()))
    m = pattern.search(text, lo, hi)
    if m is None:
        return None, None
    (l1, c1), (l2, c2) = lines.position(m.start()), lines.position(m.end())
    span = Span(l1, c1, l2, c2)
    if not counted:
        return span, None
    return span, Fix(f"Add '{START}'", (Edit.insert(l2, c2, f" {START}"),), Applicability.UNSAFE)
