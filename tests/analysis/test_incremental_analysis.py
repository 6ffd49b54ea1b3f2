"""The editor's analysis after an edit equals a cold one: the incremental parse (the previous tree,
edited, reparsed) gives the same CudaDocument as a fresh parse, and check_cuda with a rule cache
(the findings of unchanged functions reused, moved) gives the same findings as without one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hiera_core.analysis import analyze_source
from hiera_core.analysis.cuda_document import CudaDocument
from hiera_core.analysis.cuda_source import parse_cuda

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "check_corpus"
CORPUS_FILES = [
    "deepspeed/csrc/transformer/inference/csrc/transform.cu",
    "deepspeed/csrc/transformer/softmax_kernels.cu",
    "mmcv/mmcv/ops/csrc/pytorch/cuda/fused_bias_leakyrelu_cuda.cu",
    "mmcv/mmcv/ops/csrc/pytorch/cuda/sparse_maxpool.cu",
]

SOURCE = b"""#define BLOCK 256
#define WARPS 8
__device__ void helper(float* s) { s[threadIdx.x] = 1.0f; }

// hiera: requires n % 4 == 0
__global__ void scale(const float* x, float* y, int n) {
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = x[i];
    float v = tile[threadIdx.x + 1] * 0.5;
    if (threadIdx.x < 16) __syncthreads();
    y[i] = v;
}

#if defined(USE_ROCM)
__global__ void rocm_only(float* y) {
    if (threadIdx.x < 3) __syncthreads();
    y[threadIdx.x] = __shfl_down_sync(0xffff, y[threadIdx.x], 16);
}
#else
__global__ void reduce(const float* x, float* out, int n) {
    __shared__ float buf[BLOCK];
    int t = threadIdx.x;
    buf[t] = x[blockIdx.x * BLOCK + t];
    helper(buf);
    float total = buf[t + 1];
    if (t == 0) out[blockIdx.x] = total;
}
#endif

__global__ void lanes(float* y) {
    y[threadIdx.x] = __shfl_sync(0xffff, y[threadIdx.x], 0);
}

void launch(const float* x, float* y, float* out, int n) {
    scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y, n);
    reduce<<<n / BLOCK, 100>>>(x, out, n);
    lanes<<<1, 16>>>(y);
}
"""


def _point(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def edited(doc: CudaDocument, start: int, end: int, text: bytes) -> CudaDocument:
    """`doc` after replacing bytes start..end by `text`, parsed as the editor does: incrementally."""
    old, new = doc.source, doc.source[:start] + text + doc.source[end:]
    tree = doc.tree.copy()
    tree.edit(start_byte=start, old_end_byte=end, new_end_byte=start + len(text), start_point=_point(old, start),
              old_end_point=_point(old, end), new_end_point=_point(new, start + len(text)))
    return parse_cuda(new, tree)


def _value(value):
    return None if value is None else (value.text, value.span, value.value, value.dims)


def describe(doc: CudaDocument) -> tuple:
    """Everything a CudaDocument says, in plain values (its nodes differ from parse to parse)."""
    functions = [(f.name, sorted(f.qualifiers), f.span, f.name_span, f.template_params, f.launch_bounds,
                  f.launch_bounds_span, f.qualifier_macro, [(p.name, p.type, p.pointer_depth, p.is_restrict, p.span)
                                                            for p in f.params],
                  [(a.key, a.argument, a.span) for a in f.annotations], f.surroundings()) for f in doc.functions]
    launches = [(la.kernel, la.syntax, la.span, la.name_span, _value(la.grid), _value(la.block),
                 _value(la.shared_bytes), _value(la.stream), [_value(arg) for arg in la.args],
                 la.function is not None and la.function.start_byte) for la in doc.launches]
    shared = [(d.name, d.element_type, d.is_extern, d.size_bytes, d.span, d.is_array) for d in doc.shared]
    return (str(doc.tree.root_node), functions, launches, shared,
            [(a.key, a.argument, a.span, a.argument_span) for a in doc.annotations], doc.hidden_kernels,
            [(name, args.text) for name, args in doc.api_calls], doc.function_macros, doc.is_torch_extension,
            doc.file_context)


def _at(source: bytes, text: bytes) -> int:
    assert text in source, text
    return source.index(text)


def _edits(source: bytes) -> dict[str, tuple[int, int, bytes]]:
    scale, reduce_, launch = _at(source, b"__global__ void scale"), _at(source, b"__global__ void reduce"), \
        _at(source, b"void launch")
    inside = _at(source, b"    float v = ")
    return {
        "typing inside a function": (inside + 4, inside + 4, b" "),
        "a new line inside a function": (inside, inside, b"    int k = 2;\n"),
        "deleting across two functions": (_at(source, b"    y[i] = v;"), _at(source, b"    int t = threadIdx.x;"), b""),
        "joining two functions": (_at(source, b"    y[i] = v;\n}") + 13, _at(source, b"\n\n#if") + 2, b""),
        "a whole function inserted": (scale, scale, b"__global__ void extra(float* z) {\n"
                                      b"    if (threadIdx.x) __syncthreads();\n}\n\n"),
        "a whole function removed": (launch, len(source), b""),
        "an #if line changed": (_at(source, b"#if defined(USE_ROCM)"), _at(source, b"#if defined(USE_ROCM)") + 21,
                                b"#if !defined(USE_ROCM)"),
        "an #endif removed": (_at(source, b"#endif"), _at(source, b"#endif") + 7, b""),
        "an #if inserted around a function": (reduce_, reduce_, b"#ifdef __HIP_PLATFORM_AMD__\n"),
        "a macro changed": (_at(source, b"#define BLOCK 256") + 14, _at(source, b"#define BLOCK 256") + 17, b"25600"),
        "a launch's block changed": (_at(source, b"<<<1, 16>>>") + 6, _at(source, b"<<<1, 16>>>") + 8, b"32"),
        "lines added above everything": (0, 0, b"// a comment\n\n"),
        "an unbalanced brace": (reduce_, reduce_, b"{"),
    }


@pytest.mark.parametrize("name", list(_edits(SOURCE)))
def test_an_incremental_parse_gives_the_document_of_a_fresh_parse(name):
    start, end, text = _edits(SOURCE)[name]
    doc = edited(parse_cuda(SOURCE), start, end, text)
    assert describe(doc) == describe(parse_cuda(doc.source))


def _key(item) -> tuple:
    return (item.start_byte, item.end_byte, item.code, item.start_line, item.start_col_byte, item.end_line,
            item.end_col_byte, item.severity, item.message, item.hint, item.path)


def cold(path: str, source: bytes, arch: str | None) -> list[tuple]:
    return sorted(map(_key, analyze_source(path, source, parse_cuda(source), arch)))


def cached(path: str, doc: CudaDocument, arch: str | None, cache: dict) -> list[tuple]:
    return sorted(map(_key, analyze_source(path, doc.source, doc, arch, cache)))


@pytest.mark.parametrize("name", list(_edits(SOURCE)))
def test_the_rule_cache_gives_the_findings_of_a_cold_analysis_after_each_kind_of_edit(name):
    cache: dict = {}
    doc = parse_cuda(SOURCE)
    assert cached("k.cu", doc, "sm_52", cache) == cold("k.cu", SOURCE, "sm_52")
    start, end, text = _edits(SOURCE)[name]
    doc = edited(doc, start, end, text)
    assert cached("k.cu", doc, "sm_52", cache) == cold("k.cu", doc.source, "sm_52")


def test_findings_of_an_unchanged_function_move_with_it_and_name_their_new_lines():
    cache: dict = {}
    before = analyze_source("k.cu", SOURCE, parse_cuda(SOURCE), None, cache)
    barrier = next(item for item in before if item.code == "HC102" and "threadIdx.x < 16" in item.message)
    assert f"(line {barrier.start_line + 1})" in barrier.message
    doc = edited(parse_cuda(SOURCE), 0, 0, b"\n\n\n")
    after = analyze_source("k.cu", doc.source, doc, None, cache)
    moved = next(item for item in after if item.code == "HC102" and "threadIdx.x < 16" in item.message)
    assert (moved.start_line, moved.start_byte) == (barrier.start_line + 3, barrier.start_byte + 3)
    assert f"(line {barrier.start_line + 4})" in moved.message


def test_a_barrier_added_to_a_called_function_changes_the_callers_race_findings():
    # reduce reads buf[t + 1] after helper(buf): a race until helper synchronises
    cache: dict = {}
    doc = parse_cuda(SOURCE)
    assert any(item[2] == "HC117" and "buf[t + 1]" in item[8] for item in cached("k.cu", doc, None, cache))
    at = _at(SOURCE, b"s[threadIdx.x] = 1.0f;") + len(b"s[threadIdx.x] = 1.0f;")
    doc = edited(doc, at, at, b" __syncthreads();")
    after = cached("k.cu", doc, None, cache)
    assert after == cold("k.cu", doc.source, None)
    assert not any(item[2] == "HC117" and "buf[t + 1]" in item[8] for item in after)


def test_only_the_entries_of_the_last_analysis_are_kept():
    cache: dict = {}
    doc = parse_cuda(SOURCE)
    cached("k.cu", doc, None, cache)
    size = len(cache)
    for _ in range(5):
        inside = _at(doc.source, b"    float v = ")
        doc = edited(doc, inside, inside, b"    v += 1;\n")
        cached("k.cu", doc, None, cache)
    assert len(cache) == size


def _random_edit(rng: random.Random, source: bytes) -> tuple[int, int, bytes]:
    lines = source.split(b"\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    kind = rng.choice(["type", "newline", "delete lines", "duplicate lines", "move text", "brace"])
    line = rng.randrange(len(lines))
    at = starts[line] + rng.randint(0, len(lines[line]))
    if kind == "type":
        return at, at, rng.choice([b" ", b"x", b"1", b";", b"*", b"threadIdx.x"])
    if kind == "newline":
        return at, at, b"\n"
    if kind == "brace":
        return at, at, rng.choice([b"{", b"}", b"#endif\n", b"#if 0\n"])
    last = min(len(lines) - 1, line + rng.randint(1, 12))
    end = starts[last]
    if kind == "delete lines":
        return starts[line], end, b""
    if kind == "duplicate lines":
        return starts[line], starts[line], source[starts[line]:end]
    other = starts[rng.randrange(len(lines))]
    return other, other, source[starts[line]:end]  # "move text": a copy elsewhere


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_random_edits_of_real_files_give_the_findings_of_a_cold_analysis(name):
    rng = random.Random(name)
    path = str(CORPUS / name)
    doc = parse_cuda((CORPUS / name).read_bytes())
    cache: dict = {}
    assert cached(path, doc, "sm_52", cache) == cold(path, doc.source, "sm_52")
    for step in range(25):
        doc = edited(doc, *_random_edit(rng, doc.source))
        assert cached(path, doc, "sm_52", cache) == cold(path, doc.source, "sm_52"), f"edit {step}"
