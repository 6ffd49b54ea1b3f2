"""The cache of attrs-generated methods that shortens server start: classes defined through it
behave exactly as without it, whatever state the cache file is in."""

from __future__ import annotations

import linecache

import attrs
import pytest

from hiera_lsp.attrs_code_cache import cache_path, cached_compiles


def _define(fields: list[str]) -> type:
    """An attrs class named like one of lsprotocol's, as a new version of a library would define it."""
    return attrs.make_class("Position", {name: attrs.field() for name in fields})


def test_a_second_start_reuses_the_cache_and_classes_still_work(tmp_path):
    path = str(tmp_path / "attrs-code.marshal")
    with cached_compiles(path):
        first = _define(["line", "character"])
    written = (tmp_path / "attrs-code.marshal").read_bytes()
    with cached_compiles(path):
        second = _define(["line", "character"])
    assert (tmp_path / "attrs-code.marshal").read_bytes() == written  # nothing new had to be compiled
    assert second(line=1, character=2) == second(1, 2)
    assert repr(second(1, 2)) == repr(first(1, 2)) == "Position(line=1, character=2)"


def test_a_changed_class_gets_its_own_methods_not_the_cached_ones(tmp_path):
    path = str(tmp_path / "attrs-code.marshal")
    with cached_compiles(path):
        _define(["line", "character"])
    linecache.clearcache()  # as in a new process, where attrs names its scripts afresh
    with cached_compiles(path):  # same class name, one more field: an upgraded lsprotocol
        upgraded = _define(["line", "character", "offset"])
    assert repr(upgraded(1, 2, 3)) == "Position(line=1, character=2, offset=3)"
    with pytest.raises(TypeError):
        upgraded(1, 2)


@pytest.mark.parametrize("content", [b"", b"not marshal data", b"\xe3" * 64])
def test_a_damaged_cache_file_is_replaced_and_changes_nothing(tmp_path, content):
    cache = tmp_path / "attrs-code.marshal"
    cache.write_bytes(content)
    with cached_compiles(str(cache)):
        position = _define(["line", "character"])
    assert position(3, 4).character == 4
    assert cache.read_bytes() != content


def test_an_unwritable_cache_folder_only_means_compiling(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    with cached_compiles(str(blocker / "lsp" / "attrs-code.marshal")):
        position = _define(["line", "character"])
    assert position(5, 6) == position(line=5, character=6)


def test_the_cache_lives_under_hiera_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("HIERA_CACHE_DIR", str(tmp_path))
    assert cache_path().startswith(str(tmp_path / "lsp") + "/")
