"""NVRTC compilation, line-mapped errors, the compile cache, resource reports and `hiera kernels`."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("cuda.bindings")

from click.testing import CliRunner

from hiera_core.cuda import nvrtc
from hiera_core.cuda.cli import kernels
from hiera_core.cuda.nvrtc import SourceOrigin, compile_cuda, origin_in
from hiera_core.cuda.resources import kernel_resources, launch_bounds, theoretical_occupancy

GOOD = """\
extern "C" __global__ void __launch_bounds__(128) scale(float* x, float a, long long n) {
    __shared__ float tile[128];
    long long i = blockIdx.x * 128ll + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) x[i] = a * tile[127 - threadIdx.x];
}
"""
BAD = """\
extern "C" __global__ void broken(float* x) {
    int unused;
    x[0] = missing_value;
    x[1] = also_missing;
}
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HIERA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(nvrtc, "_MEMORY_CACHE", {})


def test_compiles_to_a_cubin_and_ptx_for_sm90_without_a_gpu():
    result = compile_cuda(GOOD, arch="sm_90")
    assert result.ok and not result.cached
    assert result.cubin.startswith(b"\x7fELF")
    assert ".target sm_90" in result.ptx
    assert "--gpu-architecture=sm_90" in result.options


def test_errors_are_trimmed_and_mapped_to_the_candidate_lines():
    result = compile_cuda(BAD, arch="sm_90", origin=SourceOrigin("candidate.py", 40))
    assert not result.ok and result.cubin is None
    text = result.error_text()
    lines = text.splitlines()
    assert lines[0] == 'candidate.py:42: error: identifier "missing_value" is undefined'
    assert "x[0] = missing_value;" in lines[1] and lines[2].strip() == "^"
    assert 'candidate.py:43: error: identifier "also_missing" is undefined' in text
    assert "warning" not in text and "Remark" not in text and "detected in the compilation" not in text
    assert [d.line for d in result.diagnostics if d.severity == "warning"] == [41]


def test_origin_of_a_kernel_embedded_in_python():
    code = 'import torch\n\nSRC = r"""\n' + BAD + '"""\n'
    origin = origin_in(code, BAD, "proposal.py")
    assert origin.first_line == 4
    result = compile_cuda(BAD, arch="sm_90", origin=origin)
    assert result.errors[0].path == "proposal.py" and result.errors[0].line == 6
    assert code.splitlines()[5].strip() == "x[0] = missing_value;"


def test_ptxas_errors_are_reported_without_a_line():
    source = 'extern "C" __global__ void huge(float* x) { __shared__ float big[70000]; big[threadIdx.x] = 1; x[0] = big[(int)x[1]]; }'
    result = compile_cuda(source, arch="sm_90")
    assert not result.ok
    assert "ptxas" in result.error_text() and "shared" in result.error_text()


def test_cache_in_memory_and_on_disk(monkeypatch):
    first = compile_cuda(GOOD, arch="sm_90")
    assert compile_cuda(GOOD, arch="sm_90").cached
    monkeypatch.setattr(nvrtc, "_MEMORY_CACHE", {})
    from_disk = compile_cuda(GOOD, arch="sm_90")
    assert from_disk.cached and from_disk.cubin == first.cubin and from_disk.log == first.log
    assert not compile_cuda(GOOD, arch="sm_90", use_cache=False).cached
    assert not compile_cuda(GOOD, arch="sm_80").cached  # the arch is part of the key


def test_bad_arch_is_refused():
    with pytest.raises(ValueError, match="sm_XY"):
        compile_cuda(GOOD, arch="hopper")


def test_resources_and_occupancy_from_the_ptxas_report():
    report = kernel_resources(GOOD + BAD.replace("missing_value", "1.0f").replace("also_missing", "2.0f"), arch="sm_90")
    assert report.ok
    by_name = {k.name: k for k in report.kernels}
    scale = by_name["scale"]
    assert scale.static_smem == 512 and scale.registers > 0 and scale.barriers == 1
    assert scale.launch_bounds == 128 and scale.occupancy.block == 128 and not scale.occupancy.block_assumed
    assert by_name["broken"].occupancy.block_assumed and by_name["broken"].occupancy.block == 256


def test_spills_are_reported():
    source = """extern "C" __global__ void pressure(float* x) {
        float v[64];
        #pragma unroll
        for (int i = 0; i < 64; ++i) v[i] = x[i * blockDim.x + threadIdx.x];
        float s = 0;
        #pragma unroll
        for (int i = 0; i < 64; ++i) s += v[i] * v[63 - i] * v[(i * 7) % 64];
        x[threadIdx.x] = s;
    }"""
    report = kernel_resources(source, arch="sm_90", compiled=compile_cuda(source, arch="sm_90", options=["--maxrregcount=16"]))
    (kernel,) = report.kernels
    assert kernel.spill_stores > 0 and kernel.spill_loads > 0 and kernel.stack_bytes > 0


@pytest.mark.parametrize("regs, smem, block, blocks, occupancy, limiter", [
    (32, 0, 256, 8, 1.0, "warps"),
    (64, 0, 256, 4, 0.5, "registers"),
    (40, 0, 128, 12, 0.75, "registers"),  # 40 regs: 1280 per warp, 51 warps -> 12 blocks of 4
    (16, 100 * 1024, 256, 2, 0.25, "shared memory"),
    (16, 0, 32, 32, 0.5, "blocks"),
])
def test_theoretical_occupancy_sm90(regs, smem, block, blocks, occupancy, limiter):
    result = theoretical_occupancy("sm_90", regs, smem, block)
    assert (result.blocks_per_sm, result.occupancy, result.limiter) == (blocks, occupancy, limiter)


def test_occupancy_of_kernels_that_cannot_launch():
    assert theoretical_occupancy("sm_90", 32, 0, 2048).limiter.startswith("does not launch")
    assert theoretical_occupancy("sm_90", 32, 240 * 1024, 128).blocks_per_sm == 0
    with pytest.raises(ValueError, match="known"):
        theoretical_occupancy("sm_42", 32, 0, 128)


def test_launch_bounds_parsing():
    source = ("__global__ void __launch_bounds__(512) a(int* x) {}\n"
              "__global__ __launch_bounds__(64, 2) void b(int* x) {}\n__global__ void c(int* x) {}")
    assert launch_bounds(source) == {"a": 512, "b": 64}


def test_launch_bounds_from_constexpr_expressions():
    source = ("constexpr int BX = 128, BY = 2, TY = BY * 4;\nconstexpr int THREADS = (BX * BY) / 2;\n"
              "extern \"C\" __global__ void __launch_bounds__(BX * BY, 4) tiled(float* x) {}\n"
              "extern \"C\" __global__ void __launch_bounds__((THREADS << 1) - TY) shifted(float* x) {}\n"
              "extern \"C\" __global__ void __launch_bounds__(UNKNOWN * 2) opaque(float* x) {}")
    assert launch_bounds(source) == {"tiled": 256, "shifted": 248}


def test_template_occupancy_uses_its_own_block_size():
    """The 3D stencil tile narrowed to a 40-wide grid is 128 threads (BX * BY): occupancy for that, not
    an assumed 256."""
    from hiera_core.spaces.custom_cuda.stencil_template import stencil_source, stencil_tile

    taps = [(0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]
    tile = stencil_tile(40)
    (kernel,) = kernel_resources(stencil_source("hiera_stencil3d", taps, tile).source).kernels
    assert kernel.launch_bounds == tile["bx"] * tile["by"] == 128
    assert kernel.occupancy.block == kernel.launch_bounds and not kernel.occupancy.block_assumed


def test_cli_prints_every_kernel(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text(GOOD)
    result = CliRunner().invoke(kernels, [str(path), "--arch", "sm_90"])
    assert result.exit_code == 0, result.output
    assert "for sm_90" in result.output and "scale:" in result.output and "block 128:" in result.output


def test_cli_json_and_options(tmp_path):
    (tmp_path / "coef.h").write_text("#define COEF 2.0f\n")
    path = tmp_path / "k.cu"
    path.write_text('#include "coef.h"\n' + GOOD.replace("a * tile", "COEF * SCALE * tile"))
    result = CliRunner().invoke(kernels, [str(path), "--arch", "sm_90", "--json", "-D", "SCALE=3.0f",
                                          "--block", "64", "--dyn-smem", "4096"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (kernel,) = data["kernels"]
    assert data["ok"] and kernel["occupancy"]["block"] == 64 and kernel["occupancy"]["dynamic_smem"] == 4096


def test_cli_reports_mapped_errors_and_fails(tmp_path):
    path = tmp_path / "bad.cu"
    path.write_text(BAD)
    result = CliRunner().invoke(kernels, [str(path), "--arch", "sm_90"])
    assert result.exit_code == 1
    assert f"{path}:3: error: identifier \"missing_value\" is undefined" in result.output


def test_cli_compiles_a_file_with_host_includes(tmp_path):
    path = tmp_path / "k.cu"
    # printf is NVRTC's own; <stdio.h> and <vector> serve host code that NVRTC never compiles
    path.write_text('#include <stdio.h>\n#include <vector>\n__global__ void k(int n) { printf("%d\\n", n); }\n'
                    "__global__ void broken() { missing_value = 1; }\n")
    result = CliRunner().invoke(kernels, [str(path), "--arch", "sm_90"])
    # the includes are handled and the lines of errors after them stay the file's own
    assert result.exit_code == 1 and f"{path}:4: error: identifier \"missing_value\" is undefined" in result.output
    path.write_text(path.read_text().replace("missing_value = 1;", ""))
    result = CliRunner().invoke(kernels, [str(path), "--arch", "sm_90"])
    assert result.exit_code == 0, result.output
    assert "k(int):" in result.output


@pytest.mark.skipif(not nvrtc.toolkit_include_dirs(), reason="no CUDA toolkit headers (cuda_runtime.h) here")
def test_cli_compiles_a_file_with_cuda_includes(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text("#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <stdint.h>\n"
                    "__global__ void half_copy(__half* y, const __half* x, uint32_t n) {\n"
                    "    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = x[i];\n}\n")
    result = CliRunner().invoke(kernels, [str(path), "--arch", "sm_90"])
    assert result.exit_code == 0, result.output
    assert "half_copy(" in result.output


def test_host_includes_become_comments_on_their_own_lines():
    source = "#include <stdio.h>\n#include <mylib.h>\n#include \"local.h\"\n__global__ void k() {}\n"
    prepared = nvrtc.without_host_includes(source, [])
    assert prepared.count("\n") == source.count("\n")
    lines = prepared.splitlines()
    assert lines[0].startswith("// #include <stdio.h>: a host header")
    assert lines[1:] == source.splitlines()[1:]  # a missing library header stays an error of its own


def test_cli_refuses_python_files(tmp_path):
    path = tmp_path / "model.py"
    path.write_text("import torch\n")
    result = CliRunner().invoke(kernels, [str(path)])
    assert result.exit_code == 2 and "is not a CUDA source (.cu, .cuh)" in result.output
