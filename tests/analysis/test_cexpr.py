import pytest

from hiera_core.analysis.cexpr import CExprError, parse, parse_int_literal


@pytest.mark.parametrize("text, values, expected", [
    ("n % 4 == 0", {"n": 8}, 1),
    ("n % 4 == 0", {"n": 10}, 0),
    ("a && !b || c", {"a": 1, "b": 1, "c": 0}, 0),
    ("-7 / 2", {}, -3),  # C truncates toward zero
    ("-7 % 2", {}, -1),
    ("1 << 10", {}, 1024),
    ("(WARPS * 32)", {"WARPS": 4}, 128),
    ("x ? 1 : y ? 2 : 3", {"x": 0, "y": 0}, 3),
    ("0x10u + 010", {}, 24),
    ("n / 0", {"n": 1}, None),
    ("n > 0", {}, None),  # unknown name
])
def test_evaluate(text, values, expected):
    assert parse(text).evaluate(values.get) == expected


@pytest.mark.parametrize("text, offset", [("n % 4 = 0", 6), ("n %", 3), ("n % 4.0 == 0", 4), ("f(n)", 1), ("", 0)])
def test_syntax_errors_carry_the_offset(text, offset):
    with pytest.raises(CExprError) as error:
        parse(text)
    assert error.value.offset == offset


def test_names_and_literals():
    assert parse("n % vec == 0 && m").names == {"n", "vec", "m"}
    assert [parse_int_literal(t) for t in ("256", "0x100", "1'024", "256u", "010", "1.5", "0b101")] == [
        256, 256, 1024, 256, 8, None, 5]
