"""A custom-kernel proposal whose module lives on another GPU than the caller's current one (a
workstation's second card) loads and launches its kernels with that GPU's context current, and
gives the caller's current device back: the caller's later allocations stay where they were.

The GPUs, the load and the launch are stood in for, so this runs without a GPU."""

from __future__ import annotations

import contextlib

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("cuda.core")

from hiera_core.cuda import proposal_runtime  # noqa: E402


class TwoGpus:
    """torch.cuda's current device, on a host with two GPUs; what was current at each load and launch."""

    def __init__(self):
        self.current = 0
        self.loaded_on: list[int] = []
        self.launched_on: list[int] = []

    @contextlib.contextmanager
    def device(self, index):
        previous, self.current = self.current, index
        try:
            yield
        finally:
            self.current = previous


@pytest.fixture
def gpus(monkeypatch):
    gpus = TwoGpus()
    monkeypatch.setattr(torch.cuda, "current_device", lambda: gpus.current)
    monkeypatch.setattr(torch.cuda, "device", gpus.device)
    monkeypatch.setattr(torch._C, "_cuda_getCurrentRawStream", lambda device: 1000 + device, raising=False)
    monkeypatch.setattr(proposal_runtime, "Stream", type("Stream", (), {"from_handle": staticmethod(lambda h: h)}))
    monkeypatch.setattr(proposal_runtime, "LaunchConfig", lambda **config: config)
    monkeypatch.setattr(proposal_runtime, "launch", lambda stream, config, kernel, *args: gpus.launched_on.append(gpus.current))
    monkeypatch.setattr(proposal_runtime, "_hiera_load", lambda source, name, device: gpus.loaded_on.append(gpus.current))
    monkeypatch.setattr(proposal_runtime, "_HIERA_KERNELS", {})
    monkeypatch.setattr(proposal_runtime, "_HIERA_STREAMS", {})
    return gpus


def test_a_kernel_of_a_module_on_another_gpu_loads_and_launches_there_and_the_current_device_stays(gpus):
    proposal_runtime._hiera_kernel("src", "k", 1)
    proposal_runtime._hiera_launch("k", 1, 4, 256, 0, 7)
    assert gpus.loaded_on == [1] and gpus.launched_on == [1]
    assert gpus.current == 0


def test_a_kernel_on_the_current_gpu_launches_as_it_is(gpus):
    proposal_runtime._hiera_kernel("src", "k", 0)
    proposal_runtime._hiera_launch("k", 0, 4, 256, 0, 7)
    assert gpus.loaded_on == [0] and gpus.launched_on == [0] and gpus.current == 0
