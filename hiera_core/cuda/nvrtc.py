"""Compile CUDA C++ with NVRTC for one architecture, without a GPU.

Uses `cuda.bindings.nvrtc` directly (not `cuda.core.Program`) so that compiling needs neither a
driver nor a device context, and so that the log survives a failed compile. Every compile passes
`--ptxas-options=-v`, so the same log carries ptxas's resource report (`hiera_core.cuda.resources`
parses it) and one compile answers both "does it build" and "what does it cost".

Results are cached by sha256(NVRTC version, arch, options, source): in memory for the process and
on disk (successful compiles only) under `$HIERA_CACHE_DIR/nvrtc` (default `~/.cache/hiera/nvrtc`).

Errors come back as `Diagnostic`s with line numbers mapped to where the source came from (a `.cu`
file, or the line of a Python candidate where its kernel string starts), and `error_text()` trims
the log to the error lines and the compiler's excerpt of each.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_ARCH = "sm_90"
BASE_OPTIONS = ("--std=c++17", "--ptxas-options=-v")
MAX_ERRORS_SHOWN = 8

_DIAGNOSTIC_RE = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+)\): (?P<severity>catastrophic error|error|warning|remark)"
    r"(?: #[\w-]+)?: (?P<message>.*)$")
_PTXAS_ERROR_RE = re.compile(r"^ptxas (?:error|fatal)\s*: (?P<message>.*)$")
_ARCH_RE = re.compile(r"^sm_\d+[af]?$")
_MEMORY_CACHE: dict[str, CompileResult] = {}
_ANGLE_INCLUDE_RE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([^>\n]+)>[^\n]*$", re.M)
# NVRTC compiles device code only and has no C library: these C headers (and every C++ standard
# header) are host headers there, unless CCCL has a device version (cuda/std/cstdint for stdint.h).
C_HEADERS = {"assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "locale.h", "math.h",
             "setjmp.h", "signal.h", "stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
             "string.h", "time.h", "wchar.h", "unistd.h"}
HOST_ONLY_CUDA_HEADERS = {"cuda.h"}  # the driver API: host code, and it pulls in stdlib.h


@dataclass(frozen=True)
class SourceOrigin:
    """Where compiled line 1 lives: `path` at `first_line` (1-based)."""

    path: str
    first_line: int = 1

    def map(self, line: int) -> int:
        return self.first_line + line - 1


@dataclass
class Diagnostic:
    severity: str  # "error" | "warning" | "remark"
    path: str
    line: int | None  # in the origin's coordinates; None for ptxas messages
    message: str
    excerpt: list[str] = field(default_factory=list)  # the compiler's source echo and caret

    def render(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return "\n".join([f"{where}: {self.severity}: {self.message}", *self.excerpt])


@dataclass
class CompileResult:
    ok: bool
    arch: str
    options: list[str]
    log: str  # the full NVRTC log (diagnostics and ptxas -v report)
    diagnostics: list[Diagnostic]
    seconds: float  # compile time (of the original compile when served from the cache)
    cached: bool
    nvrtc_version: str
    cubin: bytes | None = field(default=None, repr=False)
    ptx: str | None = field(default=None, repr=False)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def error_text(self) -> str:
        """The compiler's errors trimmed to what matters: each error line and its excerpt."""
        if self.ok:
            return ""
        errors = self.errors
        if not errors:  # a failure with no parsable diagnostic: the log's tail is all we have
            return "\n".join(self.log.strip().splitlines()[-MAX_ERRORS_SHOWN:])
        shown = [d.render() for d in errors[:MAX_ERRORS_SHOWN]]
        if len(errors) > MAX_ERRORS_SHOWN:
            shown.append(f"... and {len(errors) - MAX_ERRORS_SHOWN} more errors")
        return "\n".join(shown)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "arch": self.arch, "options": self.options, "seconds": self.seconds,
                "cached": self.cached, "nvrtc_version": self.nvrtc_version,
                "errors": self.error_text(), "log": self.log,
                "diagnostics": [d.__dict__ for d in self.diagnostics]}


# What the custom-CUDA space needs beyond torch: GPU only, so it is the [cuda] extra, not the base install.
CUSTOM_CUDA_MODULES = ("cuda.core", "cuda.bindings")


def custom_cuda_unavailable() -> str | None:
    """One line saying the custom-CUDA space is off and what to install, or None when it is on."""
    import importlib.util

    try:
        missing = [name for name in CUSTOM_CUDA_MODULES if importlib.util.find_spec(name) is None]
    except ModuleNotFoundError:  # the `cuda` namespace itself is absent
        missing = list(CUSTOM_CUDA_MODULES)
    if not missing:
        return None
    return (f"custom CUDA kernels space off: {', '.join(missing)} not installed here; "
            "pip install 'hiera[cuda]' (cuda-core, cuda-bindings, NVRTC, ninja) to turn it on")


def nvrtc_version() -> str:
    from cuda.bindings import nvrtc

    _, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}"


def detect_arch() -> str:
    """`sm_XY` of GPU 0 through the driver API, or DEFAULT_ARCH where there is no driver or GPU."""
    from cuda.bindings import driver

    try:
        (status,) = driver.cuInit(0)
    except RuntimeError:  # libcuda.so is absent: a machine without the NVIDIA driver
        return DEFAULT_ARCH
    if status != driver.CUresult.CUDA_SUCCESS:
        return DEFAULT_ARCH
    attribute = driver.CUdevice_attribute
    _, major = driver.cuDeviceGetAttribute(attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0)
    _, minor = driver.cuDeviceGetAttribute(attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0)
    return f"sm_{major}{minor}"


def toolkit_include_dirs() -> list[str]:
    """The CUDA headers NVRTC does not carry (cuda_runtime.h, cuda_fp16.h, CCCL's cuda/std and cub),
    where cuda.pathfinder finds them: pip wheels, conda, CUDA_HOME/CUDA_PATH, /usr/local/cuda."""
    try:
        from cuda.pathfinder import find_nvidia_header_directory
    except ImportError:
        return []
    found = (find_nvidia_header_directory(name) for name in ("cudart", "cccl"))
    return list(dict.fromkeys(folder for folder in found if folder))


def without_host_includes(source: str, include_dirs: list[str]) -> str:
    """`source` with each `#include <...>` of a host header that no include dir holds turned into a
    comment (same line count, so diagnostics keep their lines), or into CCCL's device version of a C
    or C++ standard header where there is one: what nvcc's host pass would use is out of NVRTC's reach."""
    cccl = next((Path(folder) for folder in include_dirs if (Path(folder) / "cuda" / "std").is_dir()), None)

    def replace(match: re.Match) -> str:
        header = match.group(1).strip()
        if header not in HOST_ONLY_CUDA_HEADERS and any((Path(folder) / header).is_file() for folder in include_dirs):
            return match.group(0)
        cxx_standard = "/" not in header and "." not in header  # <vector>, <cstdint>
        standard = ("c" + header[:-2]) if header in C_HEADERS else header if cxx_standard else None
        if header not in HOST_ONLY_CUDA_HEADERS and standard is None:
            return match.group(0)  # not a host header: NVRTC's "cannot open" is the right error
        if standard is not None and cccl is not None and (cccl / "cuda" / "std" / standard).is_file():
            return f"#include <cuda/std/{standard}>  // for <{header}>: CCCL's device version"
        return f"// #include <{header}>: a host header, left out of the NVRTC compile"

    return _ANGLE_INCLUDE_RE.sub(replace, source)


def cache_dir() -> Path:
    root = os.environ.get("HIERA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hiera")
    return Path(root) / "nvrtc"


def compile_cuda(source: str, arch: str | None = None, options: tuple[str, ...] | list[str] = (),
                 origin: SourceOrigin | None = None, use_cache: bool = True) -> CompileResult:
    """Compile `source` to a cubin (and PTX) for `arch` (default: the local GPU's, else sm_90)."""
    arch = arch or detect_arch()
    if not _ARCH_RE.match(arch):
        raise ValueError(f"architecture '{arch}' is not of the form sm_XY (e.g. sm_90)")
    origin = origin or SourceOrigin("kernel.cu")
    all_options = [f"--gpu-architecture={arch}", *BASE_OPTIONS, *options]
    version = nvrtc_version()
    key = hashlib.sha256("\0".join([version, *all_options, source]).encode()).hexdigest()

    raw = _MEMORY_CACHE.get(key) if use_cache else None
    if raw is None and use_cache:
        raw = _read_disk_cache(key)
    cached = raw is not None
    if raw is None:
        raw = _run_nvrtc(source, all_options)
        if use_cache and raw.ok:
            _write_disk_cache(key, raw)
    if use_cache:
        _MEMORY_CACHE[key] = raw
    return CompileResult(ok=raw.ok, arch=arch, options=all_options, log=raw.log,
                         diagnostics=parse_diagnostics(raw.log, origin), seconds=raw.seconds,
                         cached=cached, nvrtc_version=version, cubin=raw.cubin, ptx=raw.ptx)


def parse_diagnostics(log: str, origin: SourceOrigin) -> list[Diagnostic]:
    """Compiler and ptxas diagnostics of an NVRTC log, with lines mapped through `origin`."""
    found: list[Diagnostic] = []
    current: Diagnostic | None = None
    for text in log.splitlines():
        match = _DIAGNOSTIC_RE.match(text)
        ptxas = _PTXAS_ERROR_RE.match(text)
        if match:
            severity = "error" if "error" in match["severity"] else match["severity"]
            current = Diagnostic(severity, origin.path, origin.map(int(match["line"])), match["message"])
            found.append(current)
        elif ptxas:
            current = None
            found.append(Diagnostic("error", origin.path, None, "ptxas: " + ptxas["message"]))
        elif current is not None and text.startswith("  ") and text.strip():
            current.excerpt.append(text)
        else:
            current = None
    return found


def origin_in(text: str, source: str, path: str) -> SourceOrigin:
    """Origin of `source` embedded verbatim in `text` (e.g. a kernel string in a Python candidate)."""
    at = text.find(source)
    if at < 0:
        raise ValueError(f"the CUDA source is not part of {path}")
    return SourceOrigin(path, text.count("\n", 0, at) + 1)


@dataclass
class _Raw:
    ok: bool
    log: str
    seconds: float
    cubin: bytes | None
    ptx: str | None


def _run_nvrtc(source: str, options: list[str]) -> _Raw:
    from cuda.bindings import nvrtc

    started = time.perf_counter()
    status, program = nvrtc.nvrtcCreateProgram(source.encode(), b"kernel.cu", 0, [], [])
    _check(status, "nvrtcCreateProgram")
    try:
        encoded = [o.encode() for o in options]
        (status,) = nvrtc.nvrtcCompileProgram(program, len(encoded), encoded)
        ok = status == nvrtc.nvrtcResult.NVRTC_SUCCESS
        log = _read(nvrtc.nvrtcGetProgramLogSize, nvrtc.nvrtcGetProgramLog, program).decode(errors="replace")
        cubin = _read(nvrtc.nvrtcGetCUBINSize, nvrtc.nvrtcGetCUBIN, program) if ok else None
        ptx = _read(nvrtc.nvrtcGetPTXSize, nvrtc.nvrtcGetPTX, program).decode() if ok else None
    finally:
        nvrtc.nvrtcDestroyProgram(program)
    return _Raw(ok, log.rstrip("\x00"), time.perf_counter() - started, cubin, ptx.rstrip("\x00") if ptx else None)


def _read(size_fn, get_fn, program) -> bytes:
    status, size = size_fn(program)
    _check(status, size_fn.__name__)
    buffer = b" " * size
    (status,) = get_fn(program, buffer)
    _check(status, get_fn.__name__)
    return buffer.rstrip(b"\x00")


def _check(status, call: str) -> None:
    from cuda.bindings import nvrtc

    if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"{call} failed: {status.name}")


def _read_disk_cache(key: str) -> _Raw | None:
    folder = cache_dir() / key[:2]
    meta_path, cubin_path, ptx_path = (folder / f"{key}{suffix}" for suffix in (".json", ".cubin", ".ptx"))
    if not (meta_path.exists() and cubin_path.exists() and ptx_path.exists()):
        return None
    meta = json.loads(meta_path.read_text())
    return _Raw(True, meta["log"], meta["seconds"], cubin_path.read_bytes(), ptx_path.read_text())


def _write_disk_cache(key: str, raw: _Raw) -> None:
    folder = cache_dir() / key[:2]
    if not _writable(folder):
        return
    _atomic_write(folder / f"{key}.cubin", raw.cubin or b"")
    _atomic_write(folder / f"{key}.ptx", (raw.ptx or "").encode())
    # The metadata goes last: its presence marks the entry complete for readers.
    _atomic_write(folder / f"{key}.json", json.dumps({"log": raw.log, "seconds": raw.seconds}).encode())


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only home: compile without the disk cache
        return False
    return os.access(folder, os.W_OK)


def _atomic_write(path: Path, data: bytes) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_bytes(data)
    os.replace(temp, path)
