"""Part 6: hovers on modules, forward, kernels and directives, read from `.hiera/` only."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace

import pytest
from lsprotocol import types

from hiera_core.cuda.nvrtc import custom_cuda_unavailable
from hiera_core.index_entry import IndexEntry, ProfileEntry

MODEL_LINE, FORWARD_LINE = 4, 9  # in models.py


async def _profiled_and_optimized(session) -> str:
    uri = session.workspace.uri("models.py")
    await session.command("hiera.profile", uri, "Model")
    await session.job_message("profile", "Model")
    await session.command("hiera.optimize", uri, "Model")
    await session.job_message("optimize", "Model")
    return session.open("models.py")


async def test_a_module_without_runs_says_how_to_start(start_server):
    session = await start_server()
    hover = await session.hover(session.open("models.py"), MODEL_LINE, 8)
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value == ("**HIERA · Model**\n\nNo HIERA run yet: use the code action *HIERA: Optimize "
                                    "this module* or *HIERA: Profile this module*.")
    assert hover.range == types.Range(start=types.Position(line=MODEL_LINE, character=6),
                                      end=types.Position(line=MODEL_LINE, character=11))


async def test_module_and_forward_show_the_last_profile_and_best_proposal(start_server):
    session = await start_server()
    uri = await _profiled_and_optimized(session)
    on_class = await session.hover(uri, MODEL_LINE, 7)
    on_forward = await session.hover(uri, FORWARD_LINE, 9)

    lines = on_class.contents.value.split("\n\n")
    assert lines == [
        "**HIERA · Model**",
        "Last profile: **2.5 ms** ± 0.05 on fake CPU · 2026-11-29T10:00:00",
        "Top kernels: `void scale_kernel<float>(float const*, float*, int)` 60% · `aten::add` 40%",
        "2 MFLOP · 8 MB · 0.25 FLOP/B · roofline bound 0.5 ms, at 20% of it",
        "Best proposal: **2.50x** · custom_cuda / fused pointwise · verification passed: 9 checks, 5 input sets, "
        "max error 1.2e-07 · on fake CPU · 2026-11-29T10:00:00",
    ]
    assert on_forward.contents.value == on_class.contents.value
    assert on_forward.range.start == types.Position(line=FORWARD_LINE, character=8)
    assert await session.hover(uri, FORWARD_LINE + 1, 12) is None  # the body is not ours to hover


def _without_nvrtc(hover) -> list[str]:
    """The hover's parts but the NVRTC line, which depends on the job interpreter."""
    return [part for part in hover.contents.value.split("\n\n") if not part.startswith("NVRTC")]


async def test_kernel_hover_shows_the_source_facts_and_what_was_measured(start_server):
    session = await start_server()
    await _profiled_and_optimized(session)
    uri = session.open("kernels/scale.cu")
    line = session.workspace.text("kernels/scale.cu").splitlines()[2]
    name_at = line.index("scale_kernel") + 1  # 😀 takes two UTF-16 units

    on_name = await session.hover(uri, 2, name_at + 3)
    on_launch = await session.hover(uri, 10, 6)
    orphan = await session.hover(uri, 7, 18)

    assert on_name.range == types.Range(start=types.Position(line=2, character=name_at),
                                        end=types.Position(line=2, character=name_at + len("scale_kernel")))
    assert _without_nvrtc(on_name) == [
        "**HIERA · kernel `scale_kernel`** (3 parameters)",
        "1 launch(es) here, block 256",
        "measured 1.5 ms (60% of Model in models.py) · registers 32 · spill bytes 0 · on fake CPU · "
        "2026-11-29T10:00:00",
    ]
    assert _without_nvrtc(on_launch) == _without_nvrtc(on_name)
    assert orphan.contents.value.endswith("Not measured yet: optimize or profile the module that launches it.")


async def test_directive_hover_explains_each_key(start_server):
    session = await start_server()
    hover = await session.hover(session.open("block.py"), 3, 12)
    assert hover.contents.value.splitlines() == [
        "**HIERA directive** for `class Block`",
        "- `inputs=make_inputs`: name of a function in this file returning the forward() inputs (a list) (defined)",
        "- `init=missing_init`: name of a function in this file returning the constructor arguments (a list) — "
        "**`missing_init` is not defined in this file**",
    ]


async def test_kernel_hover_shows_launch_bounds_and_shared_memory(start_server, workspace):
    (workspace.root / "kernels" / "reduce.cu").write_text(
        "__global__ void __launch_bounds__(256, 2) block_sum(const float* x, float* out) {\n"
        "    __shared__ float partial[256];\n"
        "    __shared__ double scratch[32];\n"
        "    partial[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];\n"
        "}\n")
    session = await start_server()
    hover = await session.hover(session.open("kernels/reduce.cu"), 0, 45)
    assert hover.contents.value.split("\n\n")[:2] == [
        "**HIERA · kernel `block_sum`** (2 parameters)",
        "launch bounds 256 threads, min 2 blocks/SM · static shared memory 1.28 KB",
    ]


def test_a_host_bound_profile_says_the_host_sets_the_pace():
    from hiera_lsp.hover import module_markdown

    profile = ProfileEntry(latency_ms=0.21, device_name="NVIDIA H200", date="2026-11-29", bound="host", gpu_ms=0.015,
                           host_ms=0.21)
    lines = module_markdown("Model", IndexEntry(profile=profile)).split("\n\n")
    assert lines[2] == ("Host-bound: the GPU works 0.015 ms per call; launches and Python set the pace "
                        "(fewer launches, CUDA graphs and fusion help)")
    profile = replace(profile, bound="gpu", host_ms=0.01, latency_ms=0.015)
    assert "Host-bound" not in module_markdown("Model", IndexEntry(profile=profile))


REDUCE_CU = """\
__global__ void __launch_bounds__(128) block_sum(const float* x, float* out) {
    __shared__ float partial[128];
    partial[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int i = 0; i < 128; ++i) total += partial[i];
        out[blockIdx.x] = total;
    }
}
"""


async def _hover_once(session, uri: str, line: int, character: int, done, timeout: float = 60.0) -> str:
    """The hover's text once `done(text)` holds: the background compile has finished."""
    async def wait():
        while True:
            text = (await session.hover(uri, line, character)).contents.value
            if done(text):
                return text
            await asyncio.sleep(0.2)
    return await asyncio.wait_for(wait(), timeout)


@pytest.mark.skipif(custom_cuda_unavailable() is not None, reason="needs NVRTC (pip install 'hiera[cuda]')")
async def test_kernel_hover_in_an_open_cu_shows_nvrtc_resources_of_the_buffer(start_server, workspace):
    # No Python module loads this kernel and nothing was profiled: the figures come from NVRTC.
    (workspace.root / "reduce.cu").write_text(REDUCE_CU)
    session = await start_server(real_cli=True)
    uri = session.open("reduce.cu", REDUCE_CU)
    text = await _hover_once(session, uri, 0, 45, lambda text: "NVRTC sm_" in text)
    [line] = [line for line in text.split("\n\n") if line.startswith("NVRTC sm_")]
    assert " registers · spills 0/0 B (stores/loads) · static shared memory 512 B · occupancy " in line
    assert "at block 128 (" in line  # from __launch_bounds__
    on_qualifier = (await session.hover(uri, 0, 3)).contents.value  # on `__global__`, not the name
    assert [part for part in on_qualifier.split("\n\n") if part.startswith("NVRTC sm_")] == [line]

    # The buffer as typed, not the file on disk: a second kernel appears once compiled.
    session.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=REDUCE_CU + "__global__ void fill(float* y) { y[threadIdx.x] = 1.0f; }\n")]))
    text = await _hover_once(session, uri, 10, 18, lambda text: "NVRTC sm_" in text)
    assert "static shared memory 0 B" in text


async def test_kernel_hover_without_nvrtc_says_how_to_get_the_figures(start_server, workspace, tmp_path):
    stub = tmp_path / "no-nvrtc"
    (stub / "cuda").mkdir(parents=True)
    (stub / "cuda" / "__init__.py").write_text("")  # shadows cuda-python: no cuda.core, no cuda.bindings
    interpreter = tmp_path / "python-without-nvrtc"
    interpreter.write_text(f'#!/bin/sh\nPYTHONPATH="{stub}" exec "{sys.executable}" "$@"\n')
    interpreter.chmod(0o755)
    (workspace.root / "reduce.cu").write_text(REDUCE_CU)
    session = await start_server(init_options={"pythonPath": str(interpreter)})
    uri = session.open("reduce.cu", REDUCE_CU)
    text = await _hover_once(session, uri, 0, 45, lambda text: "compiling" not in text)
    assert ("NVRTC is not installed: `pip install 'hiera[cuda]'` in the job interpreter shows registers, spills "
            "and occupancy here") in text.split("\n\n")
