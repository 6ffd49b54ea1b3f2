"""`hiera-lsp --check [PATHS...]`: the editor's diagnostics, headless, for pre-commit and CI.

Exit status: 0 clean, 1 when a finding reaches --fail-on, 2 on a usage or internal error.
Never imports torch (or pygls); the analysers (tree-sitter) only when a file is not in the cache.

Each file is read here, bounded (regular files only, --max-file-size), looked up in the content-hash
cache, and otherwise analysed in a worker process: one per core when there are enough files to pay
for them, and killed when a file's analysis passes --time-limit, so a pathological file cannot
hold up the run. See docs/check.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from dataclasses import dataclass

from hiera_core.analysis import (
    EXTENSIONS,
    MAX_FILE_SIZE,
    RULES,
    SEVERITIES,
    CheckConfig,
    ConfigError,
    Finding,
    UnreadableFile,
    analyze_file,
    apply_config,
    char_column,
    line_starts,
    load_config,
    read_source,
    severity_rank,
    size_limit_message,
    unreadable,
)
from hiera_core.analysis.config import validate_arch, validate_codes

FORMATS = ("text", "json", "sarif", "github")
SKIPPED_DIRS = {"node_modules", "__pycache__", "build", "dist"}  # besides hidden directories
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}
TIME_LIMIT = 10.0  # seconds of analysis per file (--time-limit)
FILES_PER_WORKER = 4  # a worker process pays for itself from about this many files to analyse
STDIN = "-"
# the files whose changes may change a CUDA file's findings (a rule may read a header or binding file)
C_FAMILY = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".inl")
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*$", re.IGNORECASE)


class UsageError(Exception):
    pass


@dataclass
class Failure:
    """A file that could not be analysed (path None: the whole run, e.g. a parser is not installed)."""

    path: str | None
    message: str


def _parser() -> argparse.ArgumentParser:
    from hiera_core import __version__

    parser = argparse.ArgumentParser(
        prog="hiera-lsp --check",
        description="Check CUDA sources and HIERA contracts (.py, .cu, .cuh) without an editor or a GPU.",
        epilog="Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or internal error. "
               "Suppress with `// hiera: ignore[CODE]` (docs/check.md).")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files, directories or globs; - reads stdin (default: the git-tracked "
                             ".py/.cu/.cuh files here)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--fail-on", choices=SEVERITIES, default=None,
                        help="lowest severity that fails the run (default: [tool.hiera.check] fail-on, else warning)")
    parser.add_argument("--select", default=None, metavar="CODES",
                        help="comma-separated codes or prefixes to run (replaces the configured select)")
    parser.add_argument("--ignore", default=None, metavar="CODES",
                        help="comma-separated codes or prefixes to skip (added to the configured ignore)")
    parser.add_argument("--arch", default=None, metavar="SM",
                        help="target architecture for the arch-dependent rules, e.g. sm_80 "
                             "(default: [tool.hiera.check] arch)")
    parser.add_argument("--statistics", action="store_true",
                        help="print the number of findings per rule instead of the findings")
    parser.add_argument("--stdin-filename", default=None, metavar="NAME",
                        help="the name of the source read from stdin (-): its extension picks the language")
    parser.add_argument("--max-file-size", default=None, metavar="SIZE",
                        help=f"larger files are reported unread, e.g. 500KB, 8MB; 0: no limit "
                             f"(default: {MAX_FILE_SIZE // 2**20}MB)")
    parser.add_argument("--time-limit", default=TIME_LIMIT, type=float, metavar="SECONDS",
                        help=f"stop analysing a file after this long and report it; 0: no limit "
                             f"(default: {TIME_LIMIT:g})")
    parser.add_argument("--jobs", "-j", default=None, type=int, metavar="N",
                        help="worker processes at most (default: the number of cores)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the results cache")
    parser.add_argument("--cache-dir", default=None, metavar="DIR",
                        help="where results are cached (default: .hiera/check-cache in the workspace root)")
    parser.add_argument("--version", action="version", version=f"hiera-lsp {__version__}")
    return parser


def main(args: list[str]) -> int:
    parser = _parser()
    try:
        options = parser.parse_args(args)
    except SystemExit as exit_:  # argparse printed the usage error (or --help, --version)
        return 0 if exit_.code == 0 else 2
    try:
        config = _config(options)
        max_bytes = _size(options.max_file_size)
        _check_options(options)
        targets, early, errors = _collect(options.paths, options.stdin_filename)
    except (UsageError, ConfigError) as error:
        print(f"hiera-lsp --check: {error}", file=sys.stderr)
        return 2
    for error in errors:
        print(f"hiera-lsp --check: {error}", file=sys.stderr)
    try:
        with _terminate_as_interrupt():
            checked, findings, sources, failures = _check(targets, config, max_bytes, options)
    except Interrupted as interruption:  # the workers are gone already (Workers.close)
        print(f"hiera-lsp --check: {interruption.what}", file=sys.stderr)
        return interruption.status
    except KeyboardInterrupt:
        print("hiera-lsp --check: interrupted", file=sys.stderr)
        return 130
    findings = apply_config(early, b"", config) + findings  # --ignore HC001 applies to them too
    try:
        _write(options.format, findings, checked + len(early), sources, failures, options.statistics)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly, as other CLI tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if failures or errors:
        return 2
    fail_rank = severity_rank(options.fail_on or config.fail_on)
    return 1 if any(severity_rank(item.severity) >= fail_rank for item in findings) else 0


class Interrupted(KeyboardInterrupt):
    """SIGTERM, raised where the run is so the workers are stopped on the way out (as Ctrl-C is)."""

    what, status = "terminated", 143


@contextlib.contextmanager
def _terminate_as_interrupt():
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread
        return

    def on_terminate(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGTERM, on_terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _codes(value: str | None, what: str) -> list[str]:
    codes = [code.strip() for code in (value or "").split(",") if code.strip()]
    try:
        return validate_codes(codes, what)
    except ConfigError as error:
        raise UsageError(str(error)) from error


def _config(options: argparse.Namespace) -> CheckConfig:
    config = load_config(os.getcwd())
    if options.select is not None:
        config.select = _codes(options.select, "--select")
    config.ignore = config.ignore + _codes(options.ignore, "--ignore")
    if options.arch is not None:
        config.arch = validate_arch(options.arch, "--arch")
    return config


def _size(value: str | None) -> int | None:
    """--max-file-size in bytes (None: no limit); units are powers of 1024 (1MB = 2**20 bytes)."""
    if value is None:
        return MAX_FILE_SIZE
    match = _SIZE_RE.match(value)
    if not match:
        raise UsageError(f"--max-file-size: '{value}' is not a size like 500KB, 2MB or 2097152 (bytes)")
    unit = (match.group(2) or "b").lower()[0]
    size = int(float(match.group(1)) * {"b": 1, "k": 2**10, "m": 2**20, "g": 2**30}[unit])
    return size or None


def _check_options(options: argparse.Namespace) -> None:
    if options.time_limit < 0:
        raise UsageError("--time-limit must be a number of seconds, or 0 for no limit")
    if options.jobs is not None and options.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if options.statistics and options.format not in ("text", "json"):
        raise UsageError("--statistics prints text or json: drop --format, or use --format json")
    if options.stdin_filename is not None and not options.stdin_filename.endswith(EXTENSIONS):
        raise UsageError(f"--stdin-filename '{options.stdin_filename}' must end in "
                         f"{', '.join(EXTENSIONS)}: its extension picks the language")


# -- which files ---------------------------------------------------------------------------------
def _collect(arguments: list[str], stdin_filename: str | None) -> tuple[list[str], list[Finding], list[str]]:
    """The files to check, in order, without duplicates (STDIN for the standard input); HC001
    findings for what was named but cannot be read (missing paths, unreadable directories); and
    errors for paths named that are not source files."""
    if stdin_filename is not None and not arguments:
        arguments = [STDIN]
    if not arguments:
        return _git_files(), [], []
    paths: list[str] = []
    unreadable_paths: list[Finding] = []
    errors: list[str] = []
    for argument in arguments:
        if argument == STDIN:
            if stdin_filename is None:
                raise UsageError("- reads the source from stdin: name it with --stdin-filename NAME.cu "
                                 "(or .cuh, .py), whose extension picks the language")
            paths.append(STDIN)
        elif os.path.lexists(argument):
            # a directory is walked, unless it is named like a source file: asked to check
            # `x.cu`, report that `x.cu` cannot be read rather than silently checking nothing
            if os.path.isdir(argument) and not argument.endswith(EXTENSIONS):
                paths.extend(_walk(argument, unreadable_paths))
            elif argument.endswith(EXTENSIONS):
                paths.append(argument)
            else:
                errors.append(f"{argument}: not checked: not a .py, .cu or .cuh file (hint: name the "
                              f"sources, or pipe it as `- --stdin-filename NAME.cu`)")
        elif _has_magic(argument):
            import glob

            matches = sorted(glob.glob(argument, recursive=True))
            if not matches:
                raise UsageError(f"no file matches '{argument}'")
            for match in matches:  # a glob selects: what it matches besides sources is not an error
                if os.path.isdir(match) and not match.endswith(EXTENSIONS):
                    paths.extend(_walk(match, unreadable_paths))
                elif match.endswith(EXTENSIONS):
                    paths.append(match)
        else:
            unreadable_paths.append(unreadable(argument, f"cannot read {argument}: {os.strerror(2)}"))
    seen: set[str] = set()
    unique = [path for path in paths if not (os.path.normpath(path) in seen or seen.add(os.path.normpath(path)))]
    return unique, unreadable_paths, errors


def _has_magic(argument: str) -> bool:
    return any(char in argument for char in "*?[")


def _walk(directory: str, unreadable_paths: list[Finding]) -> list[str]:
    def report(error: OSError) -> None:
        name = error.filename or directory
        unreadable_paths.append(unreadable(name, f"cannot read directory {name}: {error.strerror or error}",
                                           "its files were not checked: fix its permissions, or leave it out"))

    found = []
    for root, dirs, files in os.walk(directory, onerror=report):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        found.extend(os.path.join(root, name) for name in sorted(files) if name.endswith(EXTENSIONS))
    return found


def _git_files() -> list[str]:
    import subprocess

    try:
        result = subprocess.run(["git", "ls-files", "-z", "--", *(f"*{ext}" for ext in EXTENSIONS)],
                                capture_output=True, check=False)
    except OSError as error:
        raise UsageError(f"no paths given and git is not available ({error})") from error
    if result.returncode != 0:
        raise UsageError("no paths given and this is not a git repository: name the files to check")
    return [path for path in result.stdout.decode("utf-8", "surrogateescape").split("\0") if path]


# -- checking ------------------------------------------------------------------------------------
def _check(targets: list[str], config: CheckConfig, max_bytes: int | None, options: argparse.Namespace
           ) -> tuple[int, list[Finding], dict[str, bytes], list[Failure]]:
    """Files checked, their findings, the sources of files with findings (for character columns),
    and the files that could not be analysed."""
    cache = None if options.no_cache else ResultsCache.open(options.cache_dir, config)
    findings: list[Finding] = []
    sources: dict[str, bytes] = {}
    failures: list[Failure] = []
    to_analyse: list[tuple[str, bytes, str | None]] = []  # path, source, cache key
    checked = 0
    for path in targets:
        name = options.stdin_filename if path == STDIN else path
        if config.excludes(name):
            continue
        checked += 1
        try:
            source = _read_stdin(name, max_bytes) if path == STDIN else read_source(path, max_bytes)
        except UnreadableFile as error:
            findings.extend(apply_config([unreadable(name, str(error), error.hint)], b"", config))
            continue
        key = cache.key(name, source) if cache else None
        cached = cache.get(key) if key else None
        if cached is None:
            to_analyse.append((name, source, key))
            continue
        findings.extend(cached)
        if cached:
            sources[name] = source
    if to_analyse:
        workers = _worker_count(len(to_analyse), options.jobs)
        for (name, source, key), outcome in zip(to_analyse, _analyse(to_analyse, config, workers,
                                                                      options.time_limit), strict=True):
            kind, payload = outcome
            if kind == "ok":
                findings.extend(payload)
                if payload:
                    sources[name] = source
                if key:
                    cache.put(key, payload)
            elif kind == "timeout":
                findings.extend(apply_config([unreadable(
                    name, f"{name} not checked: its analysis passed the time limit of {options.time_limit:g} s",
                    "raise the limit with --time-limit SECONDS (0 for none), or exclude the file "
                    "([tool.hiera.check] exclude)")], b"", config))
            elif kind == "import":
                # A parser missing from this interpreter fails every file alike: one error, not one per
                # file, and no count of findings that reads as a clean result.
                failure = Failure(None, f"cannot analyse {name}: {payload} (in {sys.executable}); "
                                        f"hint: pip install hiera, which installs the tree-sitter parsers")
                print(f"hiera-lsp --check: {failure.message}", file=sys.stderr)
                return 0, [], {}, [failure]
            else:  # a bug in a rule, or a worker that died, must not hide the other files' results
                failures.append(Failure(name, payload))
                print(f"{name}: {payload}", file=sys.stderr)
    return checked, findings, sources, failures


def _read_stdin(name: str, max_bytes: int | None) -> bytes:
    data = sys.stdin.buffer.read(max_bytes + 1) if max_bytes is not None else sys.stdin.buffer.read()
    if max_bytes is not None and len(data) > max_bytes:
        raise UnreadableFile(*size_limit_message(name, len(data), max_bytes))
    return data


def _worker_count(files: int, jobs: int | None) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(jobs or cores, -(-files // FILES_PER_WORKER)))


def _analyse(jobs: list[tuple[str, bytes, str | None]], config: CheckConfig, workers: int, time_limit: float):
    """("ok", findings) | ("timeout", None) | ("import", message) | ("error", message) per job, in order."""
    outcomes: list = [None] * len(jobs)
    try:
        pool = Workers(workers, config, time_limit or None, any(path.endswith(".py") for path, _, _ in jobs))
    except ImportError as error:  # the analysers are imported before the workers fork
        return [("import", str(error))] * len(jobs)
    with pool:
        for index, outcome in pool.run([(path, source) for path, source, _ in jobs]):
            outcomes[index] = outcome
            if outcome[0] == "import":
                return [outcome] * len(jobs)  # the caller stops at the first
    return outcomes


def analyse_one(path: str, source: bytes, config: CheckConfig) -> tuple[str, object]:
    """One job, in a worker process: its outcome as `_analyse` gives it."""
    try:
        return "ok", analyze_file(path, source, config)
    except ImportError as error:
        return "import", str(error)
    except Exception as error:  # noqa: BLE001 - reported per file; the others are still checked
        if os.environ.get("HIERA_DEBUG"):
            import traceback

            traceback.print_exc()
        return "error", f"internal error: {type(error).__name__}: {error}"


class Workers:
    """Worker processes that analyse one file at a time each; a file's analysis past the time limit
    kills its worker (a new one takes the next file), so the limit holds whatever the analysis does,
    C code included. Forked after the analysers are imported (where fork exists), so a worker
    starts in milliseconds."""

    def __init__(self, size: int, config: CheckConfig, time_limit: float | None, python: bool) -> None:
        import multiprocessing

        from hiera_core.analysis import load_analyzers

        methods = multiprocessing.get_all_start_methods()
        if "fork" in methods and sys.platform.startswith("linux"):
            import ctypes  # noqa: F401 - for _die_with_parent, inherited
            import gc

            load_analyzers(python)  # inherited by every fork
            gc.freeze()  # what is loaded now lives on: the workers' collections need not scan it
            self._frozen = True
            self._context = multiprocessing.get_context("fork")
        else:
            self._frozen = False
            self._context = multiprocessing.get_context("spawn")
        self._size, self._config, self._time_limit = size, config, time_limit
        self._idle: list = []  # (process, connection)
        self._busy: dict = {}  # connection -> (process, job index, start time)

    def __enter__(self) -> Workers:  # noqa: PYI034 - final in practice
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run(self, jobs: list[tuple[str, bytes]]):
        """(job index, outcome) for every job, in the order they finish."""
        import time
        from multiprocessing.connection import wait

        pending = list(reversed(range(len(jobs))))
        while pending or self._busy:
            while pending and (self._idle or len(self._busy) < self._size):
                reused = bool(self._idle)
                process, connection = self._idle.pop() if reused else self._start()
                try:
                    connection.send(jobs[pending[-1]])
                except OSError:  # it died while idle (e.g. killed for memory): the job goes to another
                    self._stop(process, connection)
                    if not reused:  # a new one that dies at once would again: report, do not loop
                        yield pending.pop(), ("error", "internal error: the analysis process died at start")
                    continue
                self._busy[connection] = (process, pending.pop(), time.monotonic())
            timeout = None
            if self._time_limit is not None:
                first_deadline = min(start for _, _, start in self._busy.values()) + self._time_limit
                timeout = max(0.0, first_deadline - time.monotonic())
            for connection in wait(list(self._busy), timeout):
                process, index, _ = self._busy.pop(connection)
                try:
                    outcome = connection.recv()
                except (EOFError, OSError):  # the worker died: a crash in C code, or killed for memory
                    process.join()
                    connection.close()
                    status = process.exitcode
                    yield index, ("error", f"internal error: the analysis process exited with status {status}")
                    continue
                self._idle.append((process, connection))
                yield index, outcome
            if self._time_limit is not None:
                now = time.monotonic()
                for connection, (process, index, start) in list(self._busy.items()):
                    if now - start >= self._time_limit:
                        del self._busy[connection]
                        self._stop(process, connection)
                        yield index, ("timeout", None)

    def _start(self):
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child_end, self._config, os.getpid()), daemon=True)
        process.start()
        child_end.close()
        return process, parent_end

    def _stop(self, process, connection) -> None:
        process.kill()
        process.join()
        connection.close()

    def close(self) -> None:
        for process, connection in self._idle:
            try:
                connection.send(None)  # finish: exits at once, as it waits for the next job
            except OSError:
                pass
        for process, connection in self._idle:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
            connection.close()
        for connection, (process, _, _) in self._busy.items():  # interrupted: nothing left running
            self._stop(process, connection)
        self._idle, self._busy = [], {}
        if self._frozen:  # a caller that lives on (tests) gets its collector back
            import gc

            gc.unfreeze()
            self._frozen = False


def _serve(connection, config: CheckConfig, parent: int) -> None:
    """A worker's loop: (path, source) in, outcome out, until None or the parent is gone."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    if os.getppid() != parent:  # it died before we could ask
        return
    try:
        while (job := connection.recv()) is not None:
            connection.send(analyse_one(*job, config))
    except (EOFError, OSError):  # the parent closed its end: nothing to answer to
        return


def _die_with_parent() -> None:
    """On Linux, a worker is killed when the parent dies, however it dies (even SIGKILL), so no
    analysis outlives the command."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class ResultsCache:
    """Findings by content: one JSON file per (file content, path, neighbours, hiera code, config).

    Like ruff's cache, keyed by what determines the result: the file's bytes and name; for CUDA, the
    names, sizes and times of the C/C++/CUDA files next to it (rules may read a sibling header or
    binding file); the
    hiera version and the analysis code itself (an editable install changes without a new version);
    and the whole configuration (select, ignore, severities, exclude, arch). Proposals, whose findings
    depend on a reference file elsewhere, are not cached. Reads and writes never fail the run.
    """

    GITIGNORE = "# created by hiera-lsp --check\n*\n"

    def __init__(self, directory: str, fingerprint: str) -> None:
        self.directory = directory
        self._fingerprint = fingerprint
        self._neighbours: dict[str, list] = {}
        self._writable = True
        self._created = False

    @classmethod
    def open(cls, directory: str | None, config: CheckConfig) -> ResultsCache:
        import json

        from hiera_core import __version__

        config_state = json.dumps(vars(config), sort_keys=True, default=str)  # every field, arch included
        fingerprint = json.dumps([__version__, _analysis_code_stamp(), config_state])
        return cls(directory or os.path.join(_workspace_root(), ".hiera", "check-cache"), fingerprint)

    def key(self, path: str, source: bytes) -> str | None:
        import hashlib

        if path.endswith(".py") and b"hiera-proposal:" in source:
            return None
        digest = hashlib.sha256(source)
        for part in (path, self._neighbours_of(path), self._fingerprint):
            digest.update(b"\0" + part.encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    def get(self, key: str) -> list[Finding] | None:
        import json

        try:
            with open(os.path.join(self.directory, key + ".json"), encoding="utf-8") as handle:
                return [Finding(**record) for record in json.load(handle)]
        except (OSError, ValueError, TypeError):  # absent, or damaged: analyse again
            return None

    def put(self, key: str, findings: list[Finding]) -> None:
        import json

        if not self._writable:
            return
        temporary = os.path.join(self.directory, f".{key}.{os.getpid()}.tmp")
        try:
            if not self._created:
                os.makedirs(self.directory, exist_ok=True)
                ignore = os.path.join(self.directory, ".gitignore")
                if not os.path.exists(ignore):  # as ruff does: git never sees the cache
                    with open(ignore, "w", encoding="utf-8") as handle:
                        handle.write(self.GITIGNORE)
                self._created = True
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump([item.to_dict() for item in findings], handle)
            os.replace(temporary, os.path.join(self.directory, key + ".json"))  # atomic: parallel runs are safe
        except OSError:
            self._writable = False  # e.g. a read-only checkout: check on, uncached

    def _neighbours_of(self, path: str) -> str:
        """The C/C++/CUDA files beside a CUDA file, but for itself (its bytes are keyed already)."""
        if path.endswith(".py"):
            return ""  # Python rules read only the file (proposals, which read more, are not cached)
        folder, name = os.path.split(os.path.abspath(path))
        if folder not in self._neighbours:
            try:
                entries = [(entry.name, entry.stat()) for entry in os.scandir(folder)
                           if entry.name.endswith(C_FAMILY) and entry.is_file()]
            except OSError:
                entries = []
            self._neighbours[folder] = sorted((entry, info.st_size, info.st_mtime_ns) for entry, info in entries)
        return repr([entry for entry in self._neighbours[folder] if entry[0] != name])


def _analysis_code_stamp() -> str:
    """Names, sizes and modification times of the analysis code: a changed rule invalidates the cache."""
    import hiera_core.analysis
    import hiera_core.task.directives

    folder = os.path.dirname(hiera_core.analysis.__file__)
    files = [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".py")]
    files.append(hiera_core.task.directives.__file__)
    stamp = []
    for file in files:
        info = os.stat(file)
        stamp.append(f"{os.path.basename(file)}:{info.st_size}:{info.st_mtime_ns}")
    return ",".join(stamp)


def _workspace_root() -> str:
    """The nearest folder above the current one with .hiera/, .git or pyproject.toml (as the store's)."""
    folder = os.getcwd()
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in (".hiera", ".git", "pyproject.toml")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return os.getcwd()
        folder = parent


# -- output --------------------------------------------------------------------------------------
class _Positions:
    """1-based lines and character columns of findings (SARIF's "unicodeCodePoints")."""

    def __init__(self, sources: dict[str, bytes]) -> None:
        self._sources = sources
        self._starts: dict[str, list[int]] = {}

    def __call__(self, item: Finding) -> tuple[int, int, int, int]:
        source = self._sources.get(item.path, b"")
        if item.path not in self._starts:
            self._starts[item.path] = line_starts(source)
        starts = self._starts[item.path]

        def column(line: int, col_byte: int) -> int:
            return char_column(source, starts[line], col_byte) if line < len(starts) else col_byte + 1

        return (item.start_line + 1, column(item.start_line, item.start_col_byte),
                item.end_line + 1, column(item.end_line, item.end_col_byte))


def _write(format_: str, findings: list[Finding], files_given: int, sources: dict[str, bytes],
           failures: list[Failure], statistics: bool = False) -> None:
    findings = sorted(findings, key=lambda item: (item.path, item.start_byte, item.code))
    position = _Positions(sources)
    files_checked = files_given - sum(failure.path is not None for failure in failures)
    out = sys.stdout
    if statistics:
        _write_statistics(format_, findings, files_checked, failures)
    elif format_ == "text":
        if any(failure.path is None for failure in failures):
            return  # nothing was checked: the error on stderr is the whole result
        for item in findings:
            line, column, _, _ = position(item)
            out.write(f"{item.path}:{line}:{column}: {item.code} {item.message}\n")
            if item.hint:
                out.write(f"    hint: {item.hint}\n")
        out.write(_summary(findings, files_checked, failures))
    elif format_ == "json":
        import json

        records = []
        for item in findings:
            line, column, end_line, end_column = position(item)
            records.append({**item.to_dict(), "location": {"line": line, "column": column, "end_line": end_line,
                                                           "end_column": end_column}})
        report = {"files_checked": files_checked, "findings": records}
        if failures:
            report["errors"] = [vars(failure) for failure in failures]
        json.dump(report, out, indent=2)
        out.write("\n")
    elif format_ == "sarif":
        import json

        json.dump(_sarif(findings, position, failures), out, indent=2)
        out.write("\n")
    else:
        for item in findings:
            line, column, end_line, end_column = position(item)
            properties = ",".join(f"{key}={_github_escape(str(value), True)}" for key, value in (
                ("file", item.path), ("line", line), ("col", column), ("endLine", end_line),
                ("endColumn", end_column), ("title", f"{item.code} {RULES[item.code].name}")))
            message = item.message + (f"\nhint: {item.hint}" if item.hint else "")
            out.write(f"::{GITHUB_LEVELS[item.severity]} {properties}::{_github_escape(message, False)}\n")


def _summary(findings: list[Finding], files_checked: int, failures: list[Failure]) -> str:
    counts = {severity: sum(item.severity == severity for item in findings) for severity in reversed(SEVERITIES)}
    summary = ", ".join(f"{count} {severity}{'s' if count != 1 else ''}" for severity, count in counts.items())
    failed = f" ({len(failures)} not analysed: internal error)" if failures else ""
    return f"{files_checked} file{'s' if files_checked != 1 else ''} checked{failed}: {summary}\n"


def _write_statistics(format_: str, findings: list[Finding], files_checked: int, failures: list[Failure]) -> None:
    """Findings per rule, most frequent first (as ruff's --statistics): count, code, name, severity."""
    from collections import Counter

    if any(failure.path is None for failure in failures):
        return  # nothing was checked: the error on stderr is the whole result
    counts = Counter((item.code, item.severity) for item in findings)
    rows = sorted(counts.items(), key=lambda row: (-row[1], row[0]))
    if format_ == "json":
        import json

        json.dump([{"code": code, "name": RULES[code].name, "severity": severity, "count": count}
                   for (code, severity), count in rows], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    width = len(str(rows[0][1])) if rows else 1
    for (code, severity), count in rows:
        sys.stdout.write(f"{count:>{width}}\t{code}\t{RULES[code].name}\t{severity}\n")
    sys.stdout.write(_summary(findings, files_checked, failures))


def _github_escape(text: str, is_property: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if is_property else text


def _sarif(findings: list[Finding], position: _Positions, failures: list[Failure]) -> dict:
    from hiera_core import __version__

    codes = list(RULES)
    rules = [{"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary},
              "fullDescription": {"text": rule.explanation},
              "defaultConfiguration": {"level": SARIF_LEVELS[rule.severity]}} for rule in RULES.values()]
    results = []
    for item in findings:
        line, column, end_line, end_column = position(item)
        result = {
            "ruleId": item.code, "ruleIndex": codes.index(item.code), "level": SARIF_LEVELS[item.severity],
            "message": {"text": item.message + (f" (hint: {item.hint})" if item.hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(item.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": line, "startColumn": column, "endLine": end_line,
                           "endColumn": max(end_column, column + 1) if end_line == line else end_column,
                           "byteOffset": item.start_byte, "byteLength": item.end_byte - item.start_byte},
            }}],
        }
        results.append(result)
    notifications = [{"level": "error", "message": {"text": failure.message}, **(
        {"locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(failure.path),
                                                                  "uriBaseId": "%SRCROOT%"}}}]}
        if failure.path is not None else {})} for failure in failures]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hiera", "version": __version__, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _directory_uri(os.getcwd())}},
            "invocations": [{"executionSuccessful": not failures, "toolExecutionNotifications": notifications}],
            "results": results,
        }],
    }


def _uri(path: str) -> str:
    from urllib.parse import quote

    return quote(os.path.relpath(os.path.abspath(path)).replace(os.sep, "/"))


def _directory_uri(directory: str) -> str:
    from pathlib import Path

    uri = Path(directory).absolute().as_uri()
    return uri if uri.endswith("/") else uri + "/"
