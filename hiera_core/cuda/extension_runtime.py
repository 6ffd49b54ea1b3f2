"""The runtime inlined into extension candidates: torch C++/CUDA extensions built with `load_inline`
into HIERA's persistent build cache.

Like `proposal_runtime`, this is real, importable code (linted and tested) that proposals never
import: `hiera_core.cuda.proposal.runtime_source` copies the functions a candidate calls, and only
the imports those use, into its source. It needs torch and the standard library only (no
cuda.core), and a C++-only extension builds and runs on a machine without a GPU.
`hiera_core.cuda.extensions` builds through these same functions, so a build HIERA makes before
running a candidate and the candidate's own call share one cache entry.

The module name is `hiera_ext_<sha256[:16]>` over the sources, bound functions, flags, torch
version, CUDA architecture (`cpu` for C++-only extensions) and Python ABI; it is built in
`$HIERA_CACHE_DIR/extensions/<name>` (default `~/.cache/hiera/extensions/<name>`), so the same
sources and flags compile once for every process: a later `load_inline` finds the library there
and ninja has nothing to do. Builds of one key are serialised across processes by an `fcntl` lock.
Nothing here catches errors (candidates may not): a failed build raises load_inline's RuntimeError,
whose log HIERA trims and maps to the candidate's lines.
"""

import fcntl
import hashlib
import json
import os
import sys

_HIERA_EXTENSIONS = {}


def _hiera_extension(name, cpp_sources, cuda_sources=None, functions=None, extra_cflags=None,
                     extra_cuda_cflags=None):
    """Build a torch C++/CUDA extension with torch.utils.cpp_extension.load_inline, or load it from
    HIERA's build cache, and return the module. The same sources and flags compile once, for every
    process: later uses load the built library (milliseconds).

    `name` labels the extension in HIERA's messages (the module's real name is derived from a hash
    of its sources and flags). `cpp_sources` / `cuda_sources`: C++ / CUDA source strings (or lists
    of strings), as for load_inline, which puts `#include <torch/extension.h>` above the C++ and
    torch/types.h, cuda.h and cuda_runtime.h above the CUDA. `functions`: names of C++ functions
    declared or defined in `cpp_sources` to bind (`module.<function>(...)`). `extra_cflags`,
    `extra_cuda_cflags`: lists of compiler flags, e.g. ["-O3"]. A C++-only extension needs no GPU."""
    key = (cpp_sources if isinstance(cpp_sources, str) else tuple(cpp_sources or ()),
           cuda_sources if isinstance(cuda_sources, str) else tuple(cuda_sources or ()),
           functions if isinstance(functions, str) else tuple(functions or ()),
           extra_cflags if isinstance(extra_cflags, str) else tuple(extra_cflags or ()),
           extra_cuda_cflags if isinstance(extra_cuda_cflags, str) else tuple(extra_cuda_cflags or ()))
    module = _HIERA_EXTENSIONS.get(key)
    if module is None:
        module = _HIERA_EXTENSIONS[key] = _hiera_extension_build(cpp_sources, cuda_sources, functions, extra_cflags,
                                                                 extra_cuda_cflags)[0]
    return module


def _hiera_extension_key(cpp_sources, cuda_sources, functions, extra_cflags, extra_cuda_cflags, torch_version,
                         cuda_arch):
    """sha256 (hex) over everything that changes the built library (not the extension's label)."""
    material = {
        "cpp": _hiera_extension_text(cpp_sources), "cuda": _hiera_extension_text(cuda_sources),
        "functions": _hiera_extension_list(functions), "cflags": _hiera_extension_list(extra_cflags),
        "cuda_cflags": _hiera_extension_list(extra_cuda_cflags), "torch": torch_version, "arch": cuda_arch,
        # The library links against one CPython ABI; another interpreter must not load it.
        "python": sys.implementation.cache_tag,
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def _hiera_extension_name(key):
    """The module's name (and its build directory's): `hiera_ext_` and the key's first 16 hex digits."""
    return "hiera_ext_" + key[:16]


def _hiera_extension_arch(with_cuda):
    """What a build targets: `cpu` without CUDA sources, else torch's TORCH_CUDA_ARCH_LIST or the GPU's sm_XY."""
    if not with_cuda:
        return "cpu"
    if os.environ.get("TORCH_CUDA_ARCH_LIST"):
        return os.environ["TORCH_CUDA_ARCH_LIST"]
    import torch

    major, minor = torch.cuda.get_device_capability()
    return f"sm_{major}{minor}"


def _hiera_extension_root(cache_dir=None):
    """`<cache_dir>/extensions`; by default under $HIERA_CACHE_DIR, else $XDG_CACHE_HOME/hiera (~/.cache/hiera)."""
    root = cache_dir or os.environ.get("HIERA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hiera")
    return os.path.join(str(root), "extensions")


def _hiera_extension_build(cpp_sources, cuda_sources=None, functions=None, extra_cflags=None,
                           extra_cuda_cflags=None, cache_dir=None, verbose=False):
    """(module, library path, cached): build with load_inline under the key's lock, or load the
    library already built. `cached`: nothing was compiled (the library was there and up to date)."""
    import torch
    from torch.utils.cpp_extension import load_inline

    cpp = _hiera_extension_text(cpp_sources)
    cuda = _hiera_extension_text(cuda_sources)
    bound = _hiera_extension_list(functions)
    cflags = _hiera_extension_list(extra_cflags)
    cuda_cflags = _hiera_extension_list(extra_cuda_cflags)
    key = _hiera_extension_key(cpp, cuda, bound, cflags, cuda_cflags, torch.__version__,
                               _hiera_extension_arch(bool(cuda)))
    name = _hiera_extension_name(key)
    root = _hiera_extension_root(cache_dir)
    folder = os.path.join(root, name)
    os.makedirs(folder, exist_ok=True)
    library = os.path.join(folder, name + ".so")
    with open(os.path.join(root, name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or by the kernel if this process dies
        # No other process builds this key now, so torch's own lock file, if there is one, was left by a
        # killed build: torch would wait on it forever.
        if os.path.exists(os.path.join(folder, "lock")):
            os.remove(os.path.join(folder, "lock"))
        before = os.stat(library).st_mtime_ns if os.path.exists(library) else None
        # Always the same arguments for the same key: torch rebuilds under a new name when a module
        # of this name was loaded in this process with other ones.
        module = load_inline(name=name, cpp_sources=cpp, cuda_sources=cuda or None, functions=bound or None,
                             extra_cflags=cflags, extra_cuda_cflags=cuda_cflags, build_directory=folder,
                             with_cuda=bool(cuda), verbose=verbose)
        cached = before is not None and os.stat(library).st_mtime_ns == before
    return module, library, cached


def _hiera_extension_text(sources):
    return sources if isinstance(sources, str) else "\n".join(sources or ())


def _hiera_extension_list(values):
    return [values] if isinstance(values, str) else list(values or ())
