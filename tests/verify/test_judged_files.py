"""The judge's snapshot of the files every later verdict reads: the reference and HIERA's package.
A candidate that writes one is rejected (the corpus hack reference_file_slowed shows it end to end)."""

from __future__ import annotations

from hiera_core.verify import judged_files


def test_a_changed_added_or_removed_file_is_found_and_an_untouched_tree_is_not(tmp_path, monkeypatch):
    package = tmp_path / "hiera_core"
    (package / "verify").mkdir(parents=True)
    (package / "verify" / "judge.py").write_text("PASS = False\n")
    (package / "errors.py").write_text("X = 1\n")
    reference = tmp_path / "model.py"
    reference.write_text("def forward(x):\n    return x\n")
    monkeypatch.setattr(judged_files, "PACKAGE", package)
    before = judged_files.snapshot(reference)
    assert judged_files.changed(before) == []
    (package / "verify" / "judge.py").write_text("PASS = True\n")  # the judge edited
    (package / "sitecustomize.py").write_text("")  # a module added beside it
    reference.write_text("def forward(x):\n    __import__('time').sleep(1)\n    return x\n")
    (package / "errors.py").unlink()
    assert judged_files.changed(before) == sorted(str(p.resolve()) for p in (
        reference, package / "errors.py", package / "sitecustomize.py", package / "verify" / "judge.py"))


def test_the_real_snapshot_holds_the_reference_and_the_judge(tmp_path):
    reference = tmp_path / "model.py"
    reference.write_text("")
    files = judged_files.snapshot(reference)
    assert next(iter(files)) == str(reference.resolve())
    assert any(path.endswith("hiera_core/verify/judge.py") for path in files)


def test_the_local_modules_a_reference_imports_are_judged_and_installed_ones_are_not(tmp_path, monkeypatch):
    """A reference that imports its project's blocks (`from blocks import Block`): a candidate that
    slows blocks.py slows the reference as surely as one that writes the reference's own file."""
    (tmp_path / "hiera_blocks_for_test.py").write_text("SCALE = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import hiera_blocks_for_test  # noqa: F401
    import torch

    local = judged_files.local_sources()
    assert (tmp_path / "hiera_blocks_for_test.py").resolve() in local
    assert not any(str(path).startswith(str(judged_files.PACKAGE)) for path in local)
    assert all(not str(path).endswith("torch/nn/modules/linear.py") for path in local), torch.__file__
