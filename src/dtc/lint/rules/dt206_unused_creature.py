from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.compile import creature_index, match_creature
from dtc.compiler.entries import FIGHT as FIGHT_WORD
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.lint.rules.dt124_unrecognised_fight import SENTENCE as _SENTENCE
from dtc.lint.rules.dt124_unrecognised_fight import name_pattern as _name_pattern
from dtc.lint.rules.dt124_unrecognised_fight import quoted


@rule("DT206", "unused-creature", Severity.WARNING)  # reads the prose it quotes
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A creature stat block that no encounter and no entry uses.

    ## What it finds
    A stat block in the bestiary whose creature is named by no encounter-table row and no
    entry (`4 Goblins` uses `Goblin`). A stat block written inside an entry belongs to that
    entry and is always used.

    ## Why it matters
    Either the creature was cut and its block forgotten, or the encounter meant to use it
    spells its name differently.

    ## Example
    ```
    Troll HP 12 | Morale 9 | Claws d8
    ```
    with no encounter or entry mentioning trolls.

    When an entry names the creature without a count ("Fight the Bell Warden!"), the message
    says which: dtc did not recognise a fight with it there, and it shows what to write.

    ## Fix
    Name the creature with a count where it appears (`1 Bell Warden attacks! Follow the combat
    rules.` starts a fight with it), or delete the block.
    """
    doc = ctx.doc
    if not doc.creatures:  # only the bestiary's blocks are reported (an entry's own is always used)
        return
    index = creature_index(doc)
    used: set[str] = set()
    names = [g.name for e in doc.encounters for g in e.groups]
    # the entries as parsed (list.__iter__): only the names are read, so the language server
    # is not asked to move every entry to its place after an edit
    names += [m.name for e in list.__iter__(doc.entries) for m in e.mentions]
    for name in names:
        found = match_creature(name, index)
        if found is not None:
            used.add(found.name)
    unused = [c for c in doc.creatures if c.name not in used]
    if not unused:
        return
    patterns = [(_name_pattern(c.name), c) for c in unused]
    named: dict[str, tuple[int, str]] = {}  # creature -> (entry number, the sentence naming it)
    for i, entry in enumerate(doc.entries):
        if len(named) == len(patterns):
            break
        here = [(p, c) for p, c in patterns if c.name not in named and c.name.split()[0] in entry.text]
        for m in _SENTENCE.finditer(entry.text) if here else ():
            for pattern, c in here:
                if c.name not in named and pattern.search(m.group()):
                    named[c.name] = (ctx.res.numbers[i], quoted(m.group()))
    for c in unused:
        where = named.get(c.name)
        if where is None:
            yield self.diag(ctx, f"creature '{c.name}' is not used by any encounter or entry", c.span)
            continue
        number, sentence = where
        write = f"'1 {c.name} attacks! Follow the combat rules.'"
        if FIGHT_WORD.search(sentence):
            said = (f"but dtc did not recognise a fight with it there (no count before the name): write {write}, "
                    "or delete the block")
        else:
            said = f"but never with a count, so no encounter or fight uses it: to fight it there write {write}, " \
                   "or delete the block"
        yield self.diag(ctx, f"creature '{c.name}' is named in entry {number} ('{sentence}'), {said}", c.span)
