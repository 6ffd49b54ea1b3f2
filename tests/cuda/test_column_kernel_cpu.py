"""The column stencil kernel's index arithmetic on the CPU (helpers.cpu_kernels): square windows and
others, padding from none to same, contiguous and channels-last maps, rows split into runs or not, against
F.conv2d. The GPU tests run it on the device (test_templates_gpu)."""

from __future__ import annotations

import ctypes
import itertools

import pytest
import torch
import torch.nn.functional as F
from helpers.cpu_kernels import cpu_kernel, host_compiler

from hiera_core.spaces.custom_cuda.columns_template import COLUMN_THREADS, columns_source, square_taps

pytestmark = pytest.mark.skipif(host_compiler() is None, reason="no C++ compiler on this machine")

PARAMETERS = ("const float* x, const float* w, const float* bias, float* out, long long grids, long long channels, "
              "long long H, long long W, long long rows, long long channels_last")
ARGUMENTS = "x, w, bias, out, grids, channels, H, W, rows, channels_last"


@pytest.mark.parametrize("kernel, crop", [(3, 0), (3, 1), (5, 1), (5, 2), (7, 1), (7, 3),
                                          ((3, 1), (1, 0)), ((3, 7), (1, 3)), ((1, 3), (0, 0)), ((5, 3), (0, 1))])
def test_the_column_kernel_computes_each_window_and_padding_of_a_depthwise_convolution(kernel, crop, tmp_path):
    window, crops = ((kernel, kernel) if isinstance(kernel, int) else kernel), ((crop, crop) if isinstance(crop, int) else crop)
    run = cpu_kernel(columns_source("columns", kernel, square_taps(kernel), crop=crop).source, "columns",
                     PARAMETERS, ARGUMENTS, COLUMN_THREADS, tmp_path)
    for shape, channels_last, rows in itertools.product([(2, 3, 14, 17), (1, 4, 9, 9), (3, 2, 40, 8)], (0, 1), (1, 3, 64)):
        if shape[2] - 2 * crops[0] < 1 or shape[3] - 2 * crops[1] < 1:
            continue
        generator = torch.Generator().manual_seed(0)
        x = torch.randn(shape, generator=generator)
        weight = torch.randn(shape[1], 1, *window, generator=generator)
        bias = torch.randn(shape[1], generator=generator)
        padding = (window[0] // 2 - crops[0], window[1] // 2 - crops[1])
        expected = F.conv2d(x, weight, bias, padding=padding, groups=shape[1])
        layout = torch.channels_last if channels_last else torch.contiguous_format
        x = x.contiguous(memory_format=layout)
        out = torch.full_like(expected, float("nan")).contiguous(memory_format=layout)
        grids, (height, width) = shape[0] * shape[1], expected.shape[-2:]
        pointer = lambda t: ctypes.c_void_p(t.data_ptr())  # noqa: E731
        run(ctypes.c_uint(-(-grids * width // COLUMN_THREADS)), ctypes.c_uint(-(-height // rows)), pointer(x),
            pointer(weight), pointer(bias), pointer(out), *map(ctypes.c_longlong, (grids, shape[1], *shape[2:], rows,
                                                                                  channels_last)))
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4, msg=f"{shape}, {layout}, {rows} rows a run")
