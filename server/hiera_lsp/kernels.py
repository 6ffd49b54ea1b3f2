"""Which workspace module loads a `.cu` kernel: the target of "optimize" on a `__global__` function.

A module "loads" the kernel when its `.py` file compiles the `.cu` file or the kernel with
torch's `cpp_extension.load(sources=[...])` / `load_inline(...)` or an NVRTC-style API (cuda-python
`nvrtc`, CuPy `RawKernel`/`RawModule`, PyCUDA `SourceModule`), and names the `.cu` file or the
kernel in a string literal. Unsaved editor buffers are searched instead of their files on disk.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

_SKIPPED_DIRS = {"node_modules", "__pycache__", "site-packages", "build", "dist", "venv", "env"}
_MAX_FILE_BYTES = 2_000_000
_MAX_FILES = 20_000
_LOADER_RE = re.compile(r"\b(load|load_inline|nvrtc\w*|RawKernel|RawModule|SourceModule|get_function|"
                        r"cuModuleGetFunction)\s*\(")


@dataclass(frozen=True)
class Loader:
    path: str
    class_name: str


def _python_files(root: str):
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        for name in sorted(files):
            if name.endswith(".py") and not name.endswith("_hiera.py"):
                count += 1
                if count > _MAX_FILES:
                    return
                yield os.path.join(folder, name)


def _read(path: str, open_texts: dict[str, str]) -> str | None:
    if path in open_texts:
        return open_texts[path]
    try:
        if os.path.getsize(path) > _MAX_FILE_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def find_loaders(root: str, cu_path: str, kernel: str, open_texts: dict[str, str]) -> list[Loader]:
    """Modules that load `kernel` of `cu_path`, best first (same folder as the .cu file first)."""
    from hiera_core.analysis.python_source import parse_python

    names_file = re.compile(r"[\"'][^\"'\n]*\b" + re.escape(os.path.basename(cu_path)) + r"[\"']")
    names_kernel = re.compile(r"[\"']" + re.escape(kernel) + r"[\"']")
    found: list[Loader] = []
    for path in _python_files(root):
        text = _read(path, open_texts)
        if not text or not _LOADER_RE.search(text):
            continue
        if not (names_file.search(text) or names_kernel.search(text)):
            continue
        modules = [cls for cls in parse_python(text).classes if cls.is_module]
        if not modules:
            continue
        data = text.encode("utf-8", "surrogatepass")
        mentioning = [cls for cls in modules
                      if kernel.encode() in data[cls.span.start_byte:cls.span.end_byte]]
        chosen = (mentioning or [cls for cls in modules if cls.name == "Model"] or modules)[0]
        found.append(Loader(path, chosen.name))
    folder = os.path.dirname(cu_path)
    return sorted(found, key=lambda loader: (os.path.dirname(loader.path) != folder, loader.path))
