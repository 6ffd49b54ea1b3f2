"""The proposal runtime's launch: what a kernel receives, read back from the argument buffer the
driver is handed (the driver itself stands in, so this runs without a GPU)."""

import ctypes
import threading

import pytest
import torch

pytest.importorskip("cuda.core")

from cuda.bindings import driver

from hiera_core.cuda import proposal_runtime as R


@pytest.fixture
def launches(monkeypatch):
    """Each launch as (grid and block dims, shared bytes, stream handle, the argument slots read back as
    (int64, float32) pairs); `fail` makes the next launches return that driver error."""
    seen, state = [], {"error": driver.CUresult.CUDA_SUCCESS}

    def cu_launch_kernel(kernel, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        pointers = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p))
        slots = [(ctypes.cast(pointers[i], ctypes.POINTER(ctypes.c_int64))[0],
                  ctypes.cast(pointers[i], ctypes.POINTER(ctypes.c_float))[0]) for i in range(state["count"])]
        seen.append(((gx, gy, gz), (bx, by, bz), shared, int(stream), slots))
        return (state["error"],)

    monkeypatch.setattr(R.driver, "cuLaunchKernel", cu_launch_kernel)
    monkeypatch.setattr(R.driver, "cuGetErrorString", lambda error: (driver.CUresult.CUDA_SUCCESS, b"invalid argument"))
    monkeypatch.setattr(torch._C, "_cuda_getCurrentRawStream", lambda device: 4096 + device, raising=False)
    monkeypatch.setattr(R, "_HIERA_ARGUMENT_BUFFERS", [])
    return seen, state


def test_tensors_pass_as_pointers_ints_as_64_bits_and_floats_as_float32(launches):
    seen, state = launches
    x = torch.arange(6.0)
    state["count"] = 5
    R._hiera_launch("kernel", 1, (3, 2), 256, 128, x, -7, 2**40, 0.25, 0)
    (grid, block, shared, stream, slots), = seen
    assert (grid, block, shared, stream) == ((3, 2, 1), (256, 1, 1), 128, 4097)
    assert [slots[0][0], slots[1][0], slots[2][0], slots[4][0]] == [x.data_ptr(), -7, 2**40, 0]
    assert slots[3][1] == 0.25


def test_a_second_call_with_other_arguments_is_not_handed_the_first_ones(launches):
    seen, state = launches
    state["count"] = 3
    a, b = torch.zeros(4), torch.zeros(8)
    R._hiera_launch("kernel", 0, 1, (32, 8), 0, a, 1.5, 10)
    R._hiera_launch("kernel", 0, 1, (32, 8), 0, b, 2.5, 20)
    assert [(s[0][0], s[1][1], s[2][0]) for *_, s in seen] == [(a.data_ptr(), 1.5, 10), (b.data_ptr(), 2.5, 20)]
    assert seen[0][1] == (32, 8, 1)


def test_a_launch_with_more_arguments_than_a_buffer_holds_gets_a_larger_one(launches):
    seen, state = launches
    state["count"] = 70
    R._hiera_launch("kernel", 0, 1, 1, 0, *range(70))
    assert [v for v, _ in seen[0][4]] == list(range(70))


def test_a_failed_launch_raises_with_the_driver_s_reason_and_the_launch_shape(launches):
    _, state = launches
    state["count"], state["error"] = 1, driver.CUresult.CUDA_ERROR_INVALID_VALUE
    with pytest.raises(RuntimeError, match=r"launch failed \(invalid argument\): grid 9, block 1024, 0 bytes"):
        R._hiera_launch("kernel", 0, 9, 1024, 0, 1)


def test_threads_launching_at_once_each_get_their_own_arguments(launches, monkeypatch):
    """nn.DataParallel runs replicas in threads: a launch must never read another thread's arguments,
    even where the driver call lets the other thread run (as cuda.bindings does, without the GIL)."""
    seen, state = launches
    state["count"] = 2
    inner = R.driver.cuLaunchKernel
    barrier = threading.Barrier(4)

    def yielding(*args):
        pointers = ctypes.cast(args[9], ctypes.POINTER(ctypes.c_void_p))
        before = ctypes.cast(pointers[0], ctypes.POINTER(ctypes.c_int64))[0]
        barrier.wait(timeout=10)  # every thread has packed its arguments before any reads them
        assert ctypes.cast(pointers[0], ctypes.POINTER(ctypes.c_int64))[0] == before
        return inner(*args)

    for n in range(4):  # buffers left in the pool by earlier launches
        R._hiera_launch("kernel", 0, 1, 1, 0, n, n * 10)
    monkeypatch.setattr(R.driver, "cuLaunchKernel", yielding)
    threads = [threading.Thread(target=R._hiera_launch, args=("kernel", 0, 1, 1, 0, n, n * 10)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert sorted((s[0][0], s[1][0]) for *_, s in seen[4:]) == [(n, n * 10) for n in range(4)]
