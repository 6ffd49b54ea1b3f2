"""The .hiera store under concurrent writers, and workers that hang, crash or run out of memory."""

import multiprocessing
import os
import stat
import threading
import time

import pytest
from helpers.engine import SIMPLE_TASK, hiera, json_files_parse, workspace, write_task

from hiera_core.errors import HieraError
from hiera_core.index_entry import ProfileEntry, ProposalEntry
from hiera_core.store import Store, atomic_write_json, atomic_write_text, find_workspace_root, read_json
from hiera_core.worker.isolate import run_worker
from hiera_core.worker.requests import PrepareRequest


def _hammer(root: str, writer: int, count: int) -> None:
    """Writer 0 updates the entry's profile, writer 1 its proposal, `count` times each."""
    store = Store(root)
    for index in range(count):
        part = {"profile": ProfileEntry(latency_ms=index)} if writer == 0 else {"proposal": ProposalEntry(speedup=index)}
        store.update_index("task", **part)
        store.new_run("optimize").write_json("run.json", {"writer": writer, "index": index})


def _each_writers_last_update_is_kept(store: Store, count: int) -> None:
    entry = store.read_index("task")
    assert (entry.profile.latency_ms, entry.proposal.speedup) == (count - 1, count - 1)


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_hammer, args=(str(tmp_path), writer, 40)) for writer in range(2)]
    for process in writers:
        process.start()
    for process in writers:
        process.join(60)
        assert process.exitcode == 0
    store = Store(tmp_path)
    _each_writers_last_update_is_kept(store, 40)
    assert len(store.runs()) == 80
    json_files_parse(store.root)


def test_two_threads_writing_at_once_lose_nothing(tmp_path):
    # `hiera bench --gpus` runs tasks in threads of one process, sharing the suite's store.
    writers = [threading.Thread(target=_hammer, args=(str(tmp_path), writer, 40)) for writer in range(2)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(60)
    store = Store(tmp_path)
    _each_writers_last_update_is_kept(store, 40)
    assert len(store.runs()) == 80
    json_files_parse(store.root)


def test_an_update_waits_for_the_lock_and_keeps_what_was_written_meanwhile(tmp_path):
    store = Store(tmp_path)
    with store.lock():  # as another process writing the entry holds it
        writer = threading.Thread(target=store.update_index, args=("task",),
                                  kwargs={"profile": ProfileEntry(latency_ms=1.0)})
        writer.start()
        time.sleep(0.3)
        assert writer.is_alive()
        atomic_write_json(store.index_path("task"), {"proposal": {"speedup": 2.0}})
    writer.join(10)
    entry = store.read_index("task")
    assert (entry.profile.latency_ms, entry.proposal.speedup) == (1.0, 2.0)


def test_atomic_write_keeps_the_old_file_when_interrupted(tmp_path, monkeypatch):
    target = tmp_path / "record.json"
    atomic_write_json(target, {"version": 1})

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(OSError):
        atomic_write_json(target, {"version": 2})
    assert read_json(target) == {"version": 1}
    assert list(tmp_path.iterdir()) == [target]


def test_workspace_root_is_the_nearest_marked_folder(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_workspace_root(nested / "model.py") == tmp_path


def _prepare(path, timeout_s=60.0):
    return run_worker(PrepareRequest(address=str(path), device="cpu", measure=False), timeout_s=timeout_s,
                      doing="building the spec")


def test_hanging_forward_is_stopped_and_reported(tmp_path):
    path = write_task(workspace(tmp_path), "hang.py", SIMPLE_TASK.replace(
        "return torch.relu(x) * self.scale + 1.0", "while True:\n                pass"))
    started = time.monotonic()
    with pytest.raises(HieraError, match="did not finish within 8 s") as caught:
        _prepare(path, timeout_s=8)
    assert caught.value.kind == "timeout" and time.monotonic() - started < 30


def test_crashing_worker_is_reported_and_the_caller_lives(tmp_path):
    path = write_task(workspace(tmp_path), "crash.py", SIMPLE_TASK.replace(
        "return torch.relu(x) * self.scale + 1.0", "import os, signal\n            os.kill(os.getpid(), signal.SIGSEGV)"))
    with pytest.raises(HieraError, match="segmentation fault") as caught:
        _prepare(path)
    assert caught.value.kind == "crash"


def test_out_of_memory_is_a_clear_error(tmp_path):
    # A size that depends on a value (.item()): the meta-device estimate cannot see it, the real run allocates.
    path = write_task(workspace(tmp_path), "oom.py", SIMPLE_TASK.replace(
        "return torch.relu(x) * self.scale + 1.0",
        "return x + torch.empty(2**42 + int(x[0, 0].item() * 0), device=x.device).sum()"))
    with pytest.raises(HieraError, match="ran out of memory") as caught:
        _prepare(path)
    assert caught.value.kind == "oom" and caught.value.line == 11


def test_an_allocation_that_fails_in_the_engine_is_out_of_memory_not_an_internal_error(tmp_path, monkeypatch):
    """torch's CPU allocator raises a RuntimeError, not MemoryError: the worker's reply still says the
    step ran out of memory and how to fix it (a 41-task sweep's plans said "internal error")."""
    import json

    from hiera_core.worker import ops

    def allocates(request):
        raise RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
                           "memory: you tried to allocate 17449353216 bytes. Error code 12")

    monkeypatch.setitem(ops.OPS, "prepare", allocates)
    request, result = tmp_path / "request.json", tmp_path / "result.json"
    request.write_text(json.dumps(PrepareRequest(address="task.py", device="cpu").to_dict()))
    monkeypatch.setattr(ops, "die_with_parent", lambda: None)
    assert ops.main([str(request), str(result)]) == 0
    error = HieraError.from_dict(json.loads(result.read_text())["error"])
    assert error.kind == "oom" and "ran out of host memory during 'prepare'" in error.message
    assert "17449353216 bytes" in error.message and "shrink the task's inputs" in error.hint


def test_a_store_that_cannot_be_written_is_one_error_naming_it(tmp_path):
    folder = workspace(tmp_path)
    write_task(folder, "task.py", SIMPLE_TASK)
    (folder / ".hiera").write_text("not a folder")  # as unwritable as a read-only one, even for root
    run = hiera("spec", "task.py", "--device", "cpu", cwd=folder)
    # Before: a NotADirectoryError (or PermissionError) traceback.
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith(f"error: cannot write HIERA's store {folder / '.hiera'}: Not a directory")


def test_a_permission_error_in_the_store_names_it(tmp_path, monkeypatch):
    store = Store(tmp_path)

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(store.root / "runs"))

    monkeypatch.setattr("tempfile.mkstemp", refused)
    with pytest.raises(HieraError) as caught:
        store.new_run("optimize").write_json("run.json", {})
    assert caught.value.kind == "store"
    assert caught.value.message == f"cannot write HIERA's store {store.root}: Permission denied ({store.root / 'runs'})"


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_written_files_follow_the_umask(tmp_path, umask, mode):
    previous = os.umask(umask)
    try:
        run = Store(tmp_path).new_run("optimize")
        written = [run.write_json("run.json", {}), run.write_text("proposal.py", "x = 1\n")]
    finally:
        os.umask(previous)
    assert [stat.S_IMODE(path.stat().st_mode) for path in written] == [mode, mode]  # before: 0600 whatever the umask


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "model_hiera.py"
    target.write_text("old\n")
    target.chmod(0o755)
    atomic_write_text(target, "new\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o755 and target.read_text() == "new\n"


@pytest.mark.parametrize("message", ["expected x[batch, seq] layout", "closing tag [/x] in the message"])
def test_messages_print_literally(tmp_path, message):
    folder = workspace(tmp_path)
    write_task(folder, "task.py", SIMPLE_TASK.replace("return torch.relu(x) * self.scale + 1.0",
                                                      f"raise ValueError({message!r})"))
    run = hiera("spec", "task.py", "--device", "cpu", cwd=folder)
    # Before: "expected x layout" (rich ate the brackets), or a MarkupError traceback for [/x].
    assert run.returncode == 2 and "MarkupError" not in run.stderr, run.stderr
    assert message in run.stderr
