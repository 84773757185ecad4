"""The parsed adventure: what the source says, with every source position kept.

``parse`` builds these; ``compile`` turns them into the JSON graph; the lint rules read them.
Targets are entry numbers, or ``"@label"`` strings where the author named an entry.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from dtc.compiler.labels import fallback_label, read_label
from dtc.compiler.notation import Change, Cond, fast_notation_at
from dtc.diagnostics import Span

if TYPE_CHECKING:
    from dtc.compiler.parallel import Ahead

Target = int | str

#: A span's four numbers (line, column, end line, end column) as a plain tuple.
Offsets = tuple[int, int, int, int]
#: ``Span`` from one tuple, without the named tuple's Python-level ``__new__``.
_new_span: Callable[[Offsets], Span] = partial(tuple.__new__, Span)


@dataclass(slots=True)
class RollBranch:
    """One outcome of a random branch: totals ``low``..``high`` of the roll lead to ``target``."""

    low: int
    high: int
    target: Target
    #: Where the target (``S5``) and the range (``1-2``) are written.
    span: Span
    range_span: Span


@dataclass(slots=True)
class Roll:
    """``(roll 2d6, 2-6 S40, 7-12 S41)``: the die decides where the reader goes."""

    dice: str
    count: int
    sides: int
    branches: list[RollBranch]
    span: Span

    @property
    def low(self) -> int:
        return self.count

    @property
    def high(self) -> int:
        return self.count * self.sides


@dataclass(slots=True)
class StateChange:
    """An effect in an entry's text: ``[+3 torches]`` is ``StateChange("torches", 3, span)``; or
    on a choice, ``(D0, S37, -3 coins)``, applied when the choice is taken.

    ``change`` is the effect as the grammar read it (:class:`dtc.compiler.notation.Change`), with
    the published-gamebook forms: ``[-rope?]``, ``[-all coins]``, ``[+once stone key]``,
    ``[+1d10*3 coins]``, ``[may +rope]`` (``None`` for a plain count)."""

    name: str
    amount: int
    span: Span
    change: Change | None = None

    @property
    def plain(self) -> bool:
        """A fixed count gained or lost on every reading, with a shortfall when it cannot be paid:
        what every engine reads as state (the other forms each say what they do)."""
        c = self.change
        return c is None or not (c.all or c.if_held or c.once or c.dice is not None or c.may or c.pick)


@dataclass(slots=True, eq=False)
class Choice:
    """A parenthetical in choice notation: ``Chasm (DEX D3, S24, F78)``.

    Its source positions (:attr:`span` and those of each token) are worked out when first asked
    for: a book has hundreds of thousands of choices, and the linter asks for the positions of
    the few it reports. Notation read by the grammar gives them at once (``spans``); notation
    the fast path read (on one line) is found again there (see :meth:`located`).
    """

    text: str
    ability: str | None = None
    difficulty: int | None = None
    success: Target | None = None
    failure: Target | None = None
    #: Set when the parenthetical looks like notation but does not parse.
    error: str | None = None
    #: Where the label is read from, when asked for: ``source[label_from:label_to]`` is the
    #: entry text just before the parenthesis (``source`` is the whole parsed text, shared;
    #: ``label_to`` is where the parenthesis opens).
    source: str = field(default="", repr=False)
    label_from: int = field(default=0, repr=False)
    label_to: int = field(default=0, repr=False)
    #: The label once read (or as given).
    label_text: str | None = field(default=None, repr=False)
    #: (span, error, ability, difficulty, success, failure and condition spans), once known.
    spans: tuple[Span | None, ...] | None = field(default=None, repr=False)
    #: The offsets where the source's lines start, to work the spans out.
    starts: Sequence[int] = field(default=(), repr=False)
    #: ``if stone key``: the choice is open only when this holds (``None``: always open).
    condition: Cond | None = None
    #: A random branch ``(roll d6, 1-2 S5, 3-6 S9)``: difficulty, success and failure are then None.
    roll: Roll | None = None
    #: ``(D0, S37, -3 coins)``, ``buy 4 coins``: what taking the choice does, in the order written.
    changes: list[StateChange] = field(default_factory=list)

    def located(self) -> tuple[Span | None, ...]:
        """The seven spans (see ``spans``), worked out now if they were not yet: the notation
        opens at ``source[label_to]``, and the fast path that read it reads it again."""
        spans = self.spans
        if spans is None:
            line, col, (whole, ability, difficulty, success, failure) = self._read_again()
            spans = self.spans = (
                _new_span((line, col + whole[0], line, col + whole[1])),
                None,
                None if ability[0] < 0 else _new_span((line, col + ability[0], line, col + ability[1])),
                None if difficulty[0] < 0 else _new_span((line, col + difficulty[0], line, col + difficulty[1])),
                None if success[0] < 0 else _new_span((line, col + success[0], line, col + success[1])),
                None if failure[0] < 0 else _new_span((line, col + failure[0], line, col + failure[1])),
                None,
            )
        return spans

    def graph_spans(self) -> tuple[Offsets | None, Offsets | None, Offsets | None]:
        """The spans the compiled graph writes: the notation's, the success target's and the
        failure target's (:meth:`located`'s first, fifth and sixth), as plain
        ``(line, column, end_line, end_column)`` tuples. Where :meth:`located` has not run, they
        are worked out the same way without making or keeping all seven spans: a compile asks
        for these three once per choice, and nothing else there asks for any."""
        spans = self.spans
        if spans is not None:
            return spans[0], spans[4], spans[5]
        line, col, (whole, _, _, success, failure) = self._read_again()
        return (
            (line, col + whole[0], line, col + whole[1]),
            None if success[0] < 0 else (line, col + success[0], line, col + success[1]),
            None if failure[0] < 0 else (line, col + failure[0], line, col + failure[1]),
        )

    def _read_again(self) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        """The notation read again by the fast path that read it (it opens at
        ``source[label_to]``): its line, the column of the line's offset 0 (offset x is column
        col + x), and the match's offsets: the whole, then ability, difficulty, success and
        failure, each (-1, -1) when absent."""
        at = self.label_to
        found = fast_notation_at(self.source, at)
        assert found is not None, "a choice without spans is notation the fast path read"
        starts = self.starts
        line = bisect_right(starts, at)
        return line, 1 - starts[line - 1], found.regs

    @property
    def span(self) -> Span:
        span = self.located()[0]
        assert span is not None
        return span

    @property
    def error_span(self) -> Span | None:
        return self.located()[1]

    @property
    def ability_span(self) -> Span | None:
        return self.located()[2]

    @property
    def difficulty_span(self) -> Span | None:
        return self.located()[3]

    @property
    def success_span(self) -> Span | None:
        return self.located()[4]

    @property
    def failure_span(self) -> Span | None:
        return self.located()[5]

    @property
    def condition_span(self) -> Span | None:
        """Where ``if ...`` is written (None when the choice has no condition)."""
        return self.located()[6]

    def __eq__(self, other: object) -> bool:
        """Two choices are equal when what they say and where they say it are."""
        if not isinstance(other, Choice):
            return NotImplemented
        return (self.text, self.ability, self.difficulty, self.success, self.failure, self.error, self.condition,
                self.roll) == (
            other.text, other.ability, other.difficulty, other.success, other.failure, other.error, other.condition,
            other.roll,
        ) and self.located() == other.located()

    @property
    def label(self) -> str:
        """The element the choice belongs to (see :mod:`dtc.compiler.labels`); else a fallback
        (``Go on to <success>``, ``Try for <success>``, ``Roll <dice>``: :func:`fallback_label`),
        or nothing for notation that does not parse."""
        if self.label_text is None:
            label = read_label(self.source[self.label_from : self.label_to])
            if not label and self.error is None:
                label = fallback_label(self.success, self.failure, self.difficulty,
                                       None if self.roll is None else self.roll.dice)
            self.label_text = label
        return self.label_text

    @property
    def label_found(self) -> bool:
        """Whether the text names the choice (its label is not the fallback): read again, for
        the few that ask (DT307 ``unlabelled-choice``)."""
        return self.error is not None or bool(read_label(self.source[self.label_from : self.label_to]))


@dataclass(slots=True)
class ProseExit:
    """``Return to 17``, ``go to 17``: an exit written in prose."""

    target: Target
    phrase: str
    span: Span
    #: ``win``, ``lose`` or ``flee`` for a fight's exit written in its stat block (``win S13``).
    fight: str | None = None


@dataclass(slots=True)
class Attack:
    name: str
    damage: str


@dataclass(slots=True)
class Creature:
    """A stat block: ``Goblin HP 3 | Morale 7 | Sword or Bow d6``."""

    name: str
    hp: int
    span: Span
    morale: int | None = None
    attacks: list[Attack] = field(default_factory=list)
    special: str | None = None
    stats: dict[str, int] = field(default_factory=dict)
    #: The entry whose text holds this stat block, if any.
    entry: int | None = None
    #: ``win S13, lose S4, flee S3``: where the fight's outcomes lead (outcome -> target).
    exits: dict[str, Target] = field(default_factory=dict)


@dataclass(slots=True)
class CreatureGroup:
    """``1d6 Goblins``: how many of which creature."""

    count: str
    name: str
    span: Span


@dataclass(slots=True)
class Encounter:
    """One row of the encounter table."""

    low: int
    high: int
    text: str
    span: Span
    groups: list[CreatureGroup] = field(default_factory=list)


@dataclass(slots=True)
class ZoneRow:
    """A row of the ``Zones`` table (Dungeon Rules): entries ``low``–``high`` are a zone."""

    low: int
    high: int
    text: str
    span: Span
    text_span: Span


@dataclass(slots=True)
class HazardCheck:
    """``Check: WIS or AGI D2``: the abilities (the better is rolled) and the difficulty."""

    abilities: list[str]
    difficulty: int | None
    span: Span


@dataclass(slots=True)
class Hazard:
    """A ``Hazard: Name | Check: CON D2 | Fail: ... | Mitigation: ...`` line (Dungeon Rules)."""

    name: str
    span: Span
    check: HazardCheck | None = None
    fail: str | None = None
    pass_: str | None = None
    mitigation: list[str] = field(default_factory=list)
    telltales: str | None = None
    trigger: str | None = None
    #: The entry whose text holds the line, if any (it is then placed there).
    entry: int | None = None
    #: Set when the line does not parse; the other fields are then what could be read.
    error: str | None = None
    error_span: Span | None = None


@dataclass(slots=True)
class Entry:
    number: Target
    span: Span
    text: str
    end_line: int
    choices: list[Choice] = field(default_factory=list)
    prose_exits: list[ProseExit] = field(default_factory=list)
    #: Spans of "return to your most recent entry" phrases.
    returns: list[Span] = field(default_factory=list)
    ending: bool = False
    creatures: list[Creature] = field(default_factory=list)
    #: Creature names mentioned with a count ("4 Goblins"), and whether in a fight.
    mentions: list[CreatureGroup] = field(default_factory=list)
    fight_mentions: list[CreatureGroup] = field(default_factory=list)
    #: ``Zone: perilous`` written in the entry (Dungeon Rules), and where.
    zone: str | None = None
    zone_span: Span | None = None
    #: ``Hazard: Name`` lines that place a hazard defined elsewhere: (name, span).
    hazard_refs: list[tuple[str, Span]] = field(default_factory=list)
    #: ``[+stone key, -10 coins]``: what reading the entry gives and takes, in text order.
    changes: list[StateChange] = field(default_factory=list)
    #: Brackets that open like effects (``[+``, ``[-``) but do not parse: (message, span).
    effect_errors: list[tuple[str, Span]] = field(default_factory=list)
    #: ``THE END (death)`` / ``THE END (victory)``: the kind of ending; None when unstated.
    ending_kind: str | None = None


@dataclass(slots=True)
class MetaField:
    key: str
    value: str
    span: Span


@dataclass(slots=True)
class Directive:
    """A ``<!-- dtc: ... -->`` comment line (see :mod:`dtc.lint.suppressions`); never part of entry text."""

    text: str
    span: Span
    #: Index in ``Document.entries`` of the entry it sits in; ``None`` above the first entry.
    entry_index: int | None = None


@dataclass(slots=True)
class Document:
    """Everything one source file says."""

    path: str
    title: str | None = None
    title_span: Span | None = None
    #: The author's introduction: the prose lines between the title line and the first table,
    #: bestiary line or entry, as paragraphs (blank lines split them).
    introduction: list[str] = field(default_factory=list)
    meta: dict[str, MetaField] = field(default_factory=dict)
    unknown_meta: list[MetaField] = field(default_factory=list)
    encounters: list[Encounter] = field(default_factory=list)
    creatures: list[Creature] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    line_count: int = 0
    #: Lines that look like stat blocks but do not parse: (message, span of the bad part).
    bad_statblocks: list[tuple[str, Span]] = field(default_factory=list)
    directives: list[Directive] = field(default_factory=list)
    #: Dungeon Rules notation: the ``Zones`` table and every hazard line (bestiary and entries).
    zones: list[ZoneRow] = field(default_factory=list)
    hazards: list[Hazard] = field(default_factory=list)
    #: The ruleset used when there is no ``Rules:`` key (a project's configuration may set it).
    default_rules: str = "death-and-treasure"
    #: Lines shaped like an entry's head but read as prose: in a book that puts a blank line
    #: before each entry, one such as "3 Goblins rush in!" right after a sentence. The number
    #: (or label) each opens with, and where it is.
    prose_heads: list[tuple[Target, Span]] = field(default_factory=list)
    #: Lines shaped like an entry's head but whose text begins in lower case ("2 you walk into
    #: the hall."), read as prose; only those standing where a head would (after a blank line, or
    #: after a sentence in a book that does not put a blank line before each entry). The number
    #: (or label), the span of the number and the word after it, and the line's text after the number.
    lowercase_heads: list[tuple[Target, Span, str]] = field(default_factory=list)
    #: What a child process reads ahead for the compiled graph while this one goes on
    #: (:class:`dtc.compiler.parallel.Ahead`, only under ``dtc compile``; None elsewhere).
    ahead: Ahead | None = field(default=None, repr=False, compare=False)
    #: :attr:`scores` as last computed, with what it was computed from: the entries list itself
    #: (held, so its identity is not reused), how many entries it had, and the rules. The language
    #: server builds an edited document as a copy of the last one with a new entries list
    #: (``copy.copy``, then ``doc.entries = ...``), which the key tells apart.
    _scores_cache: tuple[list[Entry], int, str, frozenset[str]] | None = field(
        default=None, init=False, repr=False, compare=False)

    @property
    def rules(self) -> str:
        field_ = self.meta.get("rules")
        return field_.value if field_ else self.default_rules

    def score_name(self, name: str) -> str | None:
        """The adventurer's score a condition's name is (``if CON >= 12``: ``CON``; ``if HP < 5``:
        ``HP``), as the book's rules spell it; None for a possession (or unknown rules)."""
        if name == "hp":
            return "HP"
        from dtc.systems import UnknownRuleset, get_ruleset

        try:
            return get_ruleset(self.rules).abilities.get(name.upper())
        except UnknownRuleset:
            return None

    @property
    def scores(self) -> frozenset[str]:
        """The names (as conditions write them, lower case) that are the adventurer's scores, of
        those the book's conditions name: never possessions (docs/format.md, "Scores").

        Read once per choice by the compiler and lint, so it is computed once per document and
        kept while the document has the same entries list, as many entries and the same rules."""
        entries, rules, cached = self.entries, self.rules, self._scores_cache
        if cached is not None and cached[0] is entries and cached[1] == len(entries) and cached[2] == rules:
            return cached[3]
        found = self._find_scores()
        self._scores_cache = (entries, len(entries), rules, found)
        return found

    def _find_scores(self) -> frozenset[str]:
        """:attr:`scores`, computed: every condition of every choice read."""
        from dtc.compiler.notation import cond_names

        names = {n for e in self.entries for c in e.choices if c.condition is not None for n in cond_names(c.condition)}
        return frozenset(n for n in names if self.score_name(n) is not None)

    @property
    def start_with(self) -> list[tuple[str, int]]:
        """``Start with: crystal star pendant, 20 gold crowns``: what the reader holds on the first
        page, (name as compiled, count); items the line cannot read are DT123's to report."""
        from dtc.compiler.frontmatter import start_with

        field_ = self.meta.get("start with") or self.meta.get("start_with")
        return [] if field_ is None else [(n, k) for n, k, _ in start_with(field_.value) if n]

    @property
    def limits(self) -> dict[str, int]:
        """``Limits: coins 50, backpack 8``: the most of each name the reader can hold."""
        from dtc.compiler.frontmatter import limits

        field_ = self.meta.get("limits")
        return {} if field_ is None else {n: k for n, k, _ in limits(field_.value) if n}

    @property
    def chosen_limits(self) -> frozenset[str]:
        """``Limits: backpack 8 (choose)``: the containers past whose limit the reader chooses what
        to drop (elsewhere what a gain brings past a limit is lost)."""
        from dtc.compiler.frontmatter import chosen

        field_ = self.meta.get("limits")
        return frozenset() if field_ is None else chosen(field_.value) & frozenset(self.containers)

    @property
    def containers(self) -> dict[str, tuple[str, ...]]:
        """``Containers: backpack: rope, meal; weapons: sword``: each container's possessions (a
        limit on a container counts them all; ``[-all backpack]`` loses them all)."""
        from dtc.compiler.frontmatter import containers

        field_ = self.meta.get("containers")
        return {} if field_ is None else {n: ms for n, ms, _ in containers(field_.value) if n}

    def expanded(self, changes: list[StateChange]) -> list[StateChange]:
        """``changes`` as every engine applies them: ``[-all backpack]``, where ``backpack`` is a
        container, is ``[-all rope]``, ``[-all meal]``... for each possession it holds (the
        compiled graph writes them so)."""
        containers = self.containers
        if not containers or not any(ch.change is not None and ch.change.all and ch.name in containers
                                     for ch in changes):
            return changes
        out: list[StateChange] = []
        for ch in changes:
            c = ch.change
            if c is not None and c.all and ch.name in containers:
                out += [StateChange(m, ch.amount, ch.span, replace(c, name=m)) for m in containers[ch.name]]
            else:
                out.append(ch)
        return out

    @property
    def limited(self) -> dict[str, tuple[str, int, bool]]:
        """Each possession of a container with a limit: (the container, its limit, whether the
        reader chooses what to drop past it)."""
        limits, chosen = self.limits, self.chosen_limits
        return {m: (c, limits[c], c in chosen) for c, members in self.containers.items() if c in limits
                for m in members}

    def container_of(self, name: str) -> str | None:
        """The container that holds the possession ``name``, or None."""
        return next((c for c, members in self.containers.items() if name in members), None)

    def all_creatures(self) -> list[Creature]:
        """Stat blocks of the file and of its entries, file order."""
        inner = [c for e in self.entries for c in e.creatures]
        return sorted(self.creatures + inner, key=lambda c: (c.span.line, c.span.column))
