"""Story-format expressions (SugarCube and Harlowe) read as dtc conditions.

:func:`parse` reads an expression of variables, numbers, ``true``/``false``, comparisons
(``is``, ``gte``, ``>=``...) and ``and``/``or``/``not`` into a small tree, or None. :func:`to_condition`
writes a tree over possessions as a dtc condition (``not`` on names only, then ``and``, then
``or``: the tree is put in that shape), or None when it cannot. :func:`totals` evaluates a tree
over one dice variable, for random branches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dtc.interop.book import condition_atom

Node = tuple[object, ...]

_TOKEN = re.compile(
    r"\s*(?:(?P<var>[$_][A-Za-z_][\w]*)|(?P<num>-?\d{1,9})(?![\w.])|(?P<word>[A-Za-z]+)"
    r"|(?P<op>===|!==|==|!=|>=|<=|&&|\|\||[<>!()]))"
)

_COMPARE = {
    "is": "==", "eq": "==", "==": "==", "===": "==", "isnot": "!=", "neq": "!=", "!=": "!=", "!==": "!=",
    "gt": ">", ">": ">", "gte": ">=", ">=": ">=", "lt": "<", "<": "<", "lte": "<=", "<=": "<=",
}

#: The most clauses a condition may grow to when put in dtc's shape.
MAX_CLAUSES = 16


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expr(self, depth: int = 0) -> Node:
        if depth > 20:
            raise ValueError("too deep")
        left = self.conj(depth)
        while self.peek() in (("word", "or"), ("op", "||")):
            self.take()
            left = ("or", left, self.conj(depth))
        return left

    def conj(self, depth: int) -> Node:
        left = self.unary(depth)
        while self.peek() in (("word", "and"), ("op", "&&")):
            self.take()
            left = ("and", left, self.unary(depth))
        return left

    def unary(self, depth: int) -> Node:
        if depth > 20:
            raise ValueError("too deep")
        if self.peek() in (("word", "not"), ("op", "!")):
            self.take()
            return ("not", self.unary(depth + 1))
        left = self.atom(depth)
        tok = self.peek()
        if tok is not None and tok[1] in _COMPARE:
            self.take()
            op = _COMPARE[tok[1]]
            if op == "==" and self.peek() == ("word", "not"):  # Harlowe's "is not"
                self.take()
                op = "!="
            return ("cmp", op, left, self.atom(depth))
        return left

    def atom(self, depth: int) -> Node:
        tok = self.take()
        if tok == ("op", "("):
            inner = self.expr(depth + 1)
            if self.take() != ("op", ")"):
                raise ValueError("unbalanced")
            return inner
        kind, text = tok
        if kind == "var":
            return ("var", text)
        if kind == "num":
            return ("num", int(text))
        if kind == "word" and text in ("true", "false"):
            return ("bool", text == "true")
        raise ValueError(f"unexpected {text!r}")


def parse(text: str) -> Node | None:
    """The expression's tree, or None if it is not one this module reads."""
    if len(text) > 2000:
        return None
    tokens: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            return None
        pos = m.end()
        kind = m.lastgroup or ""
        value = m.group(kind)
        if kind == "word":
            value = value.lower()
        tokens.append((kind, value))
    if not tokens:
        return None
    parser = _Parser(tokens)
    try:
        tree = parser.expr()
    except (ValueError, IndexError):
        return None
    return tree if parser.i == len(tokens) else None


def variables(tree: Node) -> set[str]:
    if tree[0] == "var":
        return {str(tree[1])}
    found: set[str] = set()
    for child in tree[1:]:
        if isinstance(child, tuple):
            found |= variables(child)
    return found


# --- dtc's shape: an "or" of "and"s of (not) names --------------------------------------------

@dataclass(frozen=True, slots=True)
class Atom:
    name: str
    count: int
    negated: bool

    def flip(self) -> Atom:
        return Atom(self.name, self.count, not self.negated)


Dnf = list[tuple[Atom, ...]]  # [] is false, [()] is true; atoms in the order written


def _or(a: Dnf, b: Dnf) -> Dnf:
    out = list(dict.fromkeys(a + b))
    if len(out) > MAX_CLAUSES:
        raise ValueError("too large")
    return out


def _and(a: Dnf, b: Dnf) -> Dnf:
    out: list[tuple[Atom, ...]] = []
    for x in a:
        for y in b:
            clause = tuple(dict.fromkeys(x + y))
            if any(atom.flip() in clause for atom in clause):
                continue  # never true
            out.append(clause)
            if len(out) > MAX_CLAUSES:
                raise ValueError("too large")
    return list(dict.fromkeys(out))


def _not(a: Dnf) -> Dnf:
    result: Dnf = [()]
    for clause in a:
        result = _and(result, [(atom.flip(),) for atom in clause])
    return result


def _compare(name: str, op: str, n: int) -> Dnf:
    """``$name op n`` over a count that is never negative."""
    true: Dnf = [()]

    def at_least(k: int) -> Dnf:
        return true if k <= 0 else [(Atom(name, k, False),)]

    if op == ">=":
        return at_least(n)
    if op == ">":
        return at_least(n + 1)
    if op == "<":
        return _not(at_least(n))
    if op == "<=":
        return _not(at_least(n + 1))
    if op == "==":
        return [] if n < 0 else _and(at_least(n), _not(at_least(n + 1)))
    return _not(_compare(name, "==", n))


#: ``$score_STR``: a condition on the adventurer's score, as ``dtc export`` writes one.
_SCORE_VAR = re.compile(r"\$score_([A-Za-z]{2,5}|hp)")


def _dnf(tree: Node, names: dict[str, str]) -> Dnf:
    kind = tree[0]
    if kind == "var":
        return [(Atom(names[str(tree[1])], 1, False),)]
    if kind == "bool":
        return [()] if tree[1] else []
    if kind == "not":
        return _not(_dnf(tree[1], names))  # type: ignore[arg-type]
    if kind in ("and", "or"):
        left, right = _dnf(tree[1], names), _dnf(tree[2], names)  # type: ignore[arg-type]
        return _and(left, right) if kind == "and" else _or(left, right)
    if kind == "cmp":
        op, lhs, rhs = str(tree[1]), tree[2], tree[3]
        assert isinstance(lhs, tuple) and isinstance(rhs, tuple)
        if lhs[0] != "var":
            lhs, rhs = rhs, lhs
            op = {">": "<", ">=": "<=", "<": ">", "<=": ">="}.get(op, op)
        if lhs[0] != "var":
            raise ValueError("no variable")
        score = _SCORE_VAR.fullmatch(str(lhs[1]))
        name = f"score:{score.group(1).upper()}" if score and rhs[0] == "num" else names[str(lhs[1])]
        if rhs[0] == "bool":
            positive = (op == "==") == bool(rhs[1])
            atom: Dnf = [(Atom(name, 1, False),)]
            return atom if positive else _not(atom)
        if rhs[0] != "num":
            raise ValueError("not a number")
        return _compare(name, op, int(str(rhs[1])))
    raise ValueError(kind)


def to_dnf(tree: Node, names: dict[str, str]) -> Dnf | None:
    """The tree in dtc's shape, each variable named by ``names``; None if it cannot be."""
    try:
        return _dnf(tree, names)
    except (ValueError, KeyError):
        return None


def write(dnf: Dnf) -> str | None:
    """A dtc condition (None: always true)."""
    if any(not clause for clause in dnf):
        return None
    clauses = [" and ".join(condition_atom(a.name, a.count, a.negated) for a in clause) for clause in dnf]
    return " or ".join(clauses)


def conjoin(conditions: list[Dnf]) -> Dnf | None:
    result: Dnf = [()]
    try:
        for c in conditions:
            result = _and(result, c)
    except ValueError:
        return None
    return result


def negate(dnf: Dnf) -> Dnf | None:
    try:
        return _not(dnf)
    except ValueError:
        return None


# --- dice --------------------------------------------------------------------------------------

def evaluate(tree: Node, var: str, value: int) -> bool | int:
    kind = tree[0]
    if kind == "var":
        if tree[1] != var:
            raise ValueError("another variable")
        return value
    if kind == "num":
        return int(str(tree[1]))
    if kind == "bool":
        return bool(tree[1])
    if kind == "not":
        return not evaluate(tree[1], var, value)  # type: ignore[arg-type]
    if kind == "and":
        return bool(evaluate(tree[1], var, value)) and bool(evaluate(tree[2], var, value))  # type: ignore[arg-type]
    if kind == "or":
        return bool(evaluate(tree[1], var, value)) or bool(evaluate(tree[2], var, value))  # type: ignore[arg-type]
    if kind == "cmp":
        a = evaluate(tree[2], var, value)  # type: ignore[arg-type]
        b = evaluate(tree[3], var, value)  # type: ignore[arg-type]
        op = str(tree[1])
        return {"==": a == b, "!=": a != b, ">": a > b, ">=": a >= b, "<": a < b, "<=": a <= b}[op]
    raise ValueError(kind)


def totals(tree: Node, var: str, low: int, high: int) -> set[int] | None:
    """The totals from ``low`` to ``high`` for which the tree holds; None if it reads anything else."""
    try:
        return {t for t in range(low, high + 1) if evaluate(tree, var, t)}
    except (ValueError, TypeError):
        return None
