"""The Lark grammars in ``grammar/``, loaded once each (LALR, positions kept).

Everything that needs Lark itself lives here and is imported only when a line is not one of the
common shapes the fast paths in :mod:`dtc.compiler.notation` read: notation the fast path refuses (to
accept it in another spelling, or to say what is wrong with it), a stat block it cannot read,
and every hazard line (:mod:`dtc.compiler.dungeon`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import lark
from lark import Lark, Token, Transformer, v_args

from dtc.compiler.notation import (
    All,
    AnyOf,
    Branch,
    Change,
    Cond,
    Failed,
    Field,
    Has,
    Not,
    Parsed,
    RollSpec,
    StatBlock,
    compare_op,
    dice_parts,
    possession_name,
    range_bounds,
)
from dtc.numbers import HP, STAT, bounded
from dtc.resources import read_text

#: How the notation grammar's terminals read in a message.
_EXPECTED = {
    "DIFFICULTY": "a difficulty such as D2",
    "TARGET_S": "a success entry such as S12",
    "TARGET_F": "a failure entry such as F13",
    "ABILITY": "an ability such as DEX",
    "COMMA": "','",
    "RPAR": "')'",
    "LPAR": "'('",
    "$END": "the end",
    "ROLL": "roll",
    "DICE": "dice such as d6 or 2d6",
    "RANGE": "a range of the roll such as 1-2",
    "IF": "a condition such as if stone key",
    "AND": "and",
    "OR": "or",
    "NOT": "not",
    "COUNT": "a count",
    "WORD": "a name",
    "SIGN": "+ or -",
    "ROLLED": "a random amount such as 1d10*3",
    "ALL": "all",
    "ONCE": "once",
    "MAY": "may",
    "BUY": "buy",
    "COMPARE": "a comparison such as >=",
    "MAYBE": "?",
    "LSQB": "'['",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "CHOOSE": "(choose)",
    "RSQB": "']'",
}
_STAT_FIELDS = "fields are Morale N, an attack with dice such as Bite d6, Name N, or Special: text"


@cache
def parser(name: str, start: str) -> Lark:
    """The LALR parser of ``grammar/<name>.lark`` (built on first use, then kept)."""
    return Lark(
        read_text("grammar", f"{name}.lark"),
        start=start,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=False,
    )


class _ToFields(Transformer[Token, object]):
    """Builds :class:`Parsed` from the tree, keeping every token's offsets."""

    def notation(self, children: list[object]) -> Parsed:
        ability, difficulty, success, failure, *actions, condition = children
        assert isinstance(difficulty, Field) and isinstance(success, Field)
        assert ability is None or isinstance(ability, Field)
        assert failure is None or isinstance(failure, Field)
        changes: list[Change] = []
        prices: list[Cond] = []
        price_field: Field | None = None
        for action in actions:
            if isinstance(action, Change):
                changes.append(action)
            else:  # ``buy 4 coins``: open only with the price, which taking the choice pays
                assert isinstance(action, tuple)
                price, field = action
                prices.append(Has(price.name, -price.amount))
                changes.insert(len(prices) - 1, price)
                price_field = price_field or field
        cond: Cond | None = None
        field_: Field | None = price_field
        if condition is not None:
            assert isinstance(condition, tuple)
            cond, field_ = condition
        if prices:
            parts = (*prices, *((cond,) if cond is not None else ()))
            cond = parts[0] if len(parts) == 1 else All(tuple(parts))
        return Parsed(ability, difficulty, success, failure, cond, field_, None, tuple(changes))

    def action(self, children: list[object]) -> Change:
        change = children[0]
        assert isinstance(change, Change)
        return change

    def buy(self, children: list[Token | None]) -> tuple[Change, Field]:
        keyword, count, *words = children
        assert keyword is not None and keyword.start_pos is not None
        last = words[-1]
        assert last is not None and last.end_pos is not None
        name = possession_name(" ".join(str(w) for w in words if w is not None))
        amount = int(str(count)) if count is not None else 1
        return (Change(name, -amount, keyword.start_pos, last.end_pos),
                Field("", keyword.start_pos, last.end_pos))

    def change(self, children: list[object]) -> Change:
        return _change(children, False)

    def amount(self, children: list[Token]) -> Token:
        return children[0]

    def random(self, children: list[object]) -> Parsed:
        _roll, dice, *rest = children
        condition = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], tuple)) else None
        assert isinstance(dice, Field)
        count, _, sides = dice.value.lower().partition("d")
        branches = tuple(b for b in rest if isinstance(b, Branch))
        roll = RollSpec(dice, int(count or 1), int(sides), branches)
        if condition is None:
            return Parsed(None, None, None, None, roll=roll)
        assert isinstance(condition, tuple)
        return Parsed(None, None, None, None, condition[0], condition[1], roll)

    def branch(self, children: list[Token]) -> Branch:
        rng, target = children
        return Branch(*range_bounds(str(rng)), self._field(target), self._field(rng))

    def condition(self, children: list[object]) -> tuple[Cond, Field]:
        keyword, expr = children
        assert isinstance(keyword, Token) and isinstance(expr, (Has, Not, All, AnyOf))
        end = self._end
        assert keyword.start_pos is not None
        return expr, Field("", keyword.start_pos, end)

    def any(self, children: list[object]) -> AnyOf:
        left, _, right = children
        return AnyOf((*_flat(left, AnyOf), *_flat(right, AnyOf)))

    def all(self, children: list[object]) -> All:
        left, _, right = children
        return All((*_flat(left, All), *_flat(right, All)))

    def negation(self, children: list[object]) -> Not:
        arg = children[1]
        assert isinstance(arg, (Has, Not, All, AnyOf))
        return Not(arg)

    def has(self, children: list[Token | None]) -> Has:
        count, *words = children
        self._end = max(self._end, *(w.end_pos or 0 for w in words if w is not None))
        compare = next((i for i, w in enumerate(words) if w is not None and w.type == "COMPARE"), None)
        if compare is not None:  # ``END >= 10``: the number after the comparison is the count
            number = words[compare + 1]
            assert number is not None
            named = ([count] if count is not None else []) + words[:compare]
            return Has(possession_name(" ".join(str(w) for w in named if w is not None)), int(str(number)),
                       compare_op(str(words[compare])))
        return Has(possession_name(" ".join(str(w) for w in words if w is not None)), int(str(count)) if count else 1)

    @v_args(inline=True)
    def _field(self, token: Token) -> Field:
        assert token.start_pos is not None and token.end_pos is not None
        return Field(str(token), token.start_pos, token.end_pos)

    ability = difficulty = success = failure = dice = _field

    _end = 0


def _flat(cond: object, kind: type) -> tuple[Cond, ...]:
    assert isinstance(cond, (Has, Not, All, AnyOf))
    return cond.args if isinstance(cond, kind) and isinstance(cond, (All, AnyOf)) else (cond,)


def _describe(expected: set[str]) -> str:
    names = sorted(_EXPECTED.get(t, t) for t in expected if not t.startswith("__"))
    if not names:
        return "valid notation"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _parse(text: str, rule: str, word: re.Pattern[str]) -> lark.Tree[Token] | Failed:
    """``text`` through the notation grammar's ``rule``; a failure as one message with its offsets
    in ``text`` (the unexpected word runs as far as ``word`` matches)."""
    try:
        return parser("notation", rule).parse(text)
    except lark.UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            return Failed(f"expected {_describe(exc.expected)} before the end", len(text) - 1, len(text))
        start = tok.start_pos or 0
        found = str(tok)
        return Failed(f"expected {_describe(exc.expected)}, found '{found}'", start, start + len(found))
    except lark.UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        m = word.match(text, pos)
        end = m.end() if m else pos + 1
        return Failed(f"expected {_describe(set(exc.allowed))}, found '{text[pos:end]}'", pos, end)
    except lark.UnexpectedEOF as exc:
        return Failed(f"expected {_describe(set(exc.expected))} before the end", len(text) - 1, len(text))


_NOTATION_WORD = re.compile(r"[^\s,()]+|.")
_EFFECTS_WORD = re.compile(r"[^\s,\[\]]+|.")
_FRONT_WORD = re.compile(r"[^\s,]+|.")


def parse_notation(text: str) -> Parsed | Failed:
    """One parenthetical through the notation grammar; offsets refer to ``text``."""
    tree = _parse(text, "notation", _NOTATION_WORD)
    if isinstance(tree, Failed):
        return tree
    result = _ToFields().transform(tree)
    assert isinstance(result, Parsed)
    for change in result.changes:
        refused = _refusal(change)
        if refused is not None:
            return refused
    if result.condition_field is not None:  # the condition runs to the last word it names
        cf = result.condition_field
        result = Parsed(result.ability, result.difficulty, result.success, result.failure, result.condition,
                        Field(text[cf.start : cf.end], cf.start, cf.end), result.roll, result.changes)
    return result


def parse_effects(text: str) -> list[Change] | Failed:
    """``[+stone key, +3 torches]`` through the grammar's ``effects`` rule."""
    tree = _parse(text, "effects", _EFFECTS_WORD)
    if isinstance(tree, Failed):
        return tree
    may, *parts = tree.children
    changes = []
    for change in parts:
        assert isinstance(change, lark.Tree)
        found = _change(change.children, may is not None)
        refused = _refusal(found)
        if refused is not None:
            return refused
        changes.append(found)
    return changes


def parse_front(text: str, rule: str) -> list[tuple[str, int]] | Failed:
    """A front-matter value through the grammar's ``start_with`` or ``limits`` rule:
    (name, count) per part, in the order written (a limit the reader chooses to keep,
    ``backpack 8 (choose)``, has its count negated)."""
    tree = _parse(text, rule, _FRONT_WORD)
    if isinstance(tree, Failed):
        return tree
    out: list[tuple[str, int]] = []
    for part in tree.children:
        assert isinstance(part, lark.Tree)
        tokens = [t for t in part.children if isinstance(t, Token)]
        if rule == "limits":
            choose = bool(tokens) and tokens[-1].type == "CHOOSE"
            *words, count = tokens[:-1] if choose else tokens
            out.append((possession_name(" ".join(map(str, words))), -int(str(count)) if choose else int(str(count))))
        else:
            first = part.children[0]
            amount = int(str(first)) if first is not None else 1
            words = tokens[1:] if first is not None else tokens
            if len(words) > 1 and str(words[0]).lower() in ("a", "an", "the"):
                words = words[1:]  # ``a rope`` is a rope
            out.append((possession_name(" ".join(map(str, words))), amount))
    return out


def parse_containers(text: str) -> list[tuple[str, tuple[str, ...], int, int]] | Failed:
    """A ``Containers:`` value through the grammar's ``containers`` rule: (container, its
    possessions, start, end) per container, in the order written (offsets into ``text``)."""
    tree = _parse(text, "containers", _FRONT_WORD)
    if isinstance(tree, Failed):
        return tree
    out: list[tuple[str, tuple[str, ...], int, int]] = []
    for part in tree.children:
        assert isinstance(part, lark.Tree)
        words = [t for t in part.children if isinstance(t, Token)]
        members = [m for m in part.children if isinstance(m, lark.Tree)]
        names = tuple(possession_name(" ".join(str(t) for t in m.children if isinstance(t, Token))) for m in members)
        start = words[0].start_pos or 0
        end = max(t.end_pos or 0 for m in members for t in m.children if isinstance(t, Token))
        out.append((possession_name(" ".join(map(str, words))), names, start, end))
    return out


def _refusal(change: Change) -> Failed | None:
    """Why an effect the grammar reads means nothing: ``+all`` (gain every one of what?) and a
    gain ``?`` (gain it if held?)."""
    if change.amount > 0 and change.all:
        return Failed("`all` is for losses: write how many are gained", change.start, change.end)
    if change.amount > 0 and change.if_held:
        return Failed("`?` is for losses (lose it if held): a gain needs none", change.start, change.end)
    return None


def _change(children: Sequence[object], may: bool) -> Change:
    """One effect's tokens (``SIGN [amount] [ONCE] WORD... [ONCE] [MAYBE]``) as a :class:`Change`
    (``+all`` and ``+rope?``, which the grammar reads, are refused by :func:`_refusal`)."""
    tokens = [c for c in children if c is not None]
    sign = tokens[0]
    assert isinstance(sign, Token) and sign.start_pos is not None
    gain = str(sign) == "+"
    amount, all_, dice, times = 1, False, None, 1
    once = if_held = False
    words: list[Token] = []
    end = sign.end_pos or 0
    for token in tokens[1:]:
        if isinstance(token, lark.Tree):  # the amount
            token = token.children[0]
        assert isinstance(token, Token)
        end = max(end, token.end_pos or 0)
        kind = token.type
        if kind == "ONCE":
            once = True
        elif kind == "MAYBE":
            if_held = True
        elif kind == "ALL" and not words:
            all_ = True
        elif kind == "ROLLED" and not words:
            dice, times = dice_parts(str(token))
        elif kind == "COUNT" and not words:  # (a name opens with a word: a count before it is the amount)
            amount = int(str(token))
        else:
            words.append(token)
    name = possession_name(" ".join(str(w) for w in words))
    signed = amount if gain else -amount
    return Change(name, signed, sign.start_pos, end, all=all_, if_held=if_held, once=once, dice=dice,
                  times=times, may=may)


def statblock_error(text: str) -> Failed | None:
    """Why ``text`` is not a stat block (offsets into ``text``), or None when it is one."""
    try:
        parser("statblock", "statblock").parse(text)
    except lark.UnexpectedToken as exc:
        start = exc.token.start_pos or 0
        if exc.token.type == "$END":
            return Failed("the stat block ends too early", max(0, len(text) - 1), len(text))
        word = str(exc.token).strip()
        return Failed(f"unexpected '{word}' in stat block ({_STAT_FIELDS})", start, start + max(1, len(word)))
    except lark.UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        m = re.compile(r"[^|]*").match(text, pos)
        end = m.end() if m and m.end() > pos else pos + 1
        return Failed(f"cannot read '{text[pos:end].strip()}' in stat block ({_STAT_FIELDS})", pos, end)
    except lark.UnexpectedInput:
        return Failed("not a stat block", 0, len(text))
    return None


def parse_statblock(text: str) -> StatBlock | None:
    """``Goblin HP 3 | Morale 7 | Sword or Bow d6`` through the grammar; ``None`` when it is not one."""
    try:
        tree = parser("statblock", "statblock").parse(text)
    except lark.LarkError:
        return None
    name_tok, hp_tok, *fields = tree.children
    morale: int | None = None
    special: str | None = None
    attacks: list[tuple[str, str]] = []
    stats: list[tuple[str, int]] = []
    exits: list[tuple[str, str]] = []
    for f in fields:
        if not isinstance(f, lark.Tree):
            continue
        kids = [str(k).strip() for k in f.children]
        if f.data == "morale":
            morale = bounded(kids[0], STAT)
        elif f.data == "special":
            special = kids[0]
        elif f.data == "attack":
            attacks.append((kids[0], kids[1].replace(" ", "")))
        elif f.data == "stat":
            stats.append((kids[0], bounded(kids[1], STAT)))
        elif f.data == "exits":
            exits += [(kids[i].lower(), kids[i + 1]) for i in range(0, len(kids) - 1, 2)]
    hp = bounded(str(hp_tok).strip(), HP)
    return StatBlock(str(name_tok).strip(), hp, morale, tuple(attacks), special, tuple(stats), tuple(exits))
