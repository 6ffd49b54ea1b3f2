# NVRTC launch helper for the corpus's GPU candidates (header `uses=nvrtc`): the test inserts it
# before the candidate's code, as HIERA's own custom-CUDA proposals inline their runtime.
import ctypes

import torch
from cuda.core import Device, LaunchConfig, Program, ProgramOptions, Stream, launch

_KERNELS = {}


def nvrtc_kernel(source, name):
    """Kernel `name` (extern "C") of CUDA C++ `source`, compiled for this GPU on first use."""
    key = (source, name)
    if key not in _KERNELS:
        device = Device(torch.cuda.current_device())
        device.set_current()
        program = Program(source, "c++", ProgramOptions(arch="sm_" + device.arch, std="c++17"))
        _KERNELS[key] = program.compile("cubin").get_kernel(name)
    return _KERNELS[key]


def nvrtc_launch(kernel, grid, block, *args, shared_bytes=0):
    """Launch on torch's current stream: tensors as pointers, ints as int64, floats as float32."""
    values = [a.data_ptr() if isinstance(a, torch.Tensor) else ctypes.c_int64(a) if isinstance(a, int)
              else ctypes.c_float(a) for a in args]
    stream = Stream.from_handle(torch.cuda.current_stream().cuda_stream)
    launch(stream, LaunchConfig(grid=grid, block=block, shmem_size=shared_bytes), kernel, *values)
