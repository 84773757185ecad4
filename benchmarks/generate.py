"""Generate a large, realistic adventure for benchmarking ``dtc``.

    python benchmarks/generate.py 10000 [--seed 1] [-o benchmarks/out/book-10000.txt]
    python benchmarks/generate.py 10000 --shape long-walk    # or long-walk-out, grid, hub, corridor,
    python benchmarks/generate.py 350 --shape gamebook       # many-flags, gamebook: see SHAPES

The book has front matter, a title, an intro, an encounter table, a bestiary and N entries of
about 800 bytes each: sentences built from a word list, 2-4 choices in notation
(``Label (DEX D2, S123, F456)``, ``(D0, S12)``), prose parentheticals such as ``(1,000 coins)``,
some prose exits ("go to 17"), a few fights with counted creatures, stat blocks inside entries,
"return to your most recent entry", and endings that say THE END.

The exits are planned so that lint output stays realistic but small: every entry is reachable
from entry 1 (each entry k > 1 has a parent below it that leads to it), every entry that is not
an ending leads forward, so every path can still reach an ending, and checks never send success
and failure to the same or adjacent entries. What remains are the informational findings a real
book has (prose-only exits, dynamic returns). The output depends only on N and the seed.

The other shapes (``--shape``, functions of their own below ``every_door``) are made to stress
``dtc odds`` and the state analysis: graphs a reader wanders long in, and books with state.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent / "out"
WINDOW = 30  # how far (in entry numbers) an exit usually reaches
CHILDREN = 3  # with the way forward, at most 3 required exits: 2-4 choices hold them
#: In a cross-linked book, the share of the unplanned exits that lead anywhere in the book.
CROSS = 0.5
#: The shapes after ``cross`` are written by functions of their own (below ``every_door``).
SHAPES = ("forward", "cross", "long-walk", "long-walk-out", "grid", "hub", "corridor", "many-flags", "gamebook")


def _words(text: str, sep: str = " ") -> tuple[str, ...]:
    return tuple(text.split(sep))


ADJ = _words(
    "damp narrow crumbling ancient rusted silent flooded musty cracked gilded crooked low vaulted "
    "slick mossy charred hollow jagged forgotten rotten sunken dusty cold echoing twisted heavy "
    "broken carved shadowy foul bitter pale iron wooden stone green black tangled"
)
NOUN = _words(
    "corridor chamber stair archway door passage tunnel alcove shrine crypt cistern gallery "
    "landing ledge pool bridge grate pillar statue altar brazier lantern chest coffer barrel "
    "tapestry mural rubble cauldron idol well vault niche trapdoor ladder chain rope bones "
    "skull banner throne lever mosaic fountain cellar kennel forge larder"
)
VERB3 = _words(
    "leans against|hangs above|blocks|stretches toward|crumbles into|looms over|rests beside|"
    "drips onto|curves around|slopes toward|overlooks|hides behind|opens onto|sags under", "|"
)
VERB = _words("notice|hear|smell|glimpse|step around|brush past|kneel beside|study|edge toward|light", "|")
PREP = _words("beside beneath behind above across along near past below beyond")
ADV = _words(
    "Slowly|Somewhere nearby|Far off|At your feet|Overhead|In the gloom|Without warning|"
    "Beyond the light|Here and there|For a moment", "|"
)
SENSE = _words(
    "water drips steadily|something scratches at stone|a cold draught stirs the dust|"
    "the air tastes of rust and smoke|a bell tolls once and falls silent|rats squeal and scatter|"
    "wet footprints dry on the flagstones|an old song echoes faintly|the lantern flame gutters|"
    "you catch the reek of tallow and rot", "|"
)
DIRS = _words("north|south|east|west|northeast|southwest|up the stair|down the shaft|left|right", "|")
TREASURE = _words(
    "a silver crown (1,000 coins)|a pouch of gems (500 coins each)|a jade frog (250 coins)|"
    "rations (7 days)|a coil of rope (50 ft.)|an old map (torn, but legible)|"
    "a flask of oil (Weight 1)|a rusted key (it may fit somewhere)|12 copper coins", "|"
)
HAZARD = _words(
    "take d4 damage|take d6 damage (d8 if you carry plate)|lose 1 turn|make a CON check or be poisoned|"
    "drop your lantern (roll for an encounter)|take 2 damage each turn (for d4 turns)", "|"
)
ABILITIES = ("STR", "DEX", "CON", "WIS", "INT", "CHA")
FIGHT_VERBS = ("attack from the shadows!", "charge you, howling.", "ambush you at the turn.",
               "rise from the water and attack.")
# (name, plural, stat line after the name)
BESTIARY = (
    ("Goblin", "Goblins", "HP 3 | Morale 7 | Sword or Bow d6"),
    ("Giant Frog", "Giant Frogs", "HP 6 | Morale 10 | Bite d8 | Special: swallows on a failed defense roll"),
    ("Giant Rat", "Giant Rats", "HP 2 | Morale 5 | Bite d4"),
    ("Skeleton", "Skeletons", "HP 4 | Morale 12 | Rusty Blade d6"),
    ("Ghoul", "Ghouls", "HP 9 | Morale 9 | Claws d4 | Special: a hit paralyses for d4 rounds"),
    ("Kobold", "Kobolds", "HP 2 | Morale 6 | Spear d6"),
    ("Cave Bear", "Cave Bears", "HP 18 | Morale 8 | Claws d8 | Bite d10"),
    ("Bandit", "Bandits", "HP 5 | Morale 7 | Shortsword d6 | Crossbow d8"),
    ("Wolf", "Wolves", "HP 7 | Morale 8 | Bite d6"),
    ("Zombie", "Zombies", "HP 8 | Morale 12 | Fist d6 | Special: always acts last"),
    ("Giant Spider", "Giant Spiders", "HP 10 | Morale 7 | Bite d6 | Special: poison, CON check or d6 more"),
    ("Cultist", "Cultists", "HP 4 | Morale 6 | Dagger d4 | WIS 13"),
)
ENDINGS = ("You die here. THE END", "You walk out into the daylight, rich. THE END")
GUARDIANS = (
    "Stone Guardian HP 7 | Morale 12 | Fists d8",
    "Bone Sentinel HP 9 | Morale 12 | Halberd d10",
    "Animated Armor HP 11 | Morale 12 | Gauntlet d6 | Special: immune to arrows",
)


@dataclass
class Plan:
    """What one entry must say: whether it ends, and which entries it must lead to."""

    ending: bool = False
    required: list[int] = field(default_factory=list)


def plan(n: int, rng: random.Random, endings: float = 0.04) -> list[Plan]:
    """Endings (each entry but the first and last with chance ``endings``; the last always) and
    required exits for entries 1..n (index 0 is unused)."""
    plans = [Plan() for _ in range(n + 1)]
    plans[n].ending = True
    for k in range(2, n):
        plans[k].ending = rng.random() < endings
    # A parent below every entry: entry 1 reaches everything.
    for k in range(2, n + 1):
        lo = max(1, k - WINDOW)
        candidates = [p for p in range(lo, k) if not plans[p].ending and len(plans[p].required) < CHILDREN]
        # After a run of endings with no room left: the nearest open entry below (1 never ends).
        fallback = next(p for p in range(k - 1, 0, -1) if not plans[p].ending)
        parent = rng.choice(candidates) if candidates else fallback
        plans[parent].required.append(k)
    # A way forward from every entry that does not end: every path can reach an ending.
    for k in range(1, n):
        p = plans[k]
        if not p.ending and not any(t > k for t in p.required):
            p.required.append(rng.randint(k + 1, min(n, k + WINDOW)))
    return plans


def plan_state(plans: list[Plan], count: int, rng: random.Random) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Possessions for a book with state (``--possessions``): per entry, the effects it gives and
    the conditions of the extra gated choices it offers.

    Each possession is given at one entry (``[+rusted idol]``; one in four as a count,
    ``[+2 rusted idol]`` tested by ``if 2 rusted idol``) and tested by one to three gated choices
    at entries that the giver leads to through ungated exits, so every gate opens on some route
    and none of the planned exits is gated: the lint output stays as small as without state.
    """
    n = len(plans) - 1
    gives: dict[int, list[str]] = {}
    gates: dict[int, list[str]] = {}
    for i in range(count):
        name = f"{ADJ[i % len(ADJ)]} {NOUN[(i * 7 + i // len(ADJ)) % len(NOUN)]}"
        counted = i % 4 == 3
        giver = rng.randint(1, max(1, n - 1))
        while plans[giver].ending and giver > 1:
            giver -= 1
        gives.setdefault(giver, []).append(f"+2 {name}" if counted else f"+{name}")
        for _ in range(rng.randint(1, 3)):
            here = giver
            for _ in range(rng.randint(1, 6)):
                forward = [t for t in plans[here].required if t > here and not plans[t].ending]
                if not forward:
                    break
                here = rng.choice(forward)
            if here != giver or not plans[here].ending:
                test = f"2 {name}" if counted else name
                gates.setdefault(here, []).append(test)
    return gives, gates


class Writer:
    """Builds the text of the book from a seeded random source."""

    def __init__(self, n: int, rng: random.Random, shape: str = "forward", state: random.Random | None = None) -> None:
        self.n = n
        self.rng = rng
        self.cross = shape == "cross"
        #: A second random source for the state (``--possessions``): a book without possessions
        #: is byte for byte the book this generator always wrote.
        self.state_rng = state or random.Random(0)
        self.gives: dict[int, list[str]] = {}
        self.gates: dict[int, list[str]] = {}

    def target(self, k: int, avoid: set[int]) -> int:
        """A random entry near ``k`` that is not ``k`` and not in (or next to) ``avoid``."""
        rng, n = self.rng, self.n
        far = self.cross and rng.random() < CROSS
        for _ in range(50):
            t = rng.randint(1, n) if far else rng.randint(max(1, k - WINDOW), min(n, k + WINDOW))
            if t != k and t not in avoid and t - 1 not in avoid and t + 1 not in avoid:
                return t
        return k + 1 if k < n else k - 1

    def label(self) -> str:
        words = f"{self.rng.choice(ADJ)} {self.rng.choice(NOUN)}".title()
        return f"**{words}**" if self.rng.random() < 0.3 else words

    def notation(self, k: int, required: list[int]) -> str:
        rng = self.rng
        difficulty = 0 if rng.random() < 0.45 else rng.randint(1, 3)
        success = required.pop() if required else self.target(k, set())
        if difficulty == 0:
            return f"(D0, S{success})"
        usable = bool(required) and abs(required[-1] - success) > 1  # never the same or next entry
        failure = required.pop() if usable else self.target(k, {success})
        ability = f"{rng.choice(ABILITIES)} " if rng.random() < 0.6 else ""
        return f"({ability}D{difficulty}, S{success}, F{failure})"

    def choice_sentence(self, k: int, required: list[int], room: int) -> tuple[str, int]:
        """A sentence with one choice, or two if ``room`` allows; returns it and the count."""
        rng = self.rng
        form = rng.randrange(5 if room >= 2 else 4)
        if form == 4:
            a, b = rng.sample(DIRS, 2)
            return f"Passages lead {a} {self.notation(k, required)} and {b} {self.notation(k, required)}.", 2
        if form == 0:
            return f"You may search the {self.label()} {self.notation(k, required)}.", 1
        verb, noun = rng.choice(VERB3), rng.choice(NOUN)
        if form == 1:
            return f"A {self.label()} {self.notation(k, required)} {verb} the {noun}.", 1
        if form == 2:
            return f"{self.label()} {self.notation(k, required)}: it {verb} the {noun}.", 1
        return f"If you dare, you can try the {rng.choice(ADJ)} {noun} {self.notation(k, required)}.", 1

    def sentence(self) -> str:
        rng = self.rng
        form = rng.randrange(8)
        a, b = rng.sample(ADJ, 2)
        x, y = rng.sample(NOUN, 2)
        if form == 0:
            return f"The {a} {x} {rng.choice(VERB3)} the {b} {y}."
        if form == 1:
            return f"You {rng.choice(VERB)} a {a} {x} {rng.choice(PREP)} the {y}."
        if form == 2:
            return f"{rng.choice(ADV)}, {rng.choice(SENSE)}."
        if form == 3:
            return f"Inside the {x} you find {rng.choice(TREASURE)}."
        if form == 4:
            return f"A {a} {x} — {b}, and older than it looks — {rng.choice(VERB3)} the {y}."
        if form == 5:
            return f"If you linger here, {rng.choice(HAZARD)}."
        if form == 6:
            return f"You’re sure the {x} was {b} once; now it’s {a} and {rng.choice(ADJ)}."
        return f"{rng.choice(ADV)} the {a} {x} {rng.choice(VERB3)} you."

    def entry(self, k: int, p: Plan) -> str:
        rng = self.rng
        required = list(p.required)
        rng.shuffle(required)
        prose_target: int | None = None
        special: list[str] = []
        extra: list[str] = []
        if not p.ending:
            r = rng.random()
            if r < 0.04 and required:
                prose_target = required.pop()  # an exit only the prose gives
                extra.append(f"If you win, go to {prose_target}.")
            elif r < 0.08:
                extra.append(f"When you are done here, return to {self.target(k, set())}.")
            if rng.random() < 0.005:
                extra.append("If the way is shut, return to your most recent entry.")
        if rng.random() < 0.06:
            plural = rng.choice(BESTIARY)[1]
            fight = f"Suddenly, {rng.randint(2, 6)} {plural} {rng.choice(FIGHT_VERBS)}"
            if prose_target is not None:  # "If you win, go to N" here: the fight starts (DT124)
                fight += " Follow the combat rules."
            special.append(fight)
        choices: list[str] = []
        if not p.ending:
            wanted, count = rng.randint(2, 4), 0
            while required or count < wanted:
                sentence, used = self.choice_sentence(k, required, wanted - count)
                choices.append(sentence)
                count += used
        budget = rng.randint(600, 1000) - sum(map(len, choices + special + extra))
        prose: list[str] = []
        while budget > 0:
            s = self.sentence()
            prose.append(s)
            budget -= len(s) + 1
        body = prose + special
        for c in choices:
            body.insert(rng.randint(len(body) // 3, len(body)), c)
        body += extra
        if k in self.gives:
            body.insert(self.state_rng.randint(0, len(body)), f"You take what you can. [{', '.join(self.gives[k])}]")
        for test in self.gates.get(k, ()):
            t = min(self.n, k + self.state_rng.randint(1, WINDOW))
            body.insert(self.state_rng.randint(len(body) // 3, len(body)),
                        f"A {rng.choice(ADJ)} gate opens only for some (D0, S{t}, if {test}).")
        if p.ending:
            body.append(rng.choice(ENDINGS))
        elif rng.random() < 0.01:  # a stat block in the entry ends the paragraph, as in print
            body.append(f"{rng.choice(('If you win, go on.', 'You must fight.'))} {rng.choice(GUARDIANS)}.")
        if len(body) > 6 and rng.random() < 0.2:  # a second paragraph
            cut = rng.randint(2, len(body) - 2)
            return f"{k} {' '.join(body[:cut])}\n\n{' '.join(body[cut:])}"
        return f"{k} {' '.join(body)}"


def every_door(n: int) -> str:
    """A book of ``n`` entries (n >= 2) each leading to every other by a move, the last an ending:
    ``(n - 1) ** 2`` exits, the densest chart there is (``graph_bench.py --shape dense``)."""
    rooms = [f"{k}\nA hall of doors. " + " ".join(f"Door {j} (D0, S{j})." for j in range(1, n + 1) if j != k)
             for k in range(1, n)]
    return f"Title: Every door, {n} entries\n\nAdventure Entries\n\n" + "\n\n".join(
        [*rooms, f"{n}\nA quiet hall. THE END."]) + "\n"


# --- Shapes for the odds and the state analysis (``--shape``) -----------------------------------
#
# Each is written by its own function, from its own random source (the books above are untouched):
# graphs where a reader wanders long (long-walk, long-walk-out, grid, hub, corridor), and books
# with state (many-flags, gamebook). Every one compiles and lints without errors or warnings.

#: Endings of a long-walk book: a handful, each behind one exit of one entry.
WALK_ENDINGS = 4
#: Exits of an entry of a long-walk book, before the few that lead to an ending.
WALK_EXITS = 3
VICTORY = ("You climb out into the daylight, alive and rich. THE END (victory)",
           "The last door opens on the sea and a waiting boat. THE END (victory)")
DEATH = ("The floor gives way, and you fall a long way. THE END (death)",
         "The dark closes over you for good. THE END (death)",
         "The poison works faster than you can run. THE END (death)")


class Rooms:
    """Writes entries around the sentences they must say, with prose from the word list."""

    def __init__(self, rng: random.Random, prose: tuple[int, int] = (600, 1000)) -> None:
        self.rng = rng
        self.words = Writer(1, rng)
        self.prose = prose

    def label(self) -> str:
        return f"**{f'{self.rng.choice(ADJ)} {self.rng.choice(NOUN)}'.title()}**"

    def move(self, t: int, label: str | None = None) -> str:
        """A sentence with a D0 move to ``t``."""
        rng = self.rng
        label = label or self.label()
        form = rng.randrange(3)
        if form == 0:
            return f"Take the {label} (D0, S{t})."
        if form == 1:
            return f"A {label} (D0, S{t}) {rng.choice(VERB3)} the {rng.choice(NOUN)}."
        return f"You may try the {label} (D0, S{t})."

    def room(self, k: int, lines: list[str], ending: str = "", block: str = "") -> str:
        """Entry ``k``: prose with ``lines`` among it, then ``block`` (a long run of text of its
        own) and the ``ending`` sentence."""
        rng = self.rng
        budget = rng.randint(*self.prose) - sum(len(s) + 1 for s in lines)
        body: list[str] = []
        while budget > 0:
            s = self.words.sentence()
            body.append(s)
            budget -= len(s) + 1
        for s in lines:
            body.insert(rng.randint(len(body) // 3, len(body)), s)
        if ending:
            body.append(ending)
        text = f"{k} {' '.join(body)}"
        return f"{text}\n{block}" if block else text


def _book(title: str, about: str, rooms: list[str]) -> str:
    return "\n".join([f"Title: {title}", "Author: dtc benchmark generator", "", title, "", about, "",
                      "Adventure Entries", "", "\n\n".join(rooms), ""])


def _least(n: int, shape: str, least: int) -> None:
    if n < least:
        raise ValueError(f"a {shape} book needs at least {least} entries")


def long_walk(n: int, seed: int = 1, way_out: bool = False) -> str:
    """``n`` entries (n >= 5) linked at random: a random cycle through them all (so every entry
    reaches every other) and two more exits each to entries drawn uniformly, and
    :data:`WALK_ENDINGS` endings, each behind one exit of one entry. A reader choosing at random
    walks about ``n`` steps before an ending. ``way_out``: no endings at all; the only way out is
    leaving by the entrance, back at entry 1 (about ``4 n`` steps)."""
    shape = "long-walk-out" if way_out else "long-walk"
    _least(n, shape, 5)
    rng = random.Random(f"dtc-bench:{shape}:{n}:{seed}")
    rooms = Rooms(rng)
    endings = [] if way_out else sorted(rng.sample(range(2, n + 1), min(WALK_ENDINGS, n // 5)))
    ends = set(endings)
    open_ = [k for k in range(1, n + 1) if k not in ends]
    order = list(open_)
    rng.shuffle(order)
    exits: dict[int, list[int]] = {k: [] for k in open_}
    for a, b in zip(order, order[1:] + order[:1], strict=True):
        exits[a].append(b)
    for k in open_:
        while len(exits[k]) < WALK_EXITS:
            t = rng.choice(open_)
            if t != k and t not in exits[k]:
                exits[k].append(t)
    for source, end in zip(rng.sample(open_, len(endings)), endings, strict=True):
        exits[source].append(end)
    out = []
    for k in range(1, n + 1):
        if k in ends:
            out.append(rooms.room(k, [], rng.choice(VICTORY if endings.index(k) % 2 else DEATH)))
        else:
            rng.shuffle(exits[k])
            out.append(rooms.room(k, [rooms.move(t) for t in exits[k]]))
    about = ("A generated maze for measuring how dtc fares where a reader wanders long: every entry "
             "leads to three others drawn at random, and "
             + ("no entry ends the book: the only way out is back through the entrance."
                if way_out else f"only {len(endings)} exits in the whole book lead to an ending."))
    return _book(f"The Endless Cellars ({n:,} entries)", about, out)


def grid(n: int, seed: int = 1) -> str:
    """``n - 2`` rooms (n >= 6) in rows of ``ceil(sqrt(n - 2))``, each leading to its neighbours
    north, south, east and west; the room in the far corner leads out (a victory, entry ``n - 1``)
    and one in the middle down a pit (a death, entry ``n``). Entry 1 is a corner."""
    _least(n, "grid", 6)
    rng = random.Random(f"dtc-bench:grid:{n}:{seed}")
    rooms = Rooms(rng)
    count = n - 2
    width = math.isqrt(count - 1) + 1
    pit = count // 2 + 1
    out = []
    for i in range(count):
        k = i + 1
        ways = []
        if i >= width:
            ways.append(("North", k - width))
        if i + width < count:
            ways.append(("South", k + width))
        if i % width:
            ways.append(("West", k - 1))
        if i % width < width - 1 and i + 1 < count:
            ways.append(("East", k + 1))
        lines = [rooms.move(t, f"**{way} Door**") for way, t in ways]
        if k == count:
            lines.append(rooms.move(n - 1, "**Stair to the Surface**"))
        if k == pit:
            lines.append(rooms.move(n, "**Open Pit**"))
        rng.shuffle(lines)
        out.append(rooms.room(k, lines))
    out.append(rooms.room(n - 1, [], rng.choice(VICTORY)))
    out.append(rooms.room(n, [], rng.choice(DEATH)))
    about = (f"A generated grid of {count:,} rooms, {width:,} to a row, each with a door to each neighbour: "
             "one stair leads out, one pit down.")
    return _book(f"The Chessboard Halls ({n:,} entries)", about, out)


def hub(n: int, seed: int = 1) -> str:
    """Entry 1, a hall with a door to every other entry (n >= 5), each leading back to it; three
    of them (fewer in a small book) are endings instead."""
    _least(n, "hub", 5)
    rng = random.Random(f"dtc-bench:hub:{n}:{seed}")
    rooms = Rooms(rng)
    ends = sorted(rng.sample(range(2, n + 1), min(3, (n - 1) // 2)))
    doors = [f"**Door {k}** (D0, S{k})." for k in range(2, n + 1)]
    block = "\n".join(" ".join(doors[i:i + 10]) for i in range(0, len(doors), 10))
    out = [rooms.room(1, ["Doors line every wall of the great hall:"], block=block)]
    for k in range(2, n + 1):
        if k in ends:
            out.append(rooms.room(k, [], rng.choice(VICTORY if ends.index(k) == 0 else DEATH)))
        else:
            out.append(rooms.room(k, [rooms.move(1, "**Great Hall**")]))
    about = f"A generated hall of {n - 1:,} doors, each to a room that leads back to the hall."
    return _book(f"The Hall of Doors ({n:,} entries)", about, out)


def corridor(n: int, seed: int = 1) -> str:
    """One corridor of ``n - e`` entries (n >= 5), each leading on and back (entry i to i + 1 and
    i - 1), and ``e`` endings (3; 1 below 12 entries) through side doors spread along it, the
    last at its far end."""
    _least(n, "corridor", 5)
    rng = random.Random(f"dtc-bench:corridor:{n}:{seed}")
    rooms = Rooms(rng)
    e = 3 if n >= 12 else 1
    m = n - e
    sides = {round(m * j / e): m + j for j in range(1, e + 1)}
    out = []
    for k in range(1, m + 1):
        lines = []
        if k > 1:
            lines.append(rooms.move(k - 1, "**Way Back**"))
        if k < m:
            lines.append(rooms.move(k + 1, "**Way On**"))
        if k in sides:
            lines.append(rooms.move(sides[k], "**Side Door**"))
        out.append(rooms.room(k, lines))
    for j in range(1, e + 1):
        out.append(rooms.room(m + j, [], rng.choice(VICTORY if j == e else DEATH)))
    about = f"A generated corridor of {m:,} rooms, each leading on and back, with {e} side doors out."
    return _book(f"The Long Gallery ({n:,} entries)", about, out)


class Story:
    """A book with state on :func:`plan`'s layout: the planned entries (``numbers[k]`` is the
    number of the k-th), possessions given at some of them and tested by gated choices, and
    rooms reached only through one gate (``spare`` numbers) that take what the gate tested.

    Every gate opens on some route: what it tests is given upstream of it (a gate on ``X`` stands
    where the giver leads through planned exits, which are never gated; ``not X`` stands at a
    planned entry before the giver, reached through entries before it). No planned exit is gated,
    so every entry keeps an open way on, and a loss is taken only behind the gate that tests it.
    """

    def __init__(self, rng: random.Random, rooms: Rooms, numbers: list[int], spare: list[int],
                 endings: float = 0.04) -> None:
        self.rng = rng
        self.rooms = rooms
        self.m = len(numbers) - 1
        self.plans = plan(self.m, rng, endings)
        self.numbers = numbers
        self.spare = spare
        self.lines: dict[int, list[str]] = {k: [] for k in range(1, self.m + 1)}
        #: Planned entries whose planned exits are written as a random branch.
        self.rolls: set[int] = set()
        self.dice = "d6"
        #: Dedicated rooms: number -> (sentences, the planned entry it leads on to).
        self.special: dict[int, tuple[list[str], int]] = {}
        #: Planned entries that end, as victories (the others die).
        self.victories = {self.m}
        #: Planned entry -> a stat block on a line of its own at its end.
        self.blocks: dict[int, str] = {}
        #: Whether the exits that are not planned may lead back (up to :data:`WINDOW` entries),
        #: or only forward: then no route ever comes back to an entry.
        self.back = True

    def open(self, lo: int = 1, hi: int | None = None) -> int:
        """A planned entry in lo..hi that does not end."""
        hi = self.m - 1 if hi is None else hi
        while True:
            k = self.rng.randint(lo, max(lo, hi))
            if not self.plans[k].ending:
                return k

    def downstream(self, k: int, steps: int) -> int:
        """An entry ``k`` leads to through up to ``steps`` planned exits, not an ending."""
        here = k
        for _ in range(steps):
            forward = [t for t in self.plans[here].required if not self.plans[t].ending]
            if not forward:
                break
            here = self.rng.choice(forward)
        return here

    def near(self, k: int, avoid: int | None = None) -> int:
        """A planned entry within :data:`WINDOW` of ``k`` (after it, unless the story goes
        :attr:`back`): not ``k``, nor ``avoid`` or next to it."""
        for _ in range(50):
            t = self.rng.randint(max(1, k - WINDOW) if self.back else k + 1, min(self.m, k + WINDOW))
            if t != k and (avoid is None or abs(t - avoid) > 1) and (
                    avoid is None or abs(self.numbers[t] - self.numbers[avoid]) > 1):
                return t
        return k + 1 if k < self.m else k - 1

    def gate(self, k: int, condition: str, lose: str = "", then: str = "") -> None:
        """A gated choice at planned entry ``k``: to a nearby planned entry, or, with ``lose``
        (the effect, ``-10 coins``), to a room of its own that takes it and leads on."""
        rooms = self.rooms
        if lose:
            room = self.spare.pop()
            self.special[room] = ([f"{then or 'It is done.'} [{lose}]"], self.near(k))
            target = room
        else:
            target = self.numbers[self.near(k)]
        self.lines[k].append(f"{rooms.label()} (D0, S{target}, if {condition}).")

    def give(self, k: int, effect: str, words: str = "You take it with you.") -> None:
        self.lines[k].append(f"{words} [{effect}]")

    def roll(self, targets: list[int]) -> str:
        sides = int(self.dice[1:])
        cuts = sorted(self.rng.sample(range(1, sides), len(targets) - 1))
        fields = []
        for lo, hi, t in zip([1, *(c + 1 for c in cuts)], [*cuts, sides], targets, strict=True):
            fields.append(f"{lo}-{hi} S{t}" if hi > lo else f"{lo} S{t}")
        return f"(roll {self.dice}, {', '.join(fields)})"

    def exits(self, k: int) -> list[str]:
        """The choice sentences of planned entry ``k``: its planned exits (moves, checks, or one
        random branch), and more moves up to two choices."""
        rng, rooms, num = self.rng, self.rooms, self.numbers
        required = list(self.plans[k].required)
        rng.shuffle(required)
        out: list[str] = []
        if k in self.rolls:
            while len(required) < 2:
                t = self.near(k)
                if t not in required:
                    required.append(t)
            out.append(f"Leave it to chance: {rooms.label()} {self.roll([num[t] for t in required[:6]])}.")
            required = required[6:]
        while required:
            s = required.pop()
            if rng.random() < 0.55:
                out.append(rooms.move(num[s]))
                continue
            f = required.pop() if required and abs(num[required[-1]] - num[s]) > 1 else self.near(k, s)
            if abs(num[f] - num[s]) <= 1:  # no room for a failure apart from the success: a move
                if f != s:
                    required.append(f)
                out.append(rooms.move(num[s]))
                continue
            ability = rng.choice(ABILITIES)
            out.append(f"Try the {rooms.label()} ({ability} D{rng.randint(1, 3)}, S{num[s]}, F{num[f]}).")
        while len(out) < 2:
            out.append(rooms.move(num[self.near(k)]))
        return out

    def write(self, first: list[str] | None = None) -> list[str]:
        """The entries in number order (``first``: entries already written, numbered from 1)."""
        rng, rooms = self.rng, self.rooms
        texts: dict[int, str] = {}
        for k in range(1, self.m + 1):
            p, number = self.plans[k], self.numbers[k]
            if p.ending:
                ending = rng.choice(VICTORY if k in self.victories else DEATH)
                texts[number] = rooms.room(number, list(self.lines[k]), ending)
            else:
                texts[number] = rooms.room(number, [*self.exits(k), *self.lines[k]], block=self.blocks.get(k, ""))
        for number, (lines, on) in self.special.items():
            texts[number] = rooms.room(number, [*lines, rooms.move(self.numbers[on], "**Go On**")])
        done = list(first or [])
        return done + [texts[k] for k in range(len(done) + 1, len(done) + len(texts) + 1)]


#: many-flags: possessions by kind. Items are given once and tested (``if stone key``), some taken
#: behind their gate; flags are given once and tested both ways (``if not alarm``); counts are
#: given at several entries and tested and spent in amounts (``if 10 coins``, ``[-10 coins]``).
FLAG_ITEMS = ("stone key", "brass key", "iron key", "silver bell", "rope", "lantern", "crowbar", "holy water",
              "bone flute", "amber idol", "map fragment", "wax seal", "jade mask", "sun medallion",
              "black candle", "silver mirror", "wolf pelt", "old compass")
FLAG_FLAGS = ("alarm", "curse", "hunted", "flooded", "marked", "wounded", "debt")
FLAG_COUNTS = (("coins", (5, 10, 20)), ("gems", (1, 2, 3)), ("arrows", (2, 4, 6)), ("torches", (1, 2)),
               ("rations", (1, 3)))


def _flag_possessions(count: int) -> list[tuple[str, str]]:
    """(kind, name) for ``count`` possessions: the lists above interleaved, then made-up items."""
    kinds = [("count", c[0]) for c in FLAG_COUNTS] + [("flag", f) for f in FLAG_FLAGS] + [
        ("item", i) for i in FLAG_ITEMS]
    # interleave so that a few possessions still have every kind
    order = sorted(range(len(kinds)), key=lambda i: (i % 6, i))
    out = [kinds[i] for i in order]
    i = 0
    while len(out) < count:
        out.append(("item", f"{ADJ[i % len(ADJ)]} {NOUN[(i * 7 + i // len(ADJ)) % len(NOUN)]}"))
        i += 1
    return out[:count]


def many_flags(n: int, seed: int = 1, possessions: int = 0) -> str:
    """``n`` entries (n >= 50) on :func:`plan`'s layout with ``possessions`` (default 30: items,
    flags and counts such as coins), about 3 gated choices per 100 entries (at least two per
    possession; one in six leads to a room that takes what it tested: ``[-10 coins]``), one
    planned entry in 50 leaving its exits to a ``roll d6``, and checks; entries of 200–400 bytes.
    The last planned entry is a victory, the other endings deaths."""
    _least(n, "many-flags", 50)
    count = possessions or 30
    rng = random.Random(f"dtc-bench:many-flags:{n}:{seed}:{count}")
    rooms = Rooms(rng, (200, 400))
    wanted = max(2 * count, 3 * n // 100)
    spare = sorted(rng.sample(range(2, n), min(wanted // 6, n // 5)))
    taken = set(spare)
    numbers = [0] + [k for k in range(1, n + 1) if k not in taken]
    rng.shuffle(spare)
    story = Story(rng, rooms, numbers, spare)
    m = story.m
    story.rolls = {story.open() for _ in range(max(1, m // 50))}
    things = _flag_possessions(count)
    givers: dict[str, list[tuple[int, int]]] = {}  # name -> [(planned entry, amount)]
    for kind, name in things:
        if kind == "count":
            amounts = dict(FLAG_COUNTS).get(name, (1,))
            givers[name] = []
            for _ in range(rng.randint(3, 6)):
                k, amount = story.open(), max(amounts) * rng.randint(1, 2)
                givers[name].append((k, amount))
                story.give(k, f"+{amount} {name}", f"You find {name} here.")
        elif kind == "flag":
            k = story.open(m // 2)
            givers[name] = [(k, 1)]
            story.give(k, f"+{name}", "Something changes, and you will not forget it.")
        else:
            k = story.open(1, m * 4 // 5)
            givers[name] = [(k, 1)]
            story.give(k, f"+{name}", f"You take the {name}.")
    for i in range(wanted):
        kind, name = things[i % count]
        lose = i % 6 == 5 and bool(story.spare) and kind != "flag"
        if kind == "flag" and (i // count) % 2 == 0:  # "if not": at an entry before the one giving it
            g = givers[name][0][0]
            story.gate(story.open(1, max(1, g - 1)), f"not {name}")
            continue
        giver, amount = rng.choice(givers[name])
        at = story.downstream(giver, rng.randint(0, 6))
        if story.plans[at].ending:
            continue
        if kind == "count":
            need = rng.choice(dict(FLAG_COUNTS).get(name, (1,)))
            story.gate(at, f"{need} {name}", f"-{need} {name}" if lose else "", f"You hand over {need} {name}.")
        elif i % 10 == 9:  # a condition with two ways to meet it
            other = things[(i + 1) % count][1]
            story.gate(at, f"{name} or {other}" if other != name else name)
        else:
            story.gate(at, name, f"-{name}" if lose else "", f"You leave the {name} behind.")
    while story.spare:  # every room set aside is behind a gate
        kind, name = rng.choice([t for t in things if t[0] != "flag"])
        at = story.downstream(rng.choice(givers[name])[0], rng.randint(0, 6))
        if not story.plans[at].ending:
            need = rng.choice(dict(FLAG_COUNTS).get(name, (1,))) if kind == "count" else 0
            cond = f"{need} {name}" if need else name
            story.gate(at, cond, f"-{cond}", f"You give up the {name}.")
    about = (f"A generated dungeon of {n:,} entries with {count} things to carry, find, spend and lose, "
             "and gates that open only for some.")
    return _book(f"The Vault of Many Keys ({n:,} entries)", about, story.write())


#: gamebook: the ten skills a reader chooses five of, the items and the gold.
SKILLS = ("archery", "climbing", "healing", "herbalism", "lockpicking", "stealth", "swimming", "tracking",
          "second sight", "beast speech")
ITEMS = ("rope", "lantern", "silver key", "dagger", "amulet", "map", "bread", "healing potion")
#: Gold a section gives, and gold a gate asks for (and its room takes).
GOLD_GAINS = (5, 10)
GOLD_COSTS = (5, 10)
FOES = ("Bandit Captain HP 8 | Morale 9 | Sabre d8", "Marsh Troll HP 14 | Morale 10 | Club d10",
        "Hill Wolf HP 6 | Morale 8 | Bite d6", "Grave Hound HP 7 | Morale 12 | Bite d6",
        "Tomb Spider HP 9 | Morale 7 | Bite d6 | Special: poison")


def gamebook(n: int = 350, seed: int = 1) -> str:
    """A book laid out like a published gamebook, ``n`` sections (default 350, at least 60):

    - section 1 gives 10 gold, and sections 2–21 offer the ten skills one by one, a skill in two
      sections (its offer, and the section that gives it: ``[+tracking, +skills]``); the offer
      may be taken while ``not 5 skills`` and passed by while the reader can still reach five
      (``if 2 skills`` at the seventh): every reader leaves with exactly five of ten, 252 ways;
    - the adventure from 22 to ``n`` on :func:`plan`'s layout, its sections in shuffled order,
      section ``n`` the one victory and about one in twelve a death;
    - one gated choice in seven sections (``n // 7``, 50 of 350): two on each skill, the rest on
      an item (``if rope``) or gold (``if 5 gold``), some leading to a section that takes what
      the gate tested (``[-5 gold]``, ``[-rope]``); items and gold given along the way;
    - one random table in seventeen sections (``roll d10`` with ranges), checks, and foes with
      stat blocks.
    """
    _least(n, "gamebook", 60)
    rng = random.Random(f"dtc-bench:gamebook:{n}:{seed}")
    rooms = Rooms(rng)
    gates = n // 7
    losses = gates // 4
    m = n - 21 - losses
    pool = list(range(23, n))
    rng.shuffle(pool)
    numbers = [0, 22, *pool[:m - 2], n]
    story = Story(rng, rooms, numbers, pool[m - 2:], endings=0.08)
    story.dice = "d10"
    story.back = False
    story.rolls = {story.open() for _ in range(n // 17)}
    first = [rooms.room(1, ["You set out with ten gold crowns in your purse. [+10 gold]",
                            rooms.move(2, "**Choose Your Skills**")])]
    for i, skill in enumerate(SKILLS):
        offer, take, after = 2 + 2 * i, 3 + 2 * i, 4 + 2 * i if i < len(SKILLS) - 1 else 22
        learn = f"**Learn {skill.title()}** (D0, S{take}" + (", if not 5 skills)." if i >= 5 else ").")
        skip = f"**Pass It By** (D0, S{after}" + (f", if {i - 4} skills)." if i >= 5 else ").")
        first.append(rooms.room(offer, [f"The next skill is {skill}.", learn, skip]))
        first.append(rooms.room(take, [f"You learn {skill}. [+{skill}, +skills]", rooms.move(after, "**Go On**")]))
    m = story.m
    givers: dict[str, int] = {}
    for i in range(gates):
        at = story.open()
        if i < 2 * len(SKILLS):
            skill = SKILLS[i % len(SKILLS)]
            story.lines[at].append(f"If you have learnt {skill}, you may try the {rooms.label()} "
                                   f"(D0, S{numbers[story.near(at)]}, if {skill}).")
            continue
        lose = bool(story.spare) and i % 2 == 0
        if i % 3 == 0:  # gold: given at section 1, and along the way
            cost = rng.choice(GOLD_COSTS)
            story.gate(at, f"{cost} gold", f"-{cost} gold" if lose else "", f"You pay {cost} gold crowns.")
            continue
        item = ITEMS[i % len(ITEMS)]
        if item not in givers:  # each item is found in one section
            givers[item] = story.open(1, max(1, m * 4 // 5))
            story.give(givers[item], f"+{item}", f"You find a {item}.")
        at = story.downstream(givers[item], rng.randint(1, 6))
        if not story.plans[at].ending:
            story.gate(at, item, f"-{item}" if lose else "", f"You use the {item} up.")
    while story.spare:  # every section set aside is behind a gate
        cost = rng.choice(GOLD_COSTS)
        story.gate(story.open(), f"{cost} gold", f"-{cost} gold", f"You pay {cost} gold crowns.")
    for _ in range(n // 12):
        story.give(story.open(), f"+{rng.choice(GOLD_GAINS)} gold", "You find a few gold crowns.")
    for _ in range(n // 16):
        k = story.open()
        story.lines[k].append("You must fight.")
        story.blocks[k] = rng.choice(FOES)
    about = ("A generated gamebook. Choose five skills of the ten offered in the first sections; "
             "carry what you find, pay your way in gold, and trust the dice when the text says so.")
    return _book(f"The Road to Greyhaven ({n:,} sections)", about, story.write(first))


#: The shapes written by a function of their own: (entries, seed, possessions) -> text.
SHAPE_WRITERS: dict[str, Callable[[int, int, int], str]] = {
    "long-walk": lambda n, seed, _: long_walk(n, seed),
    "long-walk-out": lambda n, seed, _: long_walk(n, seed, way_out=True),
    "grid": lambda n, seed, _: grid(n, seed),
    "hub": lambda n, seed, _: hub(n, seed),
    "corridor": lambda n, seed, _: corridor(n, seed),
    "many-flags": many_flags,
    "gamebook": lambda n, seed, _: gamebook(n, seed),
}


def generate(n: int, seed: int = 1, shape: str = "forward", possessions: int = 0) -> str:
    """The text of an ``n``-entry adventure (n >= 1), identical for the same ``n``, ``seed``, ``shape``
    and number of ``possessions`` (0: a book without state).

    ``forward``: every exit stays within 30 entries of its own, so the book flows forward with
    short loops back (its chain's matrix is nearly banded). ``cross``: half of the exits that
    are not needed for reachability lead anywhere in the book, so a reader can roam all of it
    (one strongly connected component of nearly every entry, its matrix far from banded).
    """
    if n < 1:
        raise ValueError("an adventure needs at least one entry")
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r} ({', '.join(SHAPES)})")
    if shape in SHAPE_WRITERS:
        return SHAPE_WRITERS[shape](n, seed, possessions)
    rng = random.Random(f"dtc-bench:{n}:{seed}" + ("" if shape == "forward" else f":{shape}"))
    writer = Writer(n, rng, shape, random.Random(f"dtc-bench-state:{n}:{seed}:{possessions}"))
    parts = [
        f"Title: The Drowned Warrens of Seed {seed}",
        "Author: dtc benchmark generator",
        "",
        f"The Drowned Warrens ({n:,} entries)",
        "",
        "A generated dungeon for measuring how fast dtc reads a large book. It follows the usual "
        "layout: an encounter table, the creatures, then the numbered entries.",
        "",
        "Encounters",
        "",
    ]
    for i, (_, plural, _) in enumerate(BESTIARY, 1):
        partner = BESTIARY[(i * 5) % len(BESTIARY)][1]
        row = f"1d6 {plural}" if i % 3 else f"1d4 {plural} fighting 1d4 {partner}"
        parts.append(f"  {i}. {row}")
    parts.append("")
    for name, _, stats in BESTIARY:
        parts += [f"{name} {stats}", ""]
    parts += ["Adventure Entries", ""]
    plans = plan(n, rng)
    if possessions:
        writer.gives, writer.gates = plan_state(plans, possessions, writer.state_rng)
    for k, p in enumerate(plans):
        if k:
            parts += [writer.entry(k, p), ""]
    return "\n".join(parts)


def default_path(n: int, seed: int = 1, shape: str = "forward", possessions: int = 0) -> Path:
    stem = f"book-{n}" if shape == "forward" else f"book-{shape}-{n}"
    stem += f"-p{possessions}" if possessions else ""
    return OUT_DIR / (f"{stem}.txt" if seed == 1 else f"{stem}-s{seed}.txt")


def write_book(n: int, seed: int = 1, path: Path | None = None, shape: str = "forward", possessions: int = 0) -> Path:
    """Write the book (atomically) and return where; the folder is created if needed."""
    target = path or default_path(n, seed, shape, possessions)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(generate(n, seed, shape, possessions), encoding="utf-8")
    os.replace(tmp, target)
    return target


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate an N-entry adventure for benchmarks.")
    ap.add_argument("entries", type=int, help="number of entries (at least 1)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--shape", choices=SHAPES, default="forward", metavar="SHAPE",
                    help="forward: exits stay near their entry (default); cross: half the free exits go anywhere; "
                    "long-walk, long-walk-out, grid, hub, corridor: graphs a reader wanders long; "
                    "many-flags, gamebook: books with state (see benchmarks/README.md)")
    ap.add_argument("-o", "--output", type=Path,
                    help="where to write (default benchmarks/out/book-N.txt, book-SHAPE-N.txt)")
    ap.add_argument("--possessions", type=int, default=0,
                    help="give and test this many possessions (state: [+name], if name); default 0 "
                    "(many-flags: 30)")
    args = ap.parse_args(argv)
    if args.entries < 1:
        ap.error("entries must be at least 1")
    try:
        path = write_book(args.entries, args.seed, args.output, args.shape, args.possessions)
    except ValueError as exc:
        ap.error(str(exc))
    except OSError as exc:
        print(f"error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
