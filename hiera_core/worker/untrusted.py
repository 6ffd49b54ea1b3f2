"""Reading values out of a JSON message from a process that runs candidate code (the runner,
hiera_core.worker.messages): a reader takes a value and what it is (for the error) and returns the
value checked, or raises BadMessage. Nothing is coerced: "3" is not a count, nor is true.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from hiera_core.worker.channel import BadMessage

Reader = Callable[[object, str], Any]


def shown(value: object) -> str:
    """A value for an error, cut short: it is the sender's, and may be anything."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def exact_object(data: object, names: set[str], what: str) -> dict:
    """`data` as an object with exactly the keys `names`."""
    if not isinstance(data, dict):
        raise BadMessage(f"{what} is {shown(data)}, not an object")
    missing, unknown = sorted(names - set(data)), sorted(map(str, set(data) - names))
    if missing or unknown:
        raise BadMessage(f"{what} " + "; ".join(([f"lacks {', '.join(missing)}"] if missing else [])
                                                + ([f"has unknown {', '.join(unknown)}"] if unknown else [])))
    return data


def read_fields(data: object, readers: dict[str, Reader], what: str) -> dict:
    """An object with exactly the keys of `readers`, each value read by its reader."""
    data = exact_object(data, set(readers), what)
    return {name: read(data[name], f"{what}'s {name}") for name, read in readers.items()}


def some_fields(readers: dict[str, Reader]) -> Reader:
    """The reader of an object with some of the keys of `readers`, each value read by its reader."""
    def read_some(value: object, what: str) -> dict:
        if not isinstance(value, dict):
            raise BadMessage(f"{what} is {shown(value)}, not an object")
        unknown = sorted(map(str, set(value) - set(readers)))
        if unknown:
            raise BadMessage(f"{what} has unknown {', '.join(unknown)}")
        return {name: readers[name](item, f"{what}'s {name}") for name, item in value.items()}
    return read_some


def text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise BadMessage(f"{what} is {shown(value)}, not a string")
    return value


def flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadMessage(f"{what} is {shown(value)}, not true or false")
    return value


def count(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadMessage(f"{what} is {shown(value)}, not a count")
    return value


def number(value: object, what: str) -> float:
    """A finite number."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise BadMessage(f"{what} is {shown(value)}, not a finite number")
    return float(value)


def duration(value: object, what: str) -> float:
    """A time a clock measured: a finite number, not negative."""
    if number(value, what) < 0:
        raise BadMessage(f"{what} is {shown(value)}, a negative time")
    return float(value)


def list_of(read: Reader) -> Reader:
    def read_list(value: object, what: str) -> list:
        if not isinstance(value, list):
            raise BadMessage(f"{what} is {shown(value)}, not a list")
        return [read(item, f"an entry of {what}") for item in value]
    return read_list


def optional(read: Reader) -> Reader:
    """`read`, or None for null."""
    return lambda value, what: None if value is None else read(value, what)


def counts_by_name(value: object, what: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise BadMessage(f"{what} is {shown(value)}, not an object")
    return {text(name, f"a name in {what}"): count(number, f"{what}'s {shown(name)}") for name, number in value.items()}
