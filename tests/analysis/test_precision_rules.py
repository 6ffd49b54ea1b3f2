"""The false-finding classes found on real code (docs/check-precision.md): each shape that real
projects write correctly stays quiet, and the buggy shape beside it is still found."""

from hiera_core.analysis import analyze_file, cexpr


def lines(source: str, code: str, path: str = "k.cu") -> list[int]:
    return [f.start_line + 1 for f in analyze_file(path, source) if f.code == code]


# -- HIP/ROCm-only preprocessor branches ---------------------------------------------------------
WARP_SUM = """__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
BRANCH
  return v;
}
"""


def test_legacy_intrinsics_in_hip_only_branches_are_not_cuda():
    for branch in ("#ifdef MMCV_WITH_HIP\n    v += __shfl_down(v, offset);\n#else\n"
                   "    v += __shfl_down_sync(0xffffffff, v, offset);\n#endif",
                   "#if defined(USE_ROCM) && ROCM_VERSION >= 60000\n    v += __shfl_down(v, offset);\n#endif",
                   "#if !defined(USE_ROCM)\n    v += __shfl_down_sync(0xffffffff, v, offset);\n#else\n"
                   "    v += __shfl_down(v, offset);\n#endif",
                   "#ifndef __HIP_PLATFORM_AMD__\n    v += __shfl_down_sync(0xffffffff, v, offset);\n#else\n"
                   "    v += __shfl_down(v, offset);\n#endif"):
        assert lines(WARP_SUM.replace("BRANCH", branch), "HC112") == [], branch


def test_legacy_intrinsics_in_cuda_branches_are_still_found():
    assert lines(WARP_SUM.replace("BRANCH", "#ifndef MMCV_WITH_HIP\n    v += __shfl_down(v, offset);\n#endif"),
                 "HC112") == [4]
    assert lines(WARP_SUM.replace("BRANCH", "#if CUDA_VERSION >= 9000\n    v += __shfl_down(v, offset);\n#endif"),
                 "HC112") == [4]  # a condition HIP does not decide: compiled for CUDA
    assert lines(WARP_SUM.replace("BRANCH", "    v += __shfl_down(v, offset);"), "HC112") == [3]


def test_a_barrier_in_a_hip_only_branch_is_not_judged():
    source = """__global__ void k(float* p, int n) {
  if (threadIdx.x < n) {
#ifdef USE_ROCM
    __syncthreads();
#endif
    p[threadIdx.x] = 0;
  }
}
"""
    assert lines(source, "HC102") == []
    assert lines(source.replace("#ifdef USE_ROCM", "#ifdef USE_FAST_PATH"), "HC102") == [4]


def test_c_short_circuit_decides_a_condition_with_an_unknown_operand():
    unknown = {"A": 0}.get
    assert cexpr.parse("A && B").evaluate(unknown) == 0
    assert cexpr.parse("B || 1").evaluate(unknown) == 1
    assert cexpr.parse("B && 1").evaluate(unknown) is None


# -- HC102: round-up trip counts ------------------------------------------------------------------
ROUND_UP = """__global__ void k(float* smem, const float* x, int n) {
  int bound = BOUND;
  for (int i = threadIdx.x; i < bound; i += blockDim.x) {
    if (i < n) smem[0] = x[i];
    __syncthreads();
  }
}
"""


def test_a_block_stride_loop_to_a_multiple_of_the_block_gives_every_thread_the_same_trips():
    for bound in ("round_up(n, static_cast<int>(blockDim.x))", "(n + blockDim.x - 1) / blockDim.x * blockDim.x"):
        assert lines(ROUND_UP.replace("BOUND", bound), "HC102") == [], bound


def test_a_block_stride_loop_to_n_still_diverges_at_its_barrier():
    assert lines(ROUND_UP.replace("BOUND", "n"), "HC102") == [5]
    assert lines(ROUND_UP.replace("BOUND", "round_up(n, 32)"), "HC102") == [5]  # not a multiple of the stride


# -- HC101: exact grids ---------------------------------------------------------------------------
ROWS = """__global__ void add(float* out, const float* a, int row_stride) {
  int row = blockIdx.x;
  int id = threadIdx.x;
  out[row * row_stride + id] = a[row * row_stride + id];
}
void launch_add(float* out, const float* a, int batch, int seq, int hidden) {
  dim3 grid_dim(GRID);
  dim3 block_dim(hidden / 4);
  add<<<grid_dim, block_dim>>>(out, a, hidden / 4);
}
"""


def test_one_block_per_row_is_an_exact_grid():
    assert lines(ROWS.replace("GRID", "batch * seq"), "HC101") == []


def test_a_rounded_up_grid_still_needs_a_guard():
    assert lines(ROWS.replace("GRID", "(batch * seq * hidden + 255) / 256"), "HC101") == [4]
    assert lines(ROWS.replace("GRID", "CEIL_DIV(batch * seq, 4)"), "HC101") == [4]


def test_a_tile_column_is_bounded_by_the_block_when_the_row_is_guarded():
    source = """__global__ void t(float* out, const float* in, int seq, int stride) {
  int d2 = threadIdx.y + blockDim.y * blockIdx.y;
  int d3 = threadIdx.x;
  if (d2 < seq) out[d2 * stride + d3] = in[d2 * stride + d3];
}
"""
    assert lines(source, "HC101") == []
    assert lines(source.replace("if (d2 < seq) ", ""), "HC101") == [4]


SPECIALISED = """template <typename T> __global__ void t(T* out, int n);
template <> __global__ void t<float>(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0;
}
template <> __global__ void t<double>(double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 0;
}
void run(float* f, double* d, int rows, int n) {
  t<float><<<(n + 255) / 256, 256>>>(f, n);
  t<double><<<DOUBLE_GRID, 256>>>(d, n);
}
"""


def test_each_explicit_specialisation_is_judged_by_its_own_launches():
    assert lines(SPECIALISED.replace("DOUBLE_GRID", "rows"), "HC101") == []
    assert lines(SPECIALISED.replace("DOUBLE_GRID", "(n + 255) / 256"), "HC101") == [8]


def test_the_editors_cached_analysis_judges_specialisations_alike():
    cache: dict = {}
    for grid, expected in (("rows", []), ("(n + 255) / 256", [8]), ("rows", [])):  # edits of the launcher
        source = SPECIALISED.replace("DOUBLE_GRID", grid)
        assert [f.start_line + 1 for f in analyze_file("k.cu", source, cache=cache) if f.code == "HC101"] == expected


# -- HC110: checks through macros, one check after several launches, checks in the caller ---------
def test_a_launch_checked_through_an_included_macro(tmp_path):
    (tmp_path / "include" / "utils").mkdir(parents=True)
    (tmp_path / "include" / "utils" / "check.h").write_text(
        "#define CHECK_LAUNCH()                   \\\n  {                                  \\\n"
        "    auto err = cudaGetLastError();   \\\n    if (err != cudaSuccess) throw 1; \\\n  }\n")
    (tmp_path / "src").mkdir()
    kernel = tmp_path / "src" / "ops.cu"
    source = ("#include <torch/extension.h>\n#include <utils/check.h>\n__global__ void k(float* p) {}\n"
              "void run(float* p) {\n  k<<<1, 32>>>(p);\n  CHECK_LAUNCH();\n}\n")
    kernel.write_text(source)
    assert [f.code for f in analyze_file(str(kernel)) if f.code == "HC110"] == []
    kernel.write_text(source.replace("CHECK_LAUNCH", "OTHER_MACRO"))
    assert [f.start_line + 1 for f in analyze_file(str(kernel)) if f.code == "HC110"] == [5]


def test_a_launch_checked_by_every_caller():
    source = """#include <torch/extension.h>
__global__ void k(float* p) {}
template <int N> void launch(float* p) { k<<<N, 32>>>(p); }
cudaError_t run(float* p, int which) {
  switch (which) {
    case 0: launch<1>(p); break;
    default: launch<2>(p);
  }
  return cudaGetLastError();
}
"""
    assert lines(source, "HC110", "e.cu") == []
    unchecked = source.replace("  return cudaGetLastError();\n", "  return cudaSuccess;\n")
    assert lines(unchecked, "HC110", "e.cu") == [3]


# -- HC114: host copies, new tensors, device-keyed dispatch ---------------------------------------
def test_a_host_copy_and_a_new_tensor_need_no_device_check():
    source = """#include <torch/extension.h>
void launch(const float* p);
void run(torch::Tensor counts, torch::Tensor boxes, torch::Tensor order) {
  TORCH_CHECK(boxes.is_cuda());
  auto counts_cpu = counts.to(torch::kCPU);
  int first = counts_cpu.data_ptr<int>()[0];
  auto sorted = boxes.index_select(0, order);
  launch(sorted.data_ptr<float>());
  launch(counts.data_ptr<float>());
}
"""
    assert lines(source, "HC114", "e.cu") == [9]


def test_a_launcher_registered_for_cuda_gets_tensors_on_the_gpu(tmp_path):
    (tmp_path / "cudabind.cpp").write_text("""#include <torch/extension.h>
void ScaleLauncher(at::Tensor x);
void scale_cuda(at::Tensor x) { ScaleLauncher(x); }
REGISTER_DEVICE_IMPL(scale_impl, CUDA, scale_cuda);
""")
    kernel = tmp_path / "scale_cuda.cu"
    kernel.write_text("""#include <torch/extension.h>
void launch(const float* x);
void ScaleLauncher(at::Tensor x) {
  launch(x.contiguous().data_ptr<float>());
}
""")
    assert [f for f in analyze_file(str(kernel)) if f.code == "HC114"] == []
    (tmp_path / "cudabind.cpp").write_text((tmp_path / "cudabind.cpp").read_text().replace(
        "REGISTER_DEVICE_IMPL(scale_impl, CUDA, scale_cuda);", ""))
    assert [f.message for f in analyze_file(str(kernel)) if f.code == "HC114"] == [
        "x.contiguous().data_ptr<float>() before checking the device of x"]


# -- HC113: bounded products and flags ----------------------------------------------------------
def test_products_bounded_by_a_value_the_code_holds():
    source = """__global__ void k(float* out, int nx, int ny, int nz) {
  for (int flat = threadIdx.x; flat < nx * ny * nz; flat += blockDim.x) {
    int x = flat / (ny * nz);
    int base = x * ny * nz;
    int rank = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    int wide = nx * ny * nz;
    int past = x * ny * nz * nx;
    out[base + rank + wide + past] = 0;
  }
}
"""
    # `base` is at most `flat` and `rank` below the block count; `wide` multiplies three unbounded
    # extents, and `past` multiplies the quotient by more than its divisor
    assert lines(source, "HC113") == [6, 7]


def test_a_numel_flag_is_not_a_count():
    source = ("#include <torch/extension.h>\nvoid run(at::Tensor b) {\n  int use_bias = b.numel() ? 1 : 0;\n"
              "  int count = b.numel();\n}\n")
    assert lines(source, "HC113", "e.cu") == [4]


# -- HC116: comments and explicit instantiations ------------------------------------------------
def test_kernels_in_comments_and_instantiating_macros_are_not_hidden_kernels():
    source = """template <typename T, int N> __global__ void soft(T* p) { p[threadIdx.x] = 0; }
#define INSTANTIATE(T) \\
    template __global__ void soft<T, 4>(T * p)
INSTANTIATE(float);
#define MAKE_KERNEL(name) __global__ void name(float* p) { p[threadIdx.x] = 1; }
MAKE_KERNEL(one)
"""
    assert [f.message for f in analyze_file("k.cu", source) if f.code == "HC116"] == [
        "kernel not analysed: kernels written through macro MAKE_KERNEL"]


# -- HC101: kernels another file launches --------------------------------------------------------
LAUNCHER = """__global__ void copy(float* out, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];
}
__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.f;
}
void launch_fill(float* out, int n) { fill<<<(n + 255) / 256, 256>>>(out, n); }
"""


def test_a_kernel_the_launching_file_never_names_is_not_judged_without_its_grid():
    assert lines(LAUNCHER, "HC101") == []


def test_a_kernel_launched_or_referenced_in_the_file_and_a_file_of_kernels_alone_are_judged():
    launched = LAUNCHER + "void launch_copy(float* o, const float* a, int n) { copy<<<(n + 255) / 256, 256>>>(o, a); }\n"
    assert lines(launched, "HC101") == [3]
    pointer = LAUNCHER + "auto copy_kernel = copy;\n"  # launched through a pointer: its grid is not known
    assert lines(pointer, "HC101") == [3]
    kernels_only = LAUNCHER.split("void launch_fill")[0]
    assert lines(kernels_only, "HC101") == [3]


# -- HC114: PyTorch's own operators --------------------------------------------------------------
ATEN_SCAN = """#include <ATen/core/Tensor.h>
#include <torch/extension.h>
void inclusive_scan(const float* in, float* out, int64_t n);
NAMESPACE_OPEN
void scan(const at::TensorBase& self, const at::TensorBase& result) {
  auto self_ = self.expect_contiguous();
  inclusive_scan(self_->const_data_ptr<float>(), result.mutable_data_ptr<float>(), self.numel());
}
NAMESPACE_CLOSE
"""


def test_aten_native_operators_get_their_tensors_on_the_device_the_dispatcher_picked():
    for opened, closed in (("namespace at::native {", "}"), ("namespace at { namespace native {", "}}")):
        source = ATEN_SCAN.replace("NAMESPACE_OPEN", opened).replace("NAMESPACE_CLOSE", closed)
        assert lines(source, "HC114", "s.cu") == [], opened


def test_a_launcher_outside_aten_native_still_checks_the_device():
    source = ATEN_SCAN.replace("NAMESPACE_OPEN", "namespace mylib {").replace("NAMESPACE_CLOSE", "}")
    assert [f.message for f in analyze_file("s.cu", source) if f.code == "HC114"] == [
        "self_->const_data_ptr<float>() before checking the device of self_"]


# -- HC113: quotients times part of their divisor, products under a guard -------------------------
def test_a_quotient_times_part_of_its_divisor_is_of_the_dividends_order():
    source = """__global__ void k(float* out, int flat, int seq, int heads, int mp, int channels) {
  int batch = flat / (seq * heads);
  int row = batch * heads * mp;
  int past = batch * heads * mp * channels;
  int other = batch * channels * mp;
  out[row + past + other] = 0;
}
"""
    # `row` is below flat / seq * mp; `past` multiplies in one extent more than it divides out, `other`
    # none of the divisor's
    assert lines(source, "HC113") == [4, 5]


def test_a_product_bounded_by_the_condition_it_sits_under():
    source = """__global__ void k(float* col, const float* vol, int height, int width, int kh, int dil, int h_in) {
  for (int j = 0; j < kh; ++j) {
    int h = h_in + j * dil;
    col[j] = h >= 0 && h < height ? vol[j * dil * width] : 0.f;
    col[j] = vol[j * dil * width];
    if (h < height) col[j] = vol[j * dil * width * kh];
    col[j] = h < height ? 0.f : vol[j * dil * width];
  }
}
"""
    # `j * dil` is below height there; unguarded, with one more extent or on the `else` side, the
    # product is still reported
    assert lines(source, "HC113") == [5, 6, 7]


# -- HC103/HC104: exits that drop whole warps -----------------------------------------------------
WARP_PER_PIXEL = """#ifdef MMCV_WITH_HIP
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif
__global__ void k(const float* in, float* out, int num_kernels) {
  __shared__ float tile[1024];
  int index = threadIdx.x + blockIdx.x * blockDim.x;
  if (index > num_kernels - 1) return;
  int pixel = index / WIDTH;
  tile[threadIdx.x] = in[pixel];
  __syncthreads();
  __syncwarp();
  out[index] = tile[threadIdx.x ^ 1];
}
"""


def test_an_exit_before_a_warp_per_item_index_drops_whole_warps():
    for width in ("WARP_SIZE", "32", "64"):
        source = WARP_PER_PIXEL.replace("WIDTH", width)
        assert lines(source, "HC103") == [] and lines(source, "HC104") == [], width


def test_an_exit_without_whole_warp_items_still_splits_warps():
    for width in ("16", "CHANNELS"):
        source = WARP_PER_PIXEL.replace("WIDTH", width)
        assert (lines(source, "HC103"), lines(source, "HC104")) == ([12], [13]), width
