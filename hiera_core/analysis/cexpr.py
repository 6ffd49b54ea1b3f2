"""Integer C expressions: the arithmetic shared by the CUDA analyzers, and a small parser for text.

The text parser reads `// hiera: requires n % 4 == 0` conditions and object-like macro bodies
(`#define THREADS (WARPS * 32)`); tree nodes are evaluated in cuda_document with the same
`binary`/`unary` semantics (C: truncating division, comparisons give 0/1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Lookup = Callable[[str], "int | None"]


def binary(op: str, a: int, b: int) -> int | None:
    """`a op b` with C integer semantics; None where C is undefined (division by zero, bad shift)."""
    if op in ("/", "%"):
        if b == 0:
            return None
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return quotient if op == "/" else a - b * quotient
    if op in ("<<", ">>"):
        if not 0 <= b < 64:
            return None
        return a << b if op == "<<" else a >> b
    return _BINARY[op](a, b) if op in _BINARY else None


def unary(op: str, a: int) -> int | None:
    return {"-": -a, "+": a, "~": ~a, "!": int(not a)}.get(op)


_BINARY: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b),
    "&&": lambda a, b: int(bool(a) and bool(b)), "||": lambda a, b: int(bool(a) or bool(b)),
}

_INT_RE = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)([uUlL]*)$")


def parse_int_literal(text: str) -> int | None:
    """The value of a C integer literal (`256`, `0x100`, `1'024`, `256u`, `010`); None otherwise."""
    match = _INT_RE.match(text.strip())
    if not match:
        return None
    digits = match.group(1).replace("'", "")
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16) if len(digits) > 2 else None
    if digits[:2] in ("0b", "0B"):
        return int(digits[2:], 2) if len(digits) > 2 else None
    if len(digits) > 1 and digits[0] == "0":
        return int(digits, 8) if set(digits) <= set("01234567") else None
    return int(digits)


class CExprError(ValueError):
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset  # character offset into the parsed text


_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>(?:0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)[uUlL]*(?![\w.]))"
    r"|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^()?:]))")

MAX_TOKENS = 256  # longer texts are not read as constants (macro bodies, `requires` conditions)

# binding power of each binary operator (C precedence); ?: binds loosest and right to left
_PRECEDENCE = {"||": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7, "<": 8, "<=": 8, ">": 8,
               ">=": 8, "<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11}


@dataclass
class CExpr:
    """A parsed expression: `tree` is nested tuples, `names` the identifiers it reads."""

    text: str
    tree: tuple
    names: set[str]

    def evaluate(self, lookup: Lookup) -> int | None:
        return _evaluate(self.tree, lookup)


def _evaluate(tree: tuple, lookup: Lookup) -> int | None:
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "name":
        return lookup(tree[1])
    if kind == "unary":
        value = _evaluate(tree[2], lookup)
        return None if value is None else unary(tree[1], value)
    if kind == "cond":
        test = _evaluate(tree[1], lookup)
        return None if test is None else _evaluate(tree[2] if test else tree[3], lookup)
    left, right = _evaluate(tree[2], lookup), _evaluate(tree[3], lookup)
    # C short-circuits: `0 && x` and `1 || x` are known whatever x is
    if tree[1] == "&&" and 0 in (left, right):
        return 0
    if tree[1] == "||" and any(side not in (None, 0) for side in (left, right)):
        return 1
    return None if left is None or right is None else binary(tree[1], left, right)


def parse(text: str) -> CExpr:
    """Parse an integer C expression; raises CExprError (with the offset) on a syntax error."""
    tokens: list[tuple[str, str, int]] = []
    position = 0
    stripped_end = len(text.rstrip())
    while position < stripped_end:
        match = _TOKEN_RE.match(text, position)
        if not match or match.end() == position:
            at = len(text) - len(text[position:].lstrip())
            raise CExprError(f"unexpected '{text[at:].split()[0][:12]}' (only integer literals, names"
                             " and C operators are allowed)", at)
        kind = match.lastgroup or "op"
        tokens.append((kind, match.group(kind), match.start(kind)))
        if len(tokens) > MAX_TOKENS:  # the parser and evaluator recurse: bound their depth
            raise CExprError(f"expression longer than {MAX_TOKENS} tokens", match.start(kind))
        position = match.end()
    names: set[str] = set()
    index = 0

    def peek() -> tuple[str, str, int] | None:
        return tokens[index] if index < len(tokens) else None

    def take(expected: str | None = None) -> tuple[str, str, int]:
        nonlocal index
        token = peek()
        if token is None:
            raise CExprError("expression ends too early" if expected is None else f"missing '{expected}'",
                             len(text))
        if expected is not None and token[1] != expected:
            raise CExprError(f"expected '{expected}', found '{token[1]}'", token[2])
        index += 1
        return token

    def operand() -> tuple:
        kind, value, at = take()
        if kind == "num":
            number = parse_int_literal(value)
            if number is None:
                raise CExprError(f"bad number '{value}'", at)
            return ("num", number)
        if kind == "name":
            names.add(value)
            return ("name", value)
        if value in ("-", "+", "!", "~"):
            return ("unary", value, expression(12))
        if value == "(":
            inner = expression(0)
            take(")")
            return inner
        raise CExprError(f"unexpected '{value}'", at)

    def expression(min_power: int) -> tuple:
        left = operand()
        while (token := peek()) is not None and token[0] == "op":
            op = token[1]
            if op == "?" and min_power <= 1:
                take()
                then = expression(0)
                take(":")
                left = ("cond", left, then, expression(1))
                continue
            power = _PRECEDENCE.get(op)
            if power is None or power <= min_power:
                break
            take()
            left = ("binary", op, left, expression(power))
        return left

    if not tokens:
        raise CExprError("empty expression", 0)

    tree = expression(0)
    if (extra := peek()) is not None:
        raise CExprError(f"unexpected '{extra[1]}'", extra[2])
    return CExpr(text, tree, names)
