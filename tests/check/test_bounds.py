"""`hiera-lsp --check` is bounded: special files refused unread, size and time limits reported,
unreadable or unsupported paths reported with a failing exit status, stdin read with `-`."""

import multiprocessing
import os
import subprocess
import sys
import time

import pytest
from helpers.check import run_check

from hiera_lsp.check import workers

ERROR = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\nvoid run(float* x) { k<<<1, 2000>>>(x); }\n"
CLEAN = "__global__ void k(float* __restrict__ x) { x[threadIdx.x] = 0.0f; }\n"
HANG_GUARD = 60  # seconds: only so a regression fails instead of hanging the suite


def run(args, capsys):
    return run_check(args, capsys, "--no-cache")


def run_subprocess(args, cwd, stdin=None):
    return subprocess.run([sys.executable, "-m", "hiera_lsp", "--check", "--no-cache", *args], cwd=cwd,
                          input=stdin, capture_output=True, timeout=HANG_GUARD, check=False)



@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_like_a_source_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "x.cu")  # nobody ever writes to it: opening it to read would block forever
    (tmp_path / "good.cu").write_text(ERROR)
    result = run_subprocess(["x.cu", "good.cu"], tmp_path)
    out = result.stdout.decode()
    assert result.returncode == 1
    assert "x.cu:1:1: HC001 cannot read x.cu: it is a FIFO (named pipe), not a regular file" in out
    assert "good.cu:2:29: HC105" in out  # the other files are still checked


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_a_walked_directory_is_refused(tmp_path):
    (tmp_path / "src").mkdir()
    os.mkfifo(tmp_path / "src" / "pipe.cuh")
    result = run_subprocess(["src"], tmp_path)
    assert result.returncode == 1
    assert "src/pipe.cuh:1:1: HC001 cannot read src/pipe.cuh: it is a FIFO" in result.stdout.decode()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_symlink_to_dev_zero_is_refused_unread(tmp_path):
    (tmp_path / "zero.cu").symlink_to("/dev/zero")  # reading it would never end
    result = run_subprocess(["zero.cu"], tmp_path)
    assert result.returncode == 1
    assert result.stdout.decode().startswith(
        "zero.cu:1:1: HC001 cannot read zero.cu: it is a character device, not a regular file")


def test_a_file_over_the_size_limit_is_one_finding_naming_the_limit(workdir, capsys):
    (workdir / "big.cu").write_text(ERROR + "// padding\n" * 300_000)  # 3.1 MB (of 2**20 bytes)
    code, out, _ = run(["big.cu"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "big.cu:1:1: HC001 big.cu not checked: 3.1 MB is over the file size limit of 2.0 MB"
    assert "--max-file-size" in lines[1] and "exclude" in lines[1]
    assert not any("HC105" in line for line in lines)


def test_the_size_limit_can_be_raised_or_removed(workdir, capsys):
    (workdir / "big.cu").write_text(ERROR + "// padding\n" * 300_000)
    for limit in ("4MB", "0"):
        code, out, _ = run(["big.cu", "--max-file-size", limit], capsys)
        assert code == 1 and out.startswith("big.cu:2:29: HC105"), limit
    code, out, _ = run(["big.cu", "--max-file-size", "100KB"], capsys)
    assert out.startswith("big.cu:1:1: HC001 big.cu not checked: 3.1 MB is over the file size limit of 100.0 KB")


def test_a_bad_size_is_a_usage_error(workdir, capsys):
    (workdir / "k.cu").write_text(CLEAN)
    code, _, err = run(["k.cu", "--max-file-size", "lots"], capsys)
    assert code == 2 and "--max-file-size: 'lots' is not a size like 500KB" in err


def hang_forever(path, text=None, config=None):
    time.sleep(HANG_GUARD)  # "forever" for the test: were the limit not enforced, no HC001 would come


def test_an_analysis_past_the_time_limit_is_stopped_and_reported(workdir, capsys, monkeypatch):
    (workdir / "slow.cu").write_text(ERROR)
    monkeypatch.setattr(workers, "analyze_file", hang_forever)  # workers are forked: they inherit it
    code, out, _ = run(["slow.cu", "--time-limit", "0.5"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "slow.cu:1:1: HC001 slow.cu not checked: its analysis passed the time limit of 0.5 s"
    assert "--time-limit" in lines[1] and "exclude" in lines[1]
    assert multiprocessing.active_children() == []  # the stuck worker was killed, not left behind


def test_other_files_are_checked_when_one_passes_the_time_limit(workdir, capsys, monkeypatch):
    real = workers.analyze_file
    for index in range(9):
        (workdir / f"k{index}.cu").write_text(ERROR)

    def slow_on_k4(path, text=None, config=None):
        if path == "k4.cu":
            time.sleep(HANG_GUARD)
        return real(path, text, config)

    monkeypatch.setattr(workers, "analyze_file", slow_on_k4)
    code, out, _ = run([f"k{index}.cu" for index in range(9)] + ["--time-limit", "1"], capsys)
    assert code == 1
    reported = sorted(line.split(":")[0] for line in out.splitlines() if "HC105" in line)
    assert reported == [f"k{index}.cu" for index in range(9) if index != 4]
    assert "k4.cu:1:1: HC001 k4.cu not checked: its analysis passed the time limit of 1 s" in out


def test_a_worker_that_dies_is_an_internal_error_for_its_file_only(workdir, capsys, monkeypatch):
    real = workers.analyze_file
    (workdir / "a.cu").write_text(ERROR)
    (workdir / "b.cu").write_text(ERROR)

    def crash_on_a(path, text=None, config=None):
        if path == "a.cu":
            os._exit(9)  # as a segfault in C code would
        return real(path, text, config)

    monkeypatch.setattr(workers, "analyze_file", crash_on_a)
    code, out, err = run(["a.cu", "b.cu"], capsys)
    assert code == 2
    assert err == "a.cu: internal error: the analysis process exited with status 9\n"
    assert out.startswith("b.cu:2:29: HC105")


def test_an_unreadable_directory_is_reported_not_skipped(workdir, capsys, monkeypatch):
    (workdir / "src" / "locked").mkdir(parents=True)
    (workdir / "src" / "locked" / "k.cu").write_text(ERROR)
    (workdir / "src" / "k.cu").write_text(CLEAN)
    locked = os.path.join("src", "locked")
    real_scandir = os.scandir

    def scandir(path="."):  # as for a directory without read permission (tests may run as root)
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, _ = run(["src"], capsys)
    assert code == 1
    assert "src/locked:1:1: HC001 cannot read directory src/locked: Permission denied" in out
    assert out.splitlines()[-1] == "2 files checked: 1 error, 0 warnings, 0 infos"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any directory")
def test_a_directory_without_read_permission_is_reported(workdir, capsys):
    (workdir / "locked").mkdir()
    (workdir / "locked" / "k.cu").write_text(ERROR)
    os.chmod(workdir / "locked", 0)
    try:
        code, out, _ = run(["."], capsys)
    finally:
        os.chmod(workdir / "locked", 0o755)
    assert code == 1 and "HC001 cannot read directory ./locked: Permission denied" in out


def test_a_named_file_that_is_not_a_source_is_an_error_and_the_rest_is_checked(workdir, capsys):
    (workdir / "notes.txt").write_text("hello\n")
    (workdir / "k.cu").write_text(CLEAN)
    code, out, err = run(["notes.txt", "k.cu"], capsys)
    assert code == 2
    assert err.startswith("hiera-lsp --check: notes.txt: not checked: not a .py, .cu or .cuh file")
    assert out == "1 file checked: 0 errors, 0 warnings, 0 infos\n"


def test_a_missing_path_is_reported_whatever_its_name(workdir, capsys):
    code, out, _ = run(["gone", "gone.cu"], capsys)
    assert code == 1
    assert "gone:1:1: HC001 cannot read gone: No such file or directory" in out
    assert "gone.cu:1:1: HC001 cannot read gone.cu: No such file or directory" in out


def test_stdin_is_checked_under_the_stdin_filename(tmp_path):
    result = run_subprocess(["-", "--stdin-filename", "kernels/add.cu"], tmp_path, ERROR.encode())
    assert result.returncode == 1
    assert result.stdout.decode().startswith("kernels/add.cu:2:29: HC105")
    assert result.stdout.decode().splitlines()[-1] == "1 file checked: 1 error, 0 warnings, 0 infos"


def test_stdin_filename_alone_reads_stdin(tmp_path):
    result = run_subprocess(["--stdin-filename", "add.cu"], tmp_path, CLEAN.encode())
    assert result.returncode == 0 and result.stdout.decode() == "1 file checked: 0 errors, 0 warnings, 0 infos\n"


def test_stdin_over_the_size_limit_is_reported(tmp_path):
    result = run_subprocess(["-", "--stdin-filename", "add.cu", "--max-file-size", "1KB"], tmp_path,
                            ERROR.encode() * 100)
    assert result.returncode == 1
    assert result.stdout.decode().startswith("add.cu:1:1: HC001 add.cu not checked:")


@pytest.mark.parametrize("args, message", [
    (["-"], "- reads the source from stdin: name it with --stdin-filename NAME.cu"),
    (["-", "--stdin-filename", "notes.txt"], "--stdin-filename 'notes.txt' must end in .py, .cu, .cuh"),
    (["k.cu", "--time-limit", "-1"], "--time-limit must be a number of seconds"),
])
def test_stdin_and_limit_usage_errors(workdir, capsys, args, message):
    (workdir / "k.cu").write_text(CLEAN)
    code, _, err = run(args, capsys)
    assert code == 2 and message in err


INTERRUPTED_RUN = """
import multiprocessing, os, signal, sys, threading, time
from hiera_lsp.check import workers
from hiera_lsp.cli import main

def hang(path, text=None, config=None):
    time.sleep(60)

workers.analyze_file = hang  # inherited by the forked workers
threading.Timer(1.0, os.kill, (os.getpid(), getattr(signal, sys.argv[1]))).start()
code = main(["--check", "--no-cache", "a.cu", "b.cu"])
print(code, len(multiprocessing.active_children()))
"""


@pytest.mark.parametrize("signal_name, status, message", [("SIGINT", 130, "interrupted"),
                                                          ("SIGTERM", 143, "terminated")])
def test_an_interrupted_run_stops_its_workers(tmp_path, signal_name, status, message):
    (tmp_path / "a.cu").write_text(ERROR)
    (tmp_path / "b.cu").write_text(ERROR)
    result = subprocess.run([sys.executable, "-c", INTERRUPTED_RUN, signal_name], cwd=tmp_path,
                            capture_output=True, text=True, timeout=HANG_GUARD, check=False)
    assert result.stdout.split() == [str(status), "0"], result.stderr
    assert result.stderr == f"hiera-lsp --check: {message}\n"
