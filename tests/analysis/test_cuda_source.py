"""The CudaDocument model: what the server's hovers and the rules read from a .cu file."""

from hiera_core.analysis.cuda_source import parse_cuda

SOURCE = """#include <cuda_runtime.h>
#define BLOCK 256
constexpr int kTile = 16;
// hiera: requires n % 4 == 0
// hiera: block 256
__global__ void __launch_bounds__(BLOCK, 2) add(const float* __restrict__ a, float* out, int64_t n) {
  __shared__ float tile[kTile][kTile + 1];
  extern __shared__ float dyn[];
  out[0] = a[0];
}
template <typename T, int B>
__global__ void tk(T* x) {}
namespace ns { __global__ void inner(float* p) {} }
extern "C" __global__ void c_kernel(float* p) {}
__device__ __forceinline__ float helper(float v) { return v; }
void launch(const float* a, float* b, int64_t n, cudaStream_t stream, void** args) {
  dim3 block(16, 16);
  const int threads = 128;
  add<<<(n + 255) / 256, BLOCK, 0, stream>>>(a, b, n);
  tk<float, 128><<<1, dim3(32, 4)>>>(b);
  ns::inner<<<2, threads>>>(b);
  c_kernel<<<1, block>>>(b);
  cudaLaunchKernel((const void*)add, dim3(8), block, args, 1024, stream);
}
"""


def test_kernels_and_their_parameters():
    doc = parse_cuda(SOURCE)
    assert [k.name for k in doc.kernels] == ["add", "tk", "inner", "c_kernel"]
    add = doc.function_named("add")
    assert add.launch_bounds == (256, 2)
    assert [(p.name, p.type, p.base_type, p.pointer_depth, p.is_const, p.is_restrict) for p in add.params] == [
        ("a", "const float* __restrict__", "float", 1, True, True),
        ("out", "float*", "float", 1, False, False),
        ("n", "int64_t", "int64_t", 0, False, False)]
    assert add.body is not None and add.body.type == "compound_statement"
    assert [(a.key, a.argument) for a in add.annotations] == [("requires", "n % 4 == 0"), ("block", "256")]
    tk = doc.function_named("tk")
    assert tk.is_template and tk.template_params == ["T", "B"] and tk.template_type_params == ["T"]
    assert tk.span.start_line == 10  # from `template <...>`
    helper = doc.function_named("helper")
    assert not helper.is_kernel and helper.is_gpu and "__forceinline__" in helper.qualifiers


def test_launches_with_literal_values():
    doc = parse_cuda(SOURCE)
    summary = [(launch.kernel, launch.syntax, launch.grid.dims, launch.block.dims,
                launch.shared_bytes and launch.shared_bytes.value, launch.stream and launch.stream.text)
               for launch in doc.launches]
    assert summary == [
        ("add", "chevron", None, (256, 1, 1), 0, "stream"),
        ("tk", "chevron", (1, 1, 1), (32, 4, 1), None, None),
        ("inner", "chevron", (2, 1, 1), (128, 1, 1), None, None),
        ("c_kernel", "chevron", (1, 1, 1), (16, 16, 1), None, None),
        ("add", "cudaLaunchKernel", (8, 1, 1), (16, 16, 1), 1024, "stream"),
    ]
    assert [a.text for a in doc.launches[0].args] == ["a", "b", "n"]
    assert doc.launches[0].function is not None


def test_shared_memory_declarations():
    doc = parse_cuda(SOURCE)
    assert [(s.name, s.element_type, s.is_extern, s.size_bytes) for s in doc.shared] == [
        ("tile", "float", False, 16 * 17 * 4), ("dyn", "float", True, None)]


def test_byte_positions_after_non_ascii_text():
    source = "// é€ comment\n__global__ void k(float* p) {}\n".encode()
    doc = parse_cuda(source)
    kernel = doc.kernels[0]
    assert source[kernel.name_span.start_byte:kernel.name_span.end_byte] == b"k"
    assert (kernel.name_span.start_line, kernel.name_span.start_col) == (1, 16)
    assert doc.function_at(kernel.name_span.start_byte) is kernel


def test_incremental_reparse_gives_the_same_document():
    first = parse_cuda(SOURCE)
    edited = SOURCE.replace("int64_t n) {\n  __shared__", "int64_t n, int m) {\n  __shared__")
    start = SOURCE.index("int64_t n) {\n  __shared__") + len("int64_t n")
    tree = first.tree
    inserted = len(", int m")
    line = SOURCE[:start].count("\n")
    column = start - (SOURCE.rfind("\n", 0, start) + 1)
    tree.edit(start_byte=start, old_end_byte=start, new_end_byte=start + inserted, start_point=(line, column),
              old_end_point=(line, column), new_end_point=(line, column + inserted))
    incremental = parse_cuda(edited, tree)
    assert [p.name for p in incremental.function_named("add").params] == ["a", "out", "n", "m"]
    assert incremental.tree.root_node.text == parse_cuda(edited).tree.root_node.text


def test_parse_errors_keep_the_rest_of_the_file():
    source = "extern __shared__ __align__(16) unsigned char smem[];\n__global__ void k(float* p) {}\n"
    doc = parse_cuda(source)
    assert doc.has_errors
    assert [k.name for k in doc.kernels] == ["k"]


def test_torch_extension_detection():
    assert parse_cuda("#include <torch/extension.h>\n").is_torch_extension
    assert parse_cuda("void f(at::Tensor x);\n").is_torch_extension
    assert not parse_cuda("#include <cuda_runtime.h>\n").is_torch_extension


def test_shared_scalars_and_comment_free_text():
    doc = parse_cuda("__global__ void k() { __shared__ float mean; __shared__ float s[4]; } // n % 4 == 0\n")
    assert [(s.name, s.is_array) for s in doc.shared] == [("mean", False), ("s", True)]
    assert len(doc.code_text) == len(doc.source) and b"%" not in doc.code_text


def test_bounded_captures_split_large_error_nodes_and_keep_their_matches():
    from hiera_core.analysis.cuda_source import _QUERY
    from hiera_core.analysis.cuda_syntax import MAX_QUERY_CHILDREN, bounded_captures

    source = "__global__ void k(float* p) {}\n" + "{" * (MAX_QUERY_CHILDREN + 10)
    doc = parse_cuda(source)
    assert [k.name for k in doc.kernels] == ["k"]
    assert bounded_captures(_QUERY, doc.tree.root_node).get("error")  # the split ERROR node is still reported
