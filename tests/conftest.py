"""Shared test setup: GPU tests are skipped where torch sees no CUDA device."""

from __future__ import annotations

import os

import pytest

# Inductor's precompiled C++ headers are global (/tmp/torchinductor_<user>, whatever the cache folder),
# and one built without the vectorized ISA was reused for a kernel that needs it ("at::vec has not
# been declared"): tests that compile in their own process go without them, as HIERA's workers do
# (hiera_core.worker.isolate.store_cache_environment). Set before inductor's config is imported.
os.environ.setdefault("TORCHINDUCTOR_CPP_CACHE_PRECOMPILE_HEADERS", "0")


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def pytest_collection_modifyitems(config, items):
    if _cuda_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (run with -m gpu on the H200)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
