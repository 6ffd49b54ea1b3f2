"""The pre-commit hook, as a user would run it: `pre-commit try-repo` on a repository with a bad .cu file,
in a slim environment (hiera without its dependencies, plus the tree-sitter parsers)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
HOOK_ENVIRONMENT_LIMIT = 60 * 2**20  # bytes: what a CI cache or a laptop keeps per hook version
BAD = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\nvoid run(float* x) { k<<<1, 2048>>>(x); }\n"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
              pytest.mark.skipif(__import__("importlib").util.find_spec("pre_commit") is None,
                                 reason="needs pre-commit")]


def git(*args, cwd):
    subprocess.run(["git", "-c", "user.email=ci@example.invalid", "-c", "user.name=ci", *args], cwd=cwd,
                   check=True, capture_output=True)


def snapshot_of_this_repository(target: Path) -> Path:
    """A committed copy of the working tree: try-repo installs the hook from a commit, and the working
    tree may hold changes that are not committed yet."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    git("init", "-q", cwd=target)
    git("add", "-A", cwd=target)
    git("commit", "-qm", "snapshot", cwd=target)
    return target


def test_hook_fails_on_a_bad_kernel_and_passes_after_the_fix(tmp_path):
    hook_repo = snapshot_of_this_repository(tmp_path / "hiera")
    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project)
    (project / "bad.cu").write_text(BAD)
    git("add", "bad.cu", cwd=project)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "hiera-check", "--files", "bad.cu"]

    failed = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=900,
                            check=False)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "bad.cu:2:29: HC105" in failed.stdout

    (project / "bad.cu").write_text(BAD.replace("<<<1, 2048>>>", "<<<2, 1024>>>"))
    git("add", "bad.cu", cwd=project)
    passed = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=900,
                            check=False)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_the_hook_environment_is_slim(tmp_path):
    """As a project installs it (try-repo deletes its environment): under 60 MB, no engine dependencies."""
    hook_repo = snapshot_of_this_repository(tmp_path / "hiera")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, check=True, capture_output=True,
                            text=True).stdout.strip()
    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {commit}\n    hooks:\n      - id: hiera-check\n")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-m", "pre_commit", "install-hooks"], cwd=project, env=env, check=True,
                   capture_output=True, timeout=900)
    [environment] = (tmp_path / "cache").glob("repo*/py_env-*")
    size = sum(path.lstat().st_size for path in environment.rglob("*") if path.is_file() and not path.is_symlink())
    assert size < HOOK_ENVIRONMENT_LIMIT, f"hook environment is {size / 2**20:.0f} MB"
    installed = {path.name.split("-")[0].lower() for path in environment.rglob("*.dist-info")}
    assert "hiera" in installed and "tree_sitter_cuda" in installed
    assert not installed & {"numpy", "openai", "matplotlib", "pygls", "lsprotocol", "rich", "torch"}, installed
    print(f"hook environment: {size / 2**20:.1f} MB, {sorted(installed)}")
