"""No GPU needed: which template each task gets, and that every generated proposal compiles
(Python with compile(), kernels with NVRTC for sm_90) with sane resources."""

from __future__ import annotations

import ast
import re

import pytest
from helpers.cuda_tasks import (
    EXTRA_TASKS,
    TASKS,
    candidate_for,
    check_emulated,
    emulated_stencils,
    example_task,
    extra_task,
    forward_of,
    forward_source,
    load_task,
    task_context,
)

pytest.importorskip("cuda.bindings")

from hiera_core.cuda.nvrtc import compile_cuda, origin_in
from hiera_core.cuda.resources import kernel_resources
from hiera_core.spaces import strategies
from hiera_core.spaces.custom_cuda import STRATEGIES, plan_from_spec
from hiera_core.spaces.strategy import ImplementContext
from hiera_core.verify.static_checks import check_candidate as static_problems

EXPECTED = {
    "elementwise_chain": "custom_cuda.pointwise_chain",
    "gemm_epilogue": "custom_cuda.pointwise_chain",
    "conv2d_relu_bias": "custom_cuda.pointwise_chain",
    "small_mlp": None,  # each ReLU alone after its GEMM: nothing to fuse
    "launch_bound": "custom_cuda.row_reduction",
    "softmax": "custom_cuda.row_reduction",
    "layernorm": "custom_cuda.row_reduction",
    "rmsnorm_block": "custom_cuda.row_reduction",
    "sum_reduction": "custom_cuda.row_reduction",
    "maxpool2d": "custom_cuda.pooling",
    "stencil3d": "custom_cuda.stencil",
}
# Reference ops a proposal must no longer call (it replaces them with its kernels).
REPLACED = {
    "elementwise_chain": {"gelu", "sigmoid", "clamp"}, "gemm_epilogue": {"relu"}, "conv2d_relu_bias": {"relu"},
    "launch_bound": {"tanh", "mean", "sigmoid", "exp"}, "softmax": {"softmax"}, "layernorm": {"layer_norm", "ln"},
    "rmsnorm_block": {"rsqrt", "mean", "pow"}, "sum_reduction": {"sum"}, "maxpool2d": {"max_pool2d", "pool"},
    "stencil3d": {"conv3d"},
}


def called(code: str) -> set[str]:
    """Last name of every function or method ModelNew.forward calls (`F.linear` -> `linear`)."""
    calls = [n.func for n in ast.walk(forward_of(code)) if isinstance(n, ast.Call)]
    return {f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "") for f in calls}


def check_candidate(ctx, key, candidate):
    assert candidate is not None and candidate.name == key
    assert candidate.space == "custom_cuda" and candidate.requires_cuda and candidate.cuda_sources
    compile(candidate.code, "candidate.py", "exec")
    tree = ast.parse(candidate.code)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    assert [b.id for b in classes["ModelNew"].bases] == [ctx.reference_class]
    imports = {alias.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for alias in n.names}
    imports |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imports <= {"ctypes", "hashlib", "math", "os", "torch", "cuda"}, imports
    assert not any(isinstance(n, ast.Try) for n in ast.walk(tree)), "no try/except fallback"
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id.startswith(("_hiera", "_HIERA"))}
    assert used <= defined, f"the proposal uses undefined {used - defined}"
    assert "super().forward" not in candidate.code
    assert static_problems(candidate.code, "custom_cuda", ctx.reference_class) == []
    for source in candidate.cuda_sources:
        assert source in candidate.code
        result = compile_cuda(source, arch="sm_90", origin=origin_in(candidate.code, source, "candidate.py"))
        assert result.ok, result.error_text()
        report = kernel_resources(source, arch="sm_90", compiled=result)
        assert report.kernels
        for kernel in report.kernels:
            assert kernel.registers > 0 and kernel.spill_stores == 0, kernel.summary()
            assert kernel.occupancy is not None and kernel.occupancy.blocks_per_sm > 0, kernel.summary()


@pytest.mark.parametrize("name", sorted(TASKS))
def test_example_gets_its_template_and_compiles(name):
    ctx = task_context(example_task(name))
    key, candidate = candidate_for(ctx)
    assert key == EXPECTED[name], plan_from_spec(ctx.spec)
    if key is None:
        return
    check_candidate(ctx, key, candidate)
    still = called(candidate.code) & REPLACED[name]
    assert not still, f"{name}: forward still calls {still}:\n{forward_source(candidate.code)}"


@pytest.mark.parametrize("name", sorted(EXTRA_TASKS))
def test_extra_task_gets_its_template_and_compiles(name, tmp_path):
    ctx = task_context(extra_task(name, tmp_path))
    key, candidate = candidate_for(ctx)
    assert key == f"custom_cuda.{EXTRA_TASKS[name][0]}", plan_from_spec(ctx.spec)
    check_candidate(ctx, key, candidate)


def test_a_short_dims_reductions_fuse_into_one_row_kernel_and_a_long_dims_take_the_dim_template(tmp_path):
    """A layer norm over 40 channels of 18430 positions is one kernel; amax over 301 entries of 256
    rows stays a step of its own."""
    _, by_hand = candidate_for(task_context(extra_task("layer_norm_channels_by_hand", tmp_path)))
    forward = ast.unparse(forward_of(by_hand.code))
    assert len(by_hand.cuda_sources) == 1 and forward.count("_hiera_rows(") == 1 and "dim=1)" in forward
    # the per-channel weight and bias read at the row's step where the runtime finds them so
    source = by_hand.cuda_sources[0]
    assert len(re.findall(r"\(I\)ex(\d) == cols \? p\1\[k\]", source)) == 2 * 2  # both forms
    _, long_dim = candidate_for(task_context(extra_task("amax_mean_middle", tmp_path)))
    assert "_hiera_reduce(" in ast.unparse(forward_of(long_dim.code))


def test_strategies_are_registered_through_the_space_registry():
    keys = set(strategies())
    assert {"custom_cuda.pointwise_chain", "custom_cuda.row_reduction", "custom_cuda.pooling",
            "custom_cuda.stencil"} <= keys


def test_gemm_epilogue_calls_the_library_explicitly_then_one_kernel():
    ctx = task_context(example_task("gemm_epilogue"))
    _, candidate = candidate_for(ctx)
    forward = forward_source(candidate.code)
    # The Linear's bias is added by the epilogue kernel, as Inductor does (cuBLASLt's bias epilogue
    # picks slower float32 kernels): the GEMM without it, then one kernel reading it.
    assert "torch.nn.functional.linear(x, self.linear.weight)" in forward
    assert forward.count("_hiera_pointwise(") == 1 and "self.linear.bias" in forward


def test_a_linear_keeps_its_bias_where_no_generated_kernel_reads_its_whole_output(tmp_path):
    path = tmp_path / "task.py"
    path.write_text("""import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(64, 256), nn.Linear(256, 64), nn.Linear(64, 64)
        self.w, self.b = nn.Parameter(torch.randn(64, 64)), nn.Parameter(torch.randn(64))

    def forward(self, x):
        h = self.fc2(F.gelu(self.fc1(x)))  # fc1 read by a kernel; fc2 by another GEMM
        return F.layer_norm(F.linear(self.fc3(h), self.w, self.b), (64,))  # fc3 by a GEMM; F.linear by a kernel


def get_inputs():
    return [torch.randn(4, 32, 64)]


def get_init_inputs():
    return []
""")
    _, candidate = candidate_for(task_context(load_task(path)))
    forward = forward_source(candidate.code)
    assert "torch.nn.functional.linear(x, self.fc1.weight)" in forward
    assert "self.fc2.weight, self.fc2.bias)" in forward and "self.fc3.weight, self.fc3.bias)" in forward
    assert "torch.nn.functional.linear(v_fc3, self.w)" in forward
    assert forward.count("_hiera_pointwise(") == 1 and forward.count("_hiera_rows(") == 1


def test_softmax_is_one_online_pass_plus_the_output_pass():
    ctx = task_context(example_task("softmax"))
    _, candidate = candidate_for(ctx)
    (source,) = candidate.cuda_sources
    whole_rows, split_rows = source.split("void hi_rows_split(")
    # four float4 lanes in the loop over registers (whole rows only), four in the loop over the
    # row, and the scalar loop
    for kernel, adds in ((whole_rows, 9), (split_rows, 5)):
        assert kernel.count("hi_online_add(acc_") == adds
        assert "hi_block_online(acc_" in kernel and "hi_block_max(acc_" not in kernel
    assert "('row',), 1, split=(2, 2))" in candidate.code  # split: one launch for the max and sum, one for the outputs


def test_stencil_prunes_taps_of_a_buffer_but_not_of_a_parameter(tmp_path):
    _, seven = candidate_for(task_context(example_task("stencil3d")))
    assert "7 taps" in seven.cuda_sources[0] and "SLOTS = 2" in seven.cuda_sources[0]
    assert "keeps its zero pattern" in seven.code
    _, dense = candidate_for(task_context(extra_task("stencil3d_dense", tmp_path)))
    assert "27 taps" in dense.cuda_sources[0] and "SLOTS = 4" in dense.cuda_sources[0]
    assert "keeps its zero pattern" not in dense.code


@pytest.mark.parametrize("width,bx", [(256, 64), (32, 32), (33, 32), (129, 64)])
def test_stencil_rows_narrow_to_a_narrow_grid(width, bx):
    """The 3D tile's rows narrow while the grid fits in half of them; the tile compiles without
    spills at every width."""
    from hiera_core.spaces.custom_cuda.stencil_template import stencil_source, stencil_tile

    tile = stencil_tile(width)
    assert tile["bx"] == bx
    taps = [(0, 0, 0)] + [tuple(d if axis == i else 0 for axis in range(3)) for i in range(3) for d in (-1, 1)]
    (kernel,) = kernel_resources(stencil_source("hiera_stencil0", taps, tile).source).kernels
    assert kernel.spill_stores == 0 and kernel.launch_bounds == bx * tile["by"]


def test_the_3d_stencil_runs_float4_columns_with_the_halo_queued_ahead():
    """The measured 3D tile: 4 columns a thread (one float4 load and store a plane), the halo's loads
    queued planes ahead, streaming stores; launched with as many columns per thread as it compiled."""
    _, candidate = candidate_for(task_context(example_task("stencil3d")))
    (source,) = candidate.cuda_sources
    assert "VX = 4" in source and "halo_load(z + 3, halo_far);" in source and "__stcs(" in source
    assert ", (64, 4, 4, 16, 4))" in candidate.code  # 64x4 threads, 4 rows, 16 planes, 4 columns each
    (kernel,) = kernel_resources(source).kernels
    assert kernel.spill_stores == 0 and kernel.occupancy.blocks_per_sm >= 4


@pytest.mark.parametrize("options", [{"vx": 4, "mb": 4}, {"vx": 4, "halo_ahead": 1, "mb": 4}, {"halo_ahead": 1}, {"stcs": 1, "mb": 4}])
@pytest.mark.parametrize("taps", ["seven", "dense"])
def test_stencil_tile_options_compile_for_7_and_27_points(options, taps):
    from hiera_core.spaces.custom_cuda.stencil_template import stencil_source

    points = ([(0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)] if taps == "seven"
              else [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)])
    tile = {"bx": 64, "by": 4, "ry": 1 if "vx" in options else 4, "zc": 16, **options}
    (kernel,) = kernel_resources(stencil_source("hiera_stencil0", points, tile).source).kernels
    assert kernel.launch_bounds == 256 and kernel.spill_stores == 0


def test_stencil_columns_per_thread_other_than_1_or_4_are_refused():
    from hiera_core.spaces.custom_cuda.stencil_template import stencil_source

    with pytest.raises(ValueError, match="columns per thread must be 1 or 4"):
        stencil_source("hiera_stencil0", [(0, 0, 0)], {"bx": 64, "by": 4, "ry": 1, "zc": 16, "vx": 2})


def test_a_generated_3d_stencil_launches_the_narrowed_tile_it_compiled(tmp_path):
    _, candidate = candidate_for(task_context(extra_task("stencil3d_dense", tmp_path)))  # 40 wide
    assert "constexpr int BX = 32," in candidate.cuda_sources[0] and ", (32, 4, 4, 16, 4))" in candidate.code


@pytest.mark.parametrize("name, columns", [("stencil2d_depthwise", True), ("box_blur2d", True),
                                           ("depthwise7_module", True), ("depthwise5_same", False)])
def test_2d_windows_take_the_column_kernel_but_wide_ones_on_wide_maps(name, columns, tmp_path):
    """Every 3x3 2D stencil (50 and 70 wide here) and a 7x7 on a 57-wide map take a thread per
    column; a 5x5 on a 130-wide map keeps the wide depthwise tile (measured faster there)."""
    _, candidate = candidate_for(task_context(extra_task(name, tmp_path)))
    assert ("'columns'" in forward_source(candidate.code)) == columns
    assert ("column stencil" in candidate.cuda_sources[0]) == columns


def test_layernorm_caches_the_row_for_its_later_sweeps():
    _, candidate = candidate_for(task_context(example_task("layernorm")))
    forward = forward_source(candidate.code)
    assert forward.rstrip().splitlines()[-2].rstrip().endswith("('row',), 1, split=(3, 2))")  # one cached leaf: x


def test_inference_batch_norm_fuses_into_the_library_convs_epilogue(tmp_path):
    """Conv + BatchNorm (eval) + ReLU: cuDNN's conv, then one kernel reading the running statistics
    per channel; the proposal's header states the inference contract."""
    _, candidate = candidate_for(task_context(extra_task("batchnorm_relu", tmp_path)))
    forward = forward_source(candidate.code)
    assert "self.bn.running_var.view(-1, 1, 1)" in forward and forward.count("_hiera_pointwise(") == 1
    assert "contract: batch norm bn normalizes by its running statistics" in candidate.code


def test_group_norm_gets_its_two_kernel_template_with_the_activation_fused(tmp_path):
    """A group's statistics span channels and space: partial sums over chunks of each group, then a
    normalising pass, which also applies what only transforms its output (SiLU)."""
    _, module = candidate_for(task_context(extra_task("group_norm_module", tmp_path)))
    assert "_hiera_group_norm(_HIERA_SRC_0, 'hiera_group_norm0', x, 4, self.norm.weight, self.norm.bias, 1e-05)" \
        in forward_source(module.code)
    _, functional = candidate_for(task_context(extra_task("group_norm_functional", tmp_path)))
    forward = forward_source(functional.code)
    assert "v_silu = _hiera_group_norm(_HIERA_SRC_0, 'hiera_group_norm0', x, 2, None, None, 0.001)" in forward
    assert "_hiera_pointwise" not in forward
    (source,) = functional.cuda_sources
    assert "l0 / (1.0f + expf(-l0))" in source
    assert {k.name for k in kernel_resources(source).kernels} == {"hiera_group_norm0_stats", "hiera_group_norm0_apply"}


def test_a_layer_norm_over_several_dims_gets_the_group_norm_template(tmp_path):
    """LayerNorm([C, H, W]) (KernelBench's, long rows and few): each row one group of the two-kernel
    template, its points the group's "channels", so the per-point weight and bias apply; on the CPU
    with the kernel emulated by the group norm it computes, the reference's values. A GELU after the
    functional form is applied as it stores."""
    import torch.nn.functional as F

    task = extra_task("layer_norm_dims_module", tmp_path)
    key, module = candidate_for(task_context(task))
    assert key == "custom_cuda.row_reduction"
    assert ("_hiera_group_norm(_HIERA_SRC_0, 'hiera_group_norm0', x.reshape(-1, 240, 1), 1, "
            "self.norm.weight.reshape(-1), self.norm.bias.reshape(-1), 1e-05).view_as(x)") in forward_source(module.code)

    def emulated(source, name, x, groups, weight, bias, eps):
        return F.group_norm(x, groups, weight, bias, eps)

    check_emulated(task, module.code, _hiera_group_norm=emulated)
    _, functional = candidate_for(task_context(extra_task("layer_norm_dims_functional", tmp_path)))
    forward = forward_source(functional.code)
    assert "x.reshape(-1, 60, 1), 1, None, None, 0.001).view_as(x)" in forward and "_hiera_pointwise" not in forward
    (source,) = functional.cuda_sources
    assert {k.name for k in kernel_resources(source).kernels} == {"hiera_group_norm0_stats", "hiera_group_norm0_apply"}


def test_a_group_norm_output_read_twice_keeps_its_own_value(tmp_path):
    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                    "class Model(nn.Module):\n    def forward(self, x):\n        y = F.group_norm(x, 2)\n"
                    "        return torch.relu(y), y * 2.0\n\n\n"
                    "def get_inputs():\n    return [torch.randn(2, 4, 8, 8)]\n\n\ndef get_init_inputs():\n    return []\n")
    from helpers.cuda_tasks import load_task

    _, candidate = candidate_for(task_context(load_task(path)))
    forward = forward_source(candidate.code)
    assert "v_group_norm = _hiera_group_norm(" in forward and "_hiera_pointwise(" in forward
    assert "hi_epilogue_of" not in candidate.cuda_sources[0]


def test_batch_norm_in_training_mode_is_not_folded(tmp_path):
    task = extra_task("batchnorm_relu", tmp_path)
    ctx = task_context(task)
    ctx.model.train()  # batch statistics: no template computes them
    assert STRATEGIES["pointwise"].generate(ctx) is None


def test_a_per_channel_broadcast_is_read_with_one_division_per_float4(tmp_path):
    _, candidate = candidate_for(task_context(extra_task("batchnorm_relu", tmp_path)))
    (source,) = candidate.cuda_sources
    assert "if (inner % 4 == 0) { const float v = p[i / inner % extent]; return make_float4(v, v, v, v); }" in source


def test_per_channel_leaves_of_one_shape_share_one_broadcast_index(tmp_path):
    """A batch norm's four per-channel tensors read element by element: one division by the run-time
    extent per element, the first one's, where the others' modes and extents agree at run time."""
    _, candidate = candidate_for(task_context(extra_task("batchnorm_relu", tmp_path)))
    (source,) = candidate.cuda_sources
    body = source.split("hi_pointwise(", 1)[1]
    assert body.count("i / (I)in") == 1 and "const bool hs1 = m1 == 4;" in body
    for k in (2, 3, 4):
        assert f"hs1 && m{k} == 4 && in{k} == in1 && ex{k} == ex1 ? p{k}[hb1] : hi_ld<I>(p{k}," in body


@pytest.mark.parametrize("body, why", [
    ("torch.cummax(x, dim=1).values", "cummax"),
    ("torch.nn.functional.dropout(x, 0.5) * 2", "dropout"),
    ("x.sum(dim=(0, 1), dtype=torch.float64)", "float32 (and masks) only"),
    ("torch.logcumsumexp(x, dim=1)", "logcumsumexp"),
])
def test_graphs_without_a_template_are_refused_with_a_reason(body, why, tmp_path):
    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                    f"    def forward(self, x):\n        return {body}\n\n\n"
                    "def get_inputs():\n    return [torch.randn(8, 16)]\n\n\ndef get_init_inputs():\n    return []\n")
    from helpers.cuda_tasks import load_task

    ctx = task_context(load_task(path))
    assert candidate_for(ctx) == (None, None)
    reason = plan_from_spec(ctx.spec)
    assert isinstance(reason, str) and why in reason


def test_runtime_carries_only_what_a_proposal_calls():
    from hiera_core.cuda.proposal import runtime_source

    stencil_only = runtime_source({"_hiera_stencil"})
    assert "def _hiera_stencil(" in stencil_only and "def _hiera_launch(" in stencil_only
    assert "def _hiera_pointwise(" not in stencil_only and "def _hiera_leaf(" not in stencil_only
    pointwise = runtime_source({"_hiera_pointwise"})
    assert "def _hiera_leaf(" in pointwise and "def _hiera_broadcast(" in pointwise
    with pytest.raises(ValueError, match="no runtime helper"):
        runtime_source({"_hiera_missing"})


@pytest.mark.parametrize("name", [
    "launch_bound", "rmsnorm_block", "small_mlp",
    *(pytest.param(n, marks=pytest.mark.slow) for n in ("elementwise_chain", "softmax", "sum_reduction", "stencil3d")),
])
def test_with_the_engines_spec(name):
    """The same choice and a candidate from the spec and graph the engine builds (hiera_core.spec.contract)."""
    from hiera_core.spec.contract import prepare
    from hiera_core.task.load import load_task

    task = load_task(str(example_task(name).path))
    prepared = prepare(task, "cpu", gpu="h200", measure=False)
    applying = [s for s in STRATEGIES.values() if s.applies(prepared.spec)]
    assert [s.key for s in applying] == ([EXPECTED[name]] if EXPECTED[name] else [])
    for strategy in applying:
        ctx = ImplementContext(prepared.spec, task.class_name, prepared.model, prepared.inputs, prepared.graph, "cpu")
        check_candidate(ctx, strategy.key, strategy.generate(ctx))


def test_planning_imports_no_torch():
    """The planner runs `applies` in a torch-free process: the space must not import torch."""
    import subprocess
    import sys

    code = ("import sys; import hiera_core.spaces.custom_cuda, hiera_core.cuda.nvrtc, hiera_core.cuda.resources; "
            "import hiera_core.cuda.cli; assert 'torch' not in sys.modules, 'torch imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name, call", [("stencil3d_slices", "_hiera_stencil_constant("),
                                        ("heat2d_two_steps_slices", "_hiera_stencil_steps(")])
def test_a_stencil_spelled_with_slices_of_a_padded_grid_is_one_kernel(name, call, tmp_path):
    """The slices' taps and factors become the stencil's constant coefficients, and 2D steps that
    feed each other one kernel fused in time: run on the CPU with the kernel emulated by the
    convolutions it computes, the proposal matches the reference."""
    task = extra_task(name, tmp_path)
    key, candidate = candidate_for(task_context(task))
    assert key == "custom_cuda.stencil"
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_stencil") == 1 and forward.count(call) == 1
    assert "_hiera_pointwise(" not in candidate.code.split("class ModelNew")[1]  # the update is in the stencil
    check_emulated(task, candidate.code, **emulated_stencils())


SWEEPS_TASK = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, u):
        history = []
        for number in range({sweeps}):
            p = F.pad(u, (1, 1, 1, 1))
            u = {factor} * (p[..., 1:-1, 1:-1] + p[..., 1:-1, :-2] + p[..., 1:-1, 2:] + p[..., 2:, 1:-1]
                            + p[..., :-2, 1:-1]) - 0.01 * number * p[..., 2:, 2:]
            history.append(u)
        return {returns}


def get_inputs():
    return [torch.randn(2, 29, 41)]


def get_init_inputs():
    return []
"""


@pytest.mark.parametrize("sweeps, returns, kernels", [
    (5, "u", [4, 1]),  # at most 4 steps a kernel: the halo grows a point a step
    (3, "u, history[0]", [1, 2]),  # a step's output that is also returned is written: no fusion across it
    (2, "u", [2]),
])
def test_stencil_steps_that_feed_each_other_fuse_in_time_in_order(sweeps, returns, kernels, tmp_path):
    """Each step keeps its own coefficients, in order (the corner tap differs per step), and the
    proposal matches the reference on the CPU with its kernels emulated."""
    from helpers.cuda_tasks import load_task

    path = tmp_path / "task.py"
    path.write_text(SWEEPS_TASK.format(sweeps=sweeps, factor=0.2, returns=returns))
    task = load_task(path)
    key, candidate = candidate_for(task_context(task))
    assert key == "custom_cuda.stencil"
    calls = [node for node in ast.walk(ast.parse(forward_source(candidate.code).strip()))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "").startswith("_hiera_stencil")]
    steps = [len(call.args[3].elts) if call.func.id == "_hiera_stencil_steps" else 1 for call in calls]
    assert sorted(steps) == sorted(kernels)
    check_emulated(task, candidate.code, **emulated_stencils())


# The time-fused stencil's load options (the default tile has float4 loads).
STEPS_OPTIONS = {"plain": {"vector": False}, "batched": {"batched": True, "vector": False}, "vector": {"vector": True},
                 "swept": {"vector": True, "sweep": True}}


@pytest.mark.parametrize("option", list(STEPS_OPTIONS))
@pytest.mark.parametrize("steps", [1, 2, 3, 4])
def test_stencil_steps_compile_without_spills_in_static_shared_memory(steps, option):
    from hiera_core.spaces.custom_cuda.stencil_steps_template import (
        STENCIL_STEPS_TILE,
        VECTOR_WIDTH,
        stencil_steps_source,
        stencil_steps_tile,
    )

    five = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
    tile = stencil_steps_tile(steps, {**STENCIL_STEPS_TILE, **STEPS_OPTIONS[option]})
    (kernel,) = kernel_resources(stencil_steps_source("hiera_stencil0", [five] * steps, tile).source).kernels
    assert kernel.spill_stores == 0 and kernel.launch_bounds == 256
    halo_columns = VECTOR_WIDTH if tile.get("vector") else steps
    assert kernel.static_smem == 2 * 4 * (tile["th"] + 2 * steps) * (tile["tw"] + 2 * halo_columns) <= 48 * 1024


@pytest.mark.parametrize("name", ["depthwise7_module", "depthwise5_same"])
def test_a_wider_depthwise_convolution_gets_the_depthwise_template(name, tmp_path):
    """Run on the CPU with the kernel emulated by the convolution it computes, the proposal matches
    the reference."""
    import torch.nn.functional as F

    task = extra_task(name, tmp_path)
    key, candidate = candidate_for(task_context(task))
    assert key == "custom_cuda.stencil" and forward_source(candidate.code).count("_hiera_depthwise(") == 1

    def emulated(source, kernel_name, x, weight, bias, tile):
        return F.conv2d(x, weight, bias, padding=weight.shape[-1] // 2, groups=x.shape[1])

    check_emulated(task, candidate.code, _hiera_depthwise=emulated)


@pytest.mark.parametrize("name, call, per_channel", [("depthwise5_relu6", "_hiera_depthwise(", 0),
                                                     ("depthwise5_bn_silu", "_hiera_depthwise(", 4),
                                                     ("depthwise3_bn_relu6", "_hiera_stencil(", 4)])
def test_what_follows_a_depthwise_convolution_is_applied_as_it_stores(name, call, per_channel, tmp_path):
    """Depthwise 5x5 then ReLU6, or then inference batch norm and SiLU, and MobileNet's 3x3 then batch
    norm and ReLU6 (the norm's four per-channel tensors read once per grid, its rsqrt computed once
    per thread before the row loop): one kernel, no pointwise kernel after it, and it compiles."""
    _, candidate = candidate_for(task_context(extra_task(name, tmp_path)))
    forward = forward_source(candidate.code)
    assert forward.count(call) == 1 and "_hiera_pointwise(" not in forward
    source = candidate.code.split('_HIERA_SRC_0 = r"""')[1].split('"""')[0]
    assert source.count("__ldg(e") == per_channel
    if per_channel:
        assert source.count("rsqrtf(") == 1 and "hi_epilogue_of" not in source
        assert source.index("hi_epilogue_parts(c0") < source.index("for (int y = y0") < source.index("hi_epilogue_hoisted(acc")
    else:
        assert "hi_epilogue_of" in source
    (kernel,) = kernel_resources(source).kernels
    assert kernel.spill_stores == 0


@pytest.mark.parametrize("name, call", [("depthwise3_narrow_bn_relu6", "_hiera_stencil("),
                                        ("depthwise7_narrow", "_hiera_depthwise("),
                                        ("heat2d_narrow_slices", "_hiera_stencil_constant(")])
def test_narrow_maps_take_a_thread_per_column(name, call, tmp_path):
    """A 3x3 depthwise with its norm and ReLU6 on a 14-wide map, a 7x7 on a 9-wide one and a slices
    stencil 12 wide: the column kernel (its epilogue applied as it stores), which compiles without
    spills; run on the CPU with the kernels emulated by the convolutions they compute (the
    epilogue's norm and clamp applied after), the proposal matches the reference."""
    import torch
    import torch.nn.functional as F

    task = extra_task(name, tmp_path)
    _, candidate = candidate_for(task_context(task))
    forward = forward_source(candidate.code)
    assert forward.count(call) == 1 and "'columns'" in forward and "_hiera_pointwise(" not in forward
    (source,) = candidate.cuda_sources
    assert "column stencil" in source
    (kernel,) = kernel_resources(source).kernels
    assert kernel.spill_stores == 0 and kernel.launch_bounds == 256

    def convolution(source, kernel_name, x, weight, bias, *rest):
        per_channel = rest[-1] if isinstance(rest[-1], tuple) else ()  # after the rank and tile
        y = F.conv2d(x, weight, bias, padding=weight.shape[-1] // 2, groups=x.shape[1])
        if per_channel:  # an inference batch norm's mean, var, weight, bias, then ReLU6
            mean, var, scale, shift = (v.reshape(1, -1, 1, 1) for v in per_channel)
            y = F.relu6((y - mean) / torch.sqrt(var + 1e-5) * scale + shift)
        return y

    check_emulated(task, candidate.code, 1e-4, **emulated_stencils(), _hiera_stencil=convolution,
                   _hiera_depthwise=convolution)


@pytest.mark.parametrize("kernel, taps", [(3, "five"), (3, "dense"), (5, "dense"), (7, "dense"), (9, "dense")])
def test_the_column_kernel_compiles_without_spills_for_every_window(kernel, taps):
    from hiera_core.spaces.custom_cuda.columns_template import columns_source, square_taps

    points = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] if taps == "five" else square_taps(kernel)
    (compiled,) = kernel_resources(columns_source("hiera_stencil0", kernel, points).source).kernels
    assert compiled.spill_stores == 0 and compiled.launch_bounds == 256


def test_the_column_kernel_refuses_taps_outside_its_window():
    from hiera_core.spaces.custom_cuda.columns_template import columns_source

    with pytest.raises(ValueError, match="taps within their radii"):
        columns_source("hiera_stencil0", 3, [(0, 2)])
    with pytest.raises(ValueError, match="taps within their radii"):
        columns_source("hiera_stencil0", (3, 1), [(0, 1)])
    with pytest.raises(ValueError, match=r"crops at most its radii \(1, 0\)"):
        columns_source("hiera_stencil0", (3, 1), [(0, 0)], crop=(1, 1))


def test_a_per_channel_value_the_forward_computes_stays_out_of_the_depthwise_store(tmp_path):
    """The scale is computed in the forward after the convolution (each channel's mean of the input,
    a kernel of its own): the depthwise kernel cannot read it before it exists, so the product stays
    a pointwise kernel of its own. (A sigmoid of a parameter is no kernel: it is computed in the
    epilogue itself.)"""
    from helpers.cuda_tasks import load_task

    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def __init__(self):\n"
                    "        super().__init__()\n        self.dw = nn.Conv2d(4, 4, 7, padding=3, groups=4)\n"
                    "\n    def forward(self, x):\n"
                    "        return self.dw(x) * x.mean(dim=(0, 2, 3), keepdim=True)\n\n\ndef get_inputs():\n"
                    "    return [torch.randn(2, 4, 20, 24)]\n\n\ndef get_init_inputs():\n    return []\n")
    _, candidate = candidate_for(task_context(load_task(path)))
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_depthwise(") == 1 and "_hiera_pointwise(" in forward


@pytest.mark.parametrize("conv", ["nn.Conv2d(4, 4, 7, padding=4, groups=4)", "nn.Conv2d(4, 4, 5, stride=2, padding=2, groups=4)",
                                  "nn.Conv2d(4, 4, 11, padding=5, groups=4)", "nn.Conv2d(4, 8, 7, padding=3, groups=4)"])
def test_depthwise_convolutions_the_template_does_not_compute_are_left_to_cudnn(conv, tmp_path):
    from helpers.cuda_tasks import load_task

    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def __init__(self):\n"
                    f"        super().__init__()\n        self.conv = {conv}\n\n    def forward(self, x):\n"
                    "        return self.conv(x)\n\n\ndef get_inputs():\n    return [torch.randn(2, 4, 20, 24)]\n\n\n"
                    "def get_init_inputs():\n    return []\n")
    key, candidate = candidate_for(task_context(load_task(path)))
    assert candidate is None or "_hiera_depthwise(" not in candidate.code


@pytest.mark.parametrize("kernel", [5, 7, 9])
@pytest.mark.parametrize("width, threads", [(7, 8), (56, 16), (200, 32)])
def test_the_depthwise_template_compiles_without_spills_for_each_kernel_and_width(kernel, width, threads):
    from hiera_core.spaces.custom_cuda.depthwise_template import depthwise_source, depthwise_tile

    tile = depthwise_tile(width)
    assert tile["bx"] == threads and tile["bx"] * tile["by"] == 256
    (resources,) = kernel_resources(depthwise_source("hiera_stencil0", kernel, tile).source).kernels
    assert resources.spill_stores == 0 and resources.launch_bounds == 256


def test_more_stencil_steps_than_the_kernel_fuses_are_refused():
    from hiera_core.spaces.custom_cuda.stencil_steps_template import STENCIL_STEPS_MAX, stencil_steps_source

    with pytest.raises(ValueError, match="1 to 4 steps"):
        stencil_steps_source("hiera_stencil0", [[(0, 0)]] * (STENCIL_STEPS_MAX + 1))


def test_vector_loads_refuse_a_tile_whose_rows_would_start_unaligned():
    from hiera_core.spaces.custom_cuda.stencil_steps_template import stencil_steps_source

    with pytest.raises(ValueError, match="multiple of 4 columns wide, not 30"):
        stencil_steps_source("hiera_stencil0", [[(0, 0)]] * 2, {"tw": 30, "th": 8, "vector": True})


def test_windows_of_a_padded_grid_that_are_not_shifts_are_left_to_pytorch(tmp_path):
    path = tmp_path / "task.py"
    path.write_text("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass Model(nn.Module):\n"
                    "    def forward(self, u):\n        p = F.pad(u, (1, 1, 1, 1))\n"
                    "        return torch.tanh(p[..., 2:, :] * 2.0 + 1.0)\n\n\n"
                    "def get_inputs():\n    return [torch.randn(4, 30, 40)]\n\n\ndef get_init_inputs():\n    return []\n")
    from helpers.cuda_tasks import load_task

    ctx = task_context(load_task(path))
    key, candidate = candidate_for(ctx)
    assert key == "custom_cuda.pointwise_chain"  # the chain after it still gets its kernel
    forward = forward_source(candidate.code)
    assert "torch.nn.functional.pad(u, (1, 1, 1, 1))" in forward and "_hiera_stencil" not in forward


def _context(body: str, tmp_path, init: str = "", inputs: str = "[torch.randn(8, 300)]"):
    """The task context of a module whose forward(x) returns `body` (`init`: its __init__'s lines)."""
    path = tmp_path / "task.py"
    path.write_text("import math\n\nimport torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                    "    def __init__(self):\n"
                    f"        super().__init__()\n        {init or 'pass'}\n\n"
                    f"    def forward(self, x):\n        return {body}\n\n\n"
                    f"def get_inputs():\n    return {inputs}\n\n\ndef get_init_inputs():\n    return []\n")
    from helpers.cuda_tasks import load_task

    return task_context(load_task(path))


def _lowered(body: str, tmp_path, **module):
    from hiera_core.spaces.custom_cuda import lower_spec

    return lower_spec(_context(body, tmp_path, **module).spec)


def test_a_cast_to_the_dtype_a_tensor_has_fuses_through(tmp_path):
    """The float32 round trip of Hugging Face norms costs no kernel boundary: one row kernel
    computes the norm and the weight after the casts."""
    lowering = _lowered("2.0 * (x.to(torch.float32) * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))"
                        ".to(x.dtype).type_as(x)", tmp_path)
    assert not lowering.fallbacks
    kernels = [step for step in lowering.steps if step.family != "library"]
    assert [step.family for step in kernels] == ["rows"]
    assert "mul_1" in kernels[0].covers  # the product after the casts
    assert not [step.call for step in lowering.steps if ".to(" in step.call or "type_as" in step.call]


@pytest.mark.parametrize("cast", ["x.to(torch.float64).float()", "x.to(x.device)", "x.to(torch.float32, copy=True)",
                                  "x.to('cpu')"])
def test_casts_that_change_a_tensor_or_may_move_it_are_left_to_pytorch(cast, tmp_path):
    lowering = _lowered(f"torch.relu({cast}) + 1.0", tmp_path)
    assert "to" in lowering.fallbacks, lowering.fallbacks


@pytest.mark.parametrize("body, steps", [
    ("torch.logsumexp(x, dim=-1) + torch.var(x, dim=1) + torch.std(x, -1, False)", ["rows"]),
    ("x / torch.norm(x, p=2, dim=-1, keepdim=True)", ["rows"]),
    ("F.smooth_l1_loss(x, 2.0 * x) + F.huber_loss(x, torch.tanh(x), delta=0.5)", ["total", "total", "pointwise"]),
    ("1.0 - F.cosine_similarity(x, torch.relu(x), dim=1)", ["rows"]),
    ("F.triplet_margin_loss(x, torch.tanh(x), torch.relu(x), margin=0.5)", ["rows", "total"]),
    ("F.kl_div(x, torch.sigmoid(x), reduction='batchmean')", ["total"]),
    ("torch.prod(x, dim=1) + torch.prod(torch.exp(x), dim=0).sum()", ["reduce", "pointwise", "reduce", "total",
                                                                      "pointwise"]),
])
def test_norms_statistics_and_losses_are_written_out_into_the_row_and_total_kernels(body, steps, tmp_path):
    lowering = _lowered(body.replace("F.", "torch.nn.functional."), tmp_path)
    assert not lowering.fallbacks, lowering.fallbacks
    assert [step.family for step in lowering.steps if step.family != "library"] == steps


@pytest.mark.parametrize("body", ["torch.norm(x, p=3, dim=1)", "torch.logsumexp(x, dim=(0, 1))",
                                  "torch.nn.functional.cosine_similarity(x, x[:1], dim=1)",
                                  "torch.nn.functional.smooth_l1_loss(x, x[:1])",
                                  "torch.nn.functional.triplet_margin_loss(x, x, x, swap=True)"])
def test_compositions_outside_the_row_template_are_left_to_pytorch(body, tmp_path):
    lowering = _lowered(f"torch.relu({body}) + 1.0" if "loss" not in body else f"{body} + 1.0", tmp_path)
    assert lowering.fallbacks, body


@pytest.mark.parametrize("body, op, dim, reverse, covers", [
    ("torch.cumsum(x * (x > 0).float(), dim=1)", "sum", 1, False, {"mul", "cumsum"}),
    ("2.0 * torch.cumsum(x.flip(1), 1).flip(1)", "sum", 1, True, {"flip", "cumsum", "flip_1", "mul"}),
    ("torch.cumprod(1.0 + x, dim=0)", "prod", 0, False, {"add", "cumprod"}),
    ("x.flip(-1).cumsum(-1)", "sum", 1, True, {"flip", "cumsum"}),
])
def test_a_scan_is_one_kernel_with_its_prologue_and_a_flip_makes_it_reverse(body, op, dim, reverse, covers, tmp_path):
    lowering = _lowered(body, tmp_path)
    scans = [step for step in lowering.steps if step.family == "scan"]
    assert len(scans) == 1 and not lowering.fallbacks, lowering
    (scan,) = scans
    assert (scan.config["op"], scan.config["dim"], scan.config["reverse"]) == (op, dim, reverse)
    assert covers <= set(scan.covers)
    assert lowering.family == "row_reduction"
    # A scan of a flip is the reverse scan, flipped back only when nothing flips it again.
    assert [step.call.split("(")[0] for step in lowering.steps if step.family == "library"] == (
        ["torch.flip"] if body.startswith("x.flip") else [])
    assert [step.family for step in lowering.steps if step.family != "library"] == ["scan"]


@pytest.mark.parametrize("body", ["torch.cumsum(x, dim=1, dtype=torch.float64).float()",
                                  "torch.cumsum(x.flip(0), dim=1)"])
def test_scans_with_a_dtype_or_of_a_flip_over_another_dim_keep_the_torch_ops(body, tmp_path):
    lowering = _lowered(body, tmp_path)
    calls = [step.call for step in lowering.steps if step.family == "library"]
    if "dtype" in body:
        assert "cumsum" in lowering.fallbacks and not any(s.family == "scan" for s in lowering.steps)
    else:  # the flip is a real one, and the scan runs forward over it
        assert calls == ["torch.flip(x, (0,))"]
        (scan,) = [step for step in lowering.steps if step.family == "scan"]
        assert scan.config["reverse"] is False


def test_a_bool_mask_is_read_as_bytes_inside_the_kernel_that_uses_it(tmp_path):
    """KernelBench's masked cumsum: the bool mask is a leaf of the scan read through its mode (bytes),
    never a FULL float read or a cast of its own."""
    ctx = task_context(extra_task("masked_cumsum", tmp_path))
    _, candidate = candidate_for(ctx)
    forward = forward_source(candidate.code)
    assert "_hiera_scan(_HIERA_SRC_0, 'hiera_scan0', (x, mask), (True, False), 1, False)" in forward
    assert ".float()" not in forward and "mask.to(" not in forward
    (source,) = candidate.cuda_sources
    assert "#define HI_BYTES 8" in source


@pytest.mark.parametrize("body, kernels, library", [
    # a float causal-mask buffer compared in the row kernel, as nanoGPT writes it
    ("torch.softmax(x.masked_fill(self.m[:x.size(0), :x.size(-1)] == 0, float('-inf')), dim=-1)", ["rows"], 1),
    ("torch.where(x > 0.5, x, 0.5 * x).sum(-1)", ["rows"], 0),
    ("torch.relu(x) * (x.abs() < 1.0).float() + x.bool().float()", ["pointwise"], 0),
    ("x * (x > 0).to(torch.float32)", ["pointwise"], 0),
])
def test_comparisons_masked_fill_and_where_fuse_into_their_kernel(body, kernels, library, tmp_path):
    lowering = _lowered(body, tmp_path, init="self.register_buffer('m', torch.tril(torch.ones(300, 300)))")
    assert not lowering.fallbacks, lowering.fallbacks
    assert [step.family for step in lowering.steps if step.family != "library"] == kernels
    assert len([step for step in lowering.steps if step.family == "library" and ".size(" not in step.call]) == library


def test_a_mask_the_forward_returns_or_pytorch_reads_is_a_bool_tensor(tmp_path):
    lowering = _lowered("torch.nonzero((x > 0) & (x < 1)).float().sum() + ((x > 0) | (x < -1)).sum()", tmp_path)
    calls = [step.call for step in lowering.steps if step.family == "library"]
    # nonzero and the integer sum are left to PyTorch, each given a bool tensor made of the kernel's 0/1
    assert any(call.startswith("torch.nonzero(v_") and "_bool" in call for call in calls), calls
    assert sum(call.endswith(" != 0)") for call in calls) == 2, calls


@pytest.mark.parametrize("body, leaves", [
    ("torch.relu(2.0 * x).mean(dim=(-2, -1))", ["x.flatten(-2)"]),
    ("torch.nn.functional.adaptive_avg_pool2d(torch.sigmoid(x + self.c), (1, 1))", ["x.flatten(-2)", "self.c.flatten(-2)"]),
    ("torch.amax(x, dim=[1, 2, 3], keepdim=True)", ["x.flatten(-3)"]),
])
def test_a_reduction_over_trailing_dims_is_one_row_kernel_reading_its_prologue_flattened(body, leaves, tmp_path):
    lowering = _lowered(body, tmp_path, init="self.c = nn.Parameter(torch.randn(4, 1, 1))",
                        inputs="[torch.randn(2, 4, 9, 11)]")
    assert not lowering.fallbacks, lowering.fallbacks
    assert [step.family for step in lowering.steps if step.family != "library"] == ["rows"]
    calls = [step.call for step in lowering.steps if step.family == "library"]
    assert calls[:len(leaves)] == leaves
    keepdim = "keepdim" in body or "adaptive" in body
    assert [call.endswith("None,)]") for call in calls[len(leaves):]] == ([True] if keepdim else [])


def test_pools_to_more_than_a_point_are_left_to_pytorch(tmp_path):
    body = "torch.nn.functional.adaptive_avg_pool2d(x.view(2, 4, 25, 12), (2, 2))"
    assert _lowered(body, tmp_path).fallbacks, body


@pytest.mark.parametrize("body, steps", [
    # inner dims: each by the dim-reduction template, the innermost first
    ("x.sum(dim=(1, 2))", ["reduce", "reduce"]),
    # every dim: the trailing ones by rows, the first by the dim template
    ("x.mean(dim=(0, 1, 2, 3))", ["rows", "reduce"]),
    # a batch norm's statistics: the variance's mean is the forward's mean, computed once
    ("(x - x.mean(dim=(0, 2, 3), keepdim=True)) / torch.sqrt(torch.var(x, dim=(0, 2, 3), keepdim=True) + 1e-5)",
     ["rows", "reduce", "rows", "reduce", "pointwise"]),
])
def test_reductions_over_several_dims_not_all_trailing_are_row_and_dim_kernels(body, steps, tmp_path):
    lowering = _lowered(body, tmp_path, inputs="[torch.randn(2, 4, 25, 12)]")
    assert not lowering.fallbacks, lowering.fallbacks
    assert [step.family for step in lowering.steps if step.family != "library"] == steps


@pytest.mark.parametrize("body, dim, kinds", [
    ("torch.sigmoid(torch.softmax(2.0 * x, dim=1))", 1, ("row",)),
    ("torch.logsumexp(x, dim=1, keepdim=True) + torch.var(x, dim=1, keepdim=True)", 1, ("keep",)),
    ("torch.log_softmax(x, dim=0)", 0, ("row",)),
    ("torch.std(x, dim=2)", 2, ("drop",)),
])
def test_row_ops_along_another_dim_than_the_last_are_one_kernel_a_thread_a_row(body, dim, kinds, tmp_path):
    ctx = _context(body, tmp_path, inputs="[torch.randn(3, 17, 5, 7)]")
    key, candidate = candidate_for(ctx)
    assert key == "custom_cuda.row_reduction"
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_rows(") == 1 and f"{kinds!r}, " in forward and f"dim={dim})" in forward, forward
    (source,) = candidate.cuda_sources
    assert "hi_column_rows" in source and "_cols32" in source and "hi_column_tile" in source and "_tile32" in source


@pytest.mark.parametrize("body", ["torch.softmax(x.mean(dim=1, keepdim=True), dim=1)",
                                  "torch.softmax(torch.softmax(x, dim=1).sum(dim=1, keepdim=True), dim=1).mean()"])
def test_a_row_op_over_another_row_reductions_result_is_computed_after_it(body, tmp_path):
    """The inner rows first (their own kernel), then the outer: no endless split (a RecursionError
    in planning, before)."""
    lowering = _lowered(body, tmp_path)
    assert not lowering.fallbacks
    assert [step.family for step in lowering.steps][:2] == ["rows", "rows"]


def test_a_lowering_bug_costs_the_custom_cuda_space_the_module_not_the_plan(tmp_path, monkeypatch):
    from hiera_core.plan.planner import ExpertPlanner
    from hiera_core.spaces.custom_cuda import lower_spec
    from hiera_core.spaces.custom_cuda.lowering import LOWERINGS

    def broken(lw, op, args):
        raise KeyError("a handler's bug")

    monkeypatch.setitem(LOWERINGS, "relu", broken)
    spec = _context("torch.relu(x) * 2.0", tmp_path).spec
    why = lower_spec(spec)
    assert isinstance(why, str) and "KeyError" in why and "HIERA bug" in why
    assert ExpertPlanner().plan(spec).entries  # the other spaces are still planned


@pytest.mark.parametrize("body, kernels", [
    ("torch.nn.functional.hardshrink(x, 0.4) - torch.nn.functional.softshrink(x)", ["pointwise"]),
    ("torch.nn.functional.prelu(x, torch.full((1,), 0.2)) * 3.0", ["pointwise"]),
    ("torch.nn.functional.normalize(torch.relu(x), p=1, dim=0)", ["rows"]),
    ("torch.max(torch.tanh(x), torch.tensor(0.5)) + torch.min(x, torch.tensor(-0.5))", ["pointwise"]),
])
def test_band_activations_prelu_normalize_and_traced_constants_are_kernel_nodes(body, kernels, tmp_path):
    lowering = _lowered(body, tmp_path)
    assert not lowering.fallbacks, lowering.fallbacks
    assert [step.family for step in lowering.steps if step.family != "library"] == kernels


def test_a_traced_constant_has_its_value_in_the_generated_kernel(tmp_path):
    _, candidate = candidate_for(_context("torch.min(torch.relu(x), torch.tensor(0.375))", tmp_path))
    (source,) = candidate.cuda_sources
    assert "0.375f" in source
    assert "_tensor_constant" not in candidate.code


def test_the_same_scan_of_the_same_value_is_computed_once(tmp_path):
    lowering = _lowered("torch.cumsum(x, 1) * torch.cumsum(x, dim=-1) + torch.cumsum(x, 0)", tmp_path)
    scans = [step for step in lowering.steps if step.family == "scan"]
    assert [(s.config["dim"], s.covers) for s in scans] == [(1, ["cumsum", "cumsum_1"]), (0, ["cumsum_2"])]


def test_a_python_number_the_forward_computes_is_a_float_argument_of_the_kernel_that_reads_it(tmp_path):
    """Attention's `att * (1.0 / math.sqrt(k.size(-1)))` joins the softmax's row kernel; the number
    is computed in the forward on each call, as the reference does, and passed as a float."""
    ctx = _context("torch.softmax(x * (1.0 / math.sqrt(x.size(-1))), dim=-1) - x.size(0)", tmp_path)
    key, candidate = candidate_for(ctx)
    forward = forward_source(candidate.code)
    assert "v_truediv = 1.0 / v_sqrt" in forward
    # one row kernel: the scale before the softmax and the subtraction after it, two float arguments
    assert "scalars=(v_truediv, v_size_1))" in forward, forward
    (source,) = candidate.cuda_sources
    assert "float s0, float s1)" in source


def test_arithmetic_on_python_numbers_alone_stays_python(tmp_path):
    lowering = _lowered("x * (x.size(0) * 2.0)", tmp_path)
    assert [step.call for step in lowering.steps if step.family == "library"] == ["x.size(0)", "(v_size * 2.0)"]


def test_a_periodic_stencil_spelled_with_roll_is_one_kernel_reading_the_grid_rolled(tmp_path):
    ctx = _context("x + 0.25 * (torch.roll(x, 1, 0) + torch.roll(x, -1, 0) + torch.roll(x, 1, 1) + torch.roll(x, -1, 1) "
                   "- 4 * x)", tmp_path)
    key, candidate = candidate_for(ctx)
    assert key == "custom_cuda.pointwise_chain"
    forward = forward_source(candidate.code)
    assert forward.count("_hiera_pointwise(") == 1 and "torch.roll" not in forward
    assert "(x, x, x, x, x), (True, (0, 1), (0, -1), (1, 1), (1, -1)), 1)" in forward, forward


def test_a_roll_of_a_partly_broadcast_value_computes_it_first_and_rolls_over_two_dims_stay_pytorch(tmp_path):
    lowering = _lowered("torch.roll(x * x[0], 2, 1) + torch.roll(x, (1, 1), (0, 1))", tmp_path)
    assert [step.family for step in lowering.steps if step.family != "library"] == ["pointwise", "pointwise"]
    assert list(lowering.fallbacks) == ["roll_1"]


def test_a_slice_bound_computed_in_the_forward_and_an_integer_tensors_float_stay_in_the_generated_forward(tmp_path):
    """Llama's rotate_half `x[..., : x.shape[-1] // 2]` names the computed bound, and
    `position_ids.float()` casts the int64 tensor (before: an undefined name, and the int64 tensor
    passed on as is)."""
    ctx = _context("torch.relu(x[..., : x.shape[-1] // 2]) * 2.0 + torch.arange(x.shape[0], device=x.device).float()[:, None]",
                   tmp_path)
    _, candidate = candidate_for(ctx)
    forward = forward_source(candidate.code)
    assert "slice(None, v_floordiv, None)" in forward
    assert "= v_arange.float()" in forward, forward
