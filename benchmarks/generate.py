"""Generate a large, realistic adventure for benchmarking ``dtc``.

    python benchmarks/generate.py 10000 [--seed 1] [-o benchmarks/out/book-10000.txt]

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
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent / "out"
WINDOW = 30  # how far (in entry numbers) an exit usually reaches
CHILDREN = 3  # with the way forward, at most 3 required exits: 2-4 choices hold them
#: In a cross-linked book, the share of the unplanned exits that lead anywhere in the book.
CROSS = 0.5
SHAPES = ("forward", "cross")


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


def plan(n: int, rng: random.Random) -> list[Plan]:
    """Endings and required exits for entries 1..n (index 0 is unused)."""
    plans = [Plan() for _ in range(n + 1)]
    plans[n].ending = True
    for k in range(2, n):
        plans[k].ending = rng.random() < 0.04
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
            special.append(f"Suddenly, {rng.randint(2, 6)} {plural} {rng.choice(FIGHT_VERBS)}")
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
    ap.add_argument("--shape", choices=SHAPES, default="forward",
                    help="forward: exits stay near their entry (default); cross: half the free exits go anywhere")
    ap.add_argument("-o", "--output", type=Path,
                    help="where to write (default benchmarks/out/book-N.txt, book-cross-N.txt)")
    ap.add_argument("--possessions", type=int, default=0,
                    help="give and test this many possessions (state: [+name], if name); default 0")
    args = ap.parse_args(argv)
    if args.entries < 1:
        ap.error("entries must be at least 1")
    try:
        path = write_book(args.entries, args.seed, args.output, args.shape, args.possessions)
    except OSError as exc:
        print(f"error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
