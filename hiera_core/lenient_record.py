"""Records that one version of HIERA writes and another may read: the store's index entry
(hiera_core.index_entry), which every HIERA run in a workspace updates and the editor reads, and a
command's result (hiera_core.loop.run_result), which the language server reads from whatever `hiera`
its settings name.

Unlike the worker's records (hiera_core.worker.requests, whose `from_dict` refuses a key it does not
know: both ends are one version), these read leniently: a field that is missing, or whose value is
not of the field's type, reads as its default; a key the record does not have (a newer version's)
is ignored; data that is not a JSON object reads as the empty record. So the editor never fails on
a file written by another version, or half by hand. Pure: no torch.
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import Field, fields, is_dataclass
from typing import Any, Self

_WRONG = object()  # a value that is not of the field's type
_type_hints = functools.cache(typing.get_type_hints)  # a record type's fields' types, read once


def _read(kind: Any, value: Any) -> Any:
    """`value` read as a field of type `kind` (nested records by their own from_dict), or _WRONG."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        for option in typing.get_args(kind):
            read = _read(option, value)
            if read is not _WRONG:
                return read
        return _WRONG
    if kind is type(None):
        return None if value is None else _WRONG
    if is_dataclass(kind):
        return kind.from_dict(value) if isinstance(value, dict) else _WRONG
    if origin is list or kind is list:
        if not isinstance(value, list):
            return _WRONG
        [item_kind] = typing.get_args(kind) or [Any]
        items = [_read(item_kind, item) for item in value]
        return [item for item in items if item is not _WRONG]  # an entry of another type is left out
    if origin is dict or kind is dict:
        return value if isinstance(value, dict) else _WRONG
    if kind is Any:
        return value
    if isinstance(value, bool):  # JSON's true is no number
        return value if kind is bool else _WRONG
    if kind is float:
        return value if isinstance(value, (int, float)) else _WRONG
    return value if kind in (str, int, bool) and isinstance(value, kind) else _WRONG


class LenientRecord:
    """A dataclass read leniently (see the module); every field has a default. A field's JSON key is
    its name, or its metadata's "key" (`class` is no Python name)."""

    @classmethod
    def from_dict(cls, data: object) -> Self:
        if not isinstance(data, dict):
            return cls()
        hints = _type_hints(cls)
        values = {}
        for item in fields(cls):
            key = _key(item)
            if key in data and (read := _read(hints[item.name], data[key])) is not _WRONG:
                values[item.name] = read
        return cls(**values)

    def to_dict(self) -> dict:
        return {_key(item): _plain(getattr(self, item.name)) for item in fields(self)}

    @classmethod
    def json_key(cls, name: str) -> str:
        """The JSON key of the field `name`."""
        return next(_key(item) for item in fields(cls) if item.name == name)


def _key(item: Field) -> str:
    return item.metadata.get("key", item.name)


def _plain(value: Any) -> Any:
    if isinstance(value, LenientRecord):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
