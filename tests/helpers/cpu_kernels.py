"""Run a generated CUDA kernel whose threads are independent (no shared memory, barriers or warp
intrinsics, as the column stencil) on the CPU: the source compiled by the host C++ compiler under a
shim that makes CUDA's qualifiers plain C++, and every (block, thread) of its grid called in turn.
Checks a kernel's index arithmetic where there is no GPU; its speed and its memory model are the
GPU tests' part."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

SHIM = """#include <algorithm>
#include <cmath>
using std::min; using std::max;
struct HieraDim3 { unsigned x, y, z; };
static HieraDim3 blockIdx, threadIdx;
#define __global__
#define __launch_bounds__(...)
#define __restrict__
#define __device__
#define __forceinline__ inline
template <class T> static inline T __ldg(const T* p) { return *p; }
"""


def host_compiler() -> str | None:
    return shutil.which("g++") or shutil.which("c++")


def cpu_kernel(source: str, name: str, parameters: str, arguments: str, threads: int, folder: Path):
    """`name` of `source` as a C function run(grid_x, grid_y, <parameters>) that calls it for every
    thread of a (grid_x, grid_y) grid of `threads`-thread blocks; `parameters` declares the kernel's
    parameters, `arguments` passes them on."""
    harness = (SHIM + source + f"""
extern "C" void run(unsigned grid_x, unsigned grid_y, {parameters}) {{
    for (unsigned by = 0; by < grid_y; ++by)
        for (unsigned bx = 0; bx < grid_x; ++bx)
            for (unsigned t = 0; t < {threads}; ++t) {{
                blockIdx.x = bx; blockIdx.y = by; threadIdx.x = t;
                {name}({arguments});
            }}
}}
""")
    cpp, library = folder / f"{name}.cpp", folder / f"{name}.so"
    cpp.write_text(harness)
    subprocess.run([host_compiler(), "-O1", "-shared", "-fPIC", "-o", str(library), str(cpp)], check=True,
                   capture_output=True, text=True)
    return ctypes.CDLL(str(library)).run
