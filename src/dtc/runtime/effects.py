"""Applying an entry's compiled effects when it is read.

The compiler turned the prose into effects (``$defs/effect``); here they happen, in text order:
checks are rolled, damage and healing applied, finds offered (once per entry; not a find the
entry's notation gives, ``[+20 coins]``, which is applied before them), fights fought,
named creatures remembered as the scene, and ``manual`` prose shown to the player. An effect
with ``when`` happens only if the check it names came out that way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from dtc.compiled.graphjson import Creature, Effect, Entry
from dtc.numbers import COUNT, bounded
from dtc.runtime.core import TAKE, WON, Option, Question, RunEnded
from dtc.runtime.dice import DiceError
from dtc.runtime.equipment import FOUND_WEIGHT, OIL, RATIONS, TREASURE_WEIGHT, Item, parse_weight, weight_text
from dtc.runtime.foes import Foe, foes_from
from dtc.runtime.inventory import same
from dtc.runtime.ruleset import FLED
from dtc.runtime.ruleset import WON as FIGHT_WON
from dtc.runtime.state import Group

if TYPE_CHECKING:
    from dtc.runtime.engine import Engine


def apply(game: Engine, entry: Entry) -> None:
    number = entry["number"]
    results: dict[int, bool] = {}
    scene_reset = False
    #: An entry's stat blocks are fought together (foes_here), once a reading: each block is an
    #: effect of its own (two smugglers, two lines), and the second is the same fight, not another.
    blocks_fought = False
    for i, e in enumerate(entry["effects"]):
        when = e.get("when")
        if when is not None and results.get(when["check"]) is not (when["outcome"] == "success"):
            continue
        kind = e["kind"]
        if kind == "check":
            ability = e.get("ability")
            if ability not in game.rules.abilities:
                ability = game.choose_ability(e.get("difficulty"), e["text"])
            results[i] = game.rules.check(game, ability, e.get("difficulty"), e["text"])
        elif kind in ("damage", "heal"):
            _hp(game, e)
        elif kind in ("treasure", "item"):
            key = f"{number}:{i}"
            if key not in game.state.looted:
                game.state.looted.add(key)
                if not given_by_notation(entry, e["name"]):
                    _find(game, e)
        elif kind == "creatures":
            if not scene_reset:
                game.state.scene = []
                scene_reset = True
            group = _group(game, e)
            if group is not None:
                game.state.scene.append(group)
        elif kind == "fight":
            if blocks_fought:
                continue
            blocks_fought = any(b["entry"] == number for b in game.graph["creatures"])
            _fight(game, entry, e)
        elif kind == "manual":
            game.emit("manual", text=e["text"])
        if game.state.pending is not None:
            return


def given_by_notation(entry: Entry, name: str) -> bool:
    """Whether the entry's notation already gives what its prose finds (``you find 20 coins.
    [+20 coins]``): the notation is the exact statement, so the find is not offered again."""
    return any(c["amount"] > 0 and same(name, c["name"]) for c in entry.get("changes", ()))


def _hp(game: Engine, e: Effect) -> None:
    try:
        if e["kind"] == "damage":
            roll = game.dice.roll(e["dice"])
            game.emit("roll", dice=roll.expr, rolls=list(roll.dice), total=roll.total, why=e["text"])
            game.damage(max(0, roll.total), e["text"])
        else:
            roll, rolls = game.rules.pc_roll(game, e["dice"], high_is_bad=False)
            game.emit("roll", dice=roll.expr, rolls=[list(r.dice) for r in rolls], total=roll.total, why=e["text"])
            game.heal(max(0, roll.total), e["text"])
    except DiceError:
        game.emit("manual", text=e["text"])


def found_item(e: Effect) -> Item:
    """The item a treasure or item effect gives, with the rules' weights where the text gives none."""
    quantity = int(e.get("quantity", 1))
    stated = e.get("weight")
    if e["kind"] == "treasure":
        category = e.get("category", "unique")
        weight = parse_weight(stated) if stated is not None else TREASURE_WEIGHT[category]
        return Item(e["name"], "treasure", quantity, weight, value=e.get("value"), category=category)
    name = e["name"]
    canonical = {RATIONS.lower(): RATIONS, OIL.lower(): OIL}.get(name.lower())
    if canonical is not None:
        return Item(canonical, "gear", quantity, FOUND_WEIGHT[canonical.lower()])
    return Item(name, "item", quantity, parse_weight(stated) if stated is not None else parse_weight(0))


def _find(game: Engine, e: Effect) -> None:
    """Offer what was found; treasure only as far as the sacks (and an emptied backpack) hold it."""
    item = found_item(e)
    pc = game.pc
    while True:
        fits = pc.fitting(item)
        part = replace(item, quantity=fits)
        dump = fits < item.quantity and pc.can_dump_kit()
        # The options' keys, in order: take (when some fits), dump, with leave last, or first when
        # nothing fits.
        keys = ("take", "dump", "leave") if fits and dump else ("take", "leave") if fits else (
            ("leave", "dump") if dump else ("leave",))
        n = game.pick(TAKE, len(keys))
        if n is not None:
            key = keys[n]
        else:
            worth = f", worth {part.worth:,}" if part.value else ""
            detail = f"weight {weight_text(part.weight * part.quantity)}{worth}"
            take = Option("take", "Take it" if fits == item.quantity else f"Take {fits} of {item.quantity} "
                          "(all your sacks hold)", detail)
            opts = [take] if fits else []
            if dump:
                opts.append(Option("dump", "Dump your backpack's standard kit (rope, rations, water, oil...) "
                                           "to make room for weight 6"))
            opts.insert(len(opts) if fits else 0, Option("leave", "Leave it" if fits else
                                                         "Leave it (no room: treasure is carried in sacks)"))
            q = Question(TAKE, f"You find {e['text']}. Take it?", tuple(opts),
                         {"item": item.name, "weight": str(part.weight * part.quantity), "value": part.worth})
            key = game.ask(q).key
        if key == "dump":
            left = pc.dump_kit()
            game.emit("item", action="dropped", name="standard kit", quantity=len(left),
                      why="to make room in the backpack: " + ", ".join(i.name for i in left))
            continue
        if key == "take":
            pc.add(part)
            game.emit("item", action="found", name=part.name, quantity=part.quantity, why=e["text"])
        return


def _singulars(name: str) -> list[str]:
    n = " ".join(name.lower().split())
    forms = [n]
    for suffix, repl in (("ies", "y"), ("ves", "f"), ("men", "man"), ("es", ""), ("s", "")):
        if n.endswith(suffix):
            forms.append(n[: -len(suffix)] + repl)
    return forms


def match_block(game: Engine, name: str) -> Creature | None:
    """The stat block a written name refers to (``Goblins`` -> ``Goblin``)."""
    for form in _singulars(name):
        block = game.block(form)
        if block is not None:
            return block
    return None


def _count(game: Engine, text: str) -> int:
    if text.isdigit():
        return min(bounded(text, COUNT), COUNT)
    try:
        return max(0, game.dice.total(text))
    except DiceError:
        return 1


def _group(game: Engine, e: Effect) -> Group | None:
    block = match_block(game, e["name"])
    if block is None:
        return None
    return Group(e["name"], block["name"], _count(game, e["count"]))


def foes_here(game: Engine, entry: Entry) -> list[Foe]:
    """Who a fight in this entry is against: its stat blocks, else the creatures last named."""
    counts = {g.creature: g.count for g in game.state.scene if g.creature}
    blocks = [b for b in game.graph["creatures"] if b["entry"] == entry["number"]]
    if blocks:
        return [f for b in blocks for f in foes_from(b, b["name"], counts.get(b["name"], 1))]
    if game.state.scene:
        return [f for g in game.state.scene for f in foes_from(game.block(g.creature), g.name, g.count)]
    named = [game.block(n) for n in entry["creatures"]]
    return [f for b in named if b is not None for f in foes_from(b, b["name"], 1)]


def _fight(game: Engine, entry: Entry, e: Effect) -> None:
    foes = foes_here(game, entry)
    # ``win S13, lose S4, flee S3`` in the entry's stat blocks: where each outcome leads.
    exits: dict[str, int | str] = {}
    for block in game.graph["creatures"]:
        if block["entry"] == entry["number"] and "exits" in block:
            fight = block["exits"]
            for outcome in ("win", "lose", "flee"):
                if outcome in fight:
                    exits[outcome] = fight[outcome]
    target = exits.get("win", e.get("target"))
    try:
        result = game.rules.fight(game, foes) if foes else _adjudicated(game, e["text"])
    except RunEnded as end:
        if end.kind != "died" or "lose" not in exits:
            raise
        game.pc.hp = 1  # a lost fight the book leads on from: the reader comes to there
        game.emit("manual", text=f"The fight is lost: you come to with 1 HP (turn to {exits['lose']}).")
        game.go(exits["lose"], "lose")
        return
    if result == FIGHT_WON:
        game.state.defeated.add(entry["number"])
        game.state.scene = []
        if target is not None:
            game.go(target, "win")
    elif result == FLED:
        back = exits.get("flee", game.state.previous)
        game.emit("flee", to=back)
        if back is not None:
            game.go(back, "flee")


def _adjudicated(game: Engine, text: str) -> str:
    """A fight against creatures without stats: the player says how it went."""
    game.emit("manual", text=f"The runtime cannot tell who you fight here ({text}): you decide the outcome.")
    q = Question(WON, "How did the fight go?",
                 (Option("won", "I won"), Option("fled", "I fled"), Option("died", "I died")))
    key = game.ask(q).key
    if key == "died":
        game.pc.hp = 0
        game.emit("death", cause="adjudicated fight")
        raise RunEnded("died", "adjudicated fight")
    game.clock("combat")
    return FIGHT_WON if key == "won" else FLED
