"""The proposal runtime's launchers of the convolution templates (radius-1 stencils, wide depthwise
convolutions, the column kernel of 2D stencils, stencils fused in time). Copied into proposals with
`proposal_runtime` (see there and `hiera_core.cuda.proposal`); never imported by them.
"""

import torch

from hiera_core.cuda.proposal_leaves import _hiera_channel_values, _hiera_check
from hiera_core.cuda.proposal_runtime import _hiera_kernel, _hiera_launch, _hiera_sms

_HIERA_CONSTANTS = {}


def _hiera_convolution_start(x, weight, bias, per_channel, channels_last=False, crop=0):
    """A convolution kernel's operands checked: `x` contiguous (or kept channels-last, with
    `channels_last`, where it is), its output allocated alike (`crop` rows and columns a side
    smaller, or (rows, columns)), and the per-channel tensors its epilogue reads flat and contiguous,
    one value a channel."""
    _hiera_check(x, weight, *([] if bias is None else [bias]), *per_channel)
    values = _hiera_channel_values(per_channel, x.shape[1], "the kernel's epilogue")
    if not (channels_last and x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last)):
        x = x.contiguous()
    if not crop:
        return x, torch.empty_like(x), values
    crop_rows, crop_columns = (crop, crop) if isinstance(crop, int) else crop
    height, width = x.shape[-2] - 2 * crop_rows, x.shape[-1] - 2 * crop_columns
    if height < 1 or width < 1:
        raise ValueError(f"a {tuple(x.shape[-2:])} map is smaller than the convolution's window: no output")
    layout = torch.contiguous_format if x.is_contiguous() else torch.channels_last
    return x, torch.empty(x.shape[:-2] + (height, width), dtype=x.dtype, device=x.device, memory_format=layout), values


def _hiera_stencil(source, name, x, weight, bias, tile, per_channel=(), crop=0):
    """Run a generated radius-1 stencil over (N, C, D, H, W), tile = (BX, BY, rows per tile, planes per
    block, columns per thread), or a 2D one over (N, C, H, W), tile = "columns" (`_hiera_columns`,
    `crop` rows and columns a side fewer where the convolution pads less than its radius);
    `per_channel`: the tensors its epilogue reads, one value per channel."""
    x, out, values = _hiera_convolution_start(x, weight, bias, per_channel, tile == "columns", crop)
    if x.numel() == 0:
        return out
    if tile == "columns":
        return _hiera_columns(source, name, x, weight, bias, out, values)
    channels = x.shape[1]
    depth, height, width = x.shape[2:]
    if depth * height * width >= 2**31:
        raise ValueError("the stencil kernel indexes one volume with 32-bit offsets: at most 2^31 - 1 points")
    bx, by, rows, planes, columns = tile
    chunks = -(-depth // planes)
    volumes = x.shape[0] * channels
    grid = (-(-width // (bx * columns)), -(-height // rows), min(volumes * chunks, 65535))
    device = x.device.index
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, (bx, by), 0, x, weight.contiguous(),
                  0 if bias is None else bias.contiguous(), out, volumes, channels, depth, height, width, chunks,
                  *values)
    return out


def _hiera_stencil_constant(source, name, x, coefficients, rank, tile):
    """The stencil of constant `coefficients` (3^rank, in tap order) over the last `rank` dims of `x`,
    each leading index a volume of its own: the weight is made once per device."""
    key = (coefficients, x.device)
    weight = _HIERA_CONSTANTS.get(key)
    if weight is None:
        weight = torch.tensor(coefficients, dtype=torch.float32, device=x.device).reshape((1, 1) + (3,) * rank)
        _HIERA_CONSTANTS[key] = weight
    volumes = x.reshape((-1, 1) + tuple(x.shape[-rank:]))
    return _hiera_stencil(source, name, volumes, weight, None, tile).reshape(x.shape)


def _hiera_depthwise(source, name, x, weight, bias, tile, per_channel=(), crop=0):
    """Run a generated depthwise k x k convolution (stride 1, same zero padding) over (N, C, H, W);
    tile = (threads across, threads down, rows per thread) of a block, or "columns" for the column
    kernel (which also takes less padding: `crop` rows and columns a side fewer); `per_channel`: the
    tensors its epilogue reads, one value per channel (a batch norm's, viewed (C, 1, 1))."""
    x, out, values = _hiera_convolution_start(x, weight, bias, per_channel, tile == "columns", crop)
    if x.numel() == 0:
        return out
    if tile == "columns":
        return _hiera_columns(source, name, x, weight, bias, out, values)
    channels, height, width = x.shape[1:]
    if height * width >= 2**31:
        raise ValueError("the depthwise kernel indexes one grid with 32-bit offsets: at most 2^31 - 1 points")
    bx, by, rows = tile
    grids = x.shape[0] * channels
    grid = (-(-width // (4 * bx)), -(-height // (by * rows)), min(grids, 65535))
    device = x.device.index
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, (bx, by), 0, x, weight.contiguous(),
                  0 if bias is None else bias.contiguous(), out, grids, channels, height, width, *values)
    return out


def _hiera_columns(source, name, x, weight, bias, out, values):
    """Launch a column-kernel stencil (columns_template) over the (H, W) grids of (N, C, H, W) `x` into
    `out`, both contiguous or both channels-last: a thread per column of each grid, 256 a block, down
    a run of rows; the rows are split into runs only while the columns alone leave the GPU short of
    a full wave (2048 threads an SM), since each run reloads its window's first rows."""
    height, width = x.shape[-2:]
    channels_last = not x.is_contiguous()
    if (x.shape[1] if channels_last else 1) * height * width >= 2**31:
        raise ValueError("the stencil kernel indexes one grid (one image, channels-last) with 32-bit offsets: "
                         "at most 2^31 - 1 points")
    grids = x.numel() // (height * width)
    out_height, out_width = out.shape[-2:]  # smaller than the input's where the kernel crops
    columns = grids * out_width
    device = x.device.index
    runs = max(1, min(out_height, _hiera_sms(device) * 2048 // columns, 65535))
    rows = -(-out_height // runs)
    grid = (-(-columns // 256), -(-out_height // rows))
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, 256, 0, x, weight.contiguous(),
                  0 if bias is None else bias.contiguous(), out, grids, x.shape[1], height, width, rows,
                  int(channels_last), *values)
    return out


def _hiera_stencil_steps(source, name, x, steps, tile):
    """Radius-1 2D stencils of constant coefficients (`steps`: 9 per step, in tap order) applied in turn
    over the last two dims of `x` (each leading index a grid of its own, zero outside it between
    steps), fused in one kernel; tile = (columns, rows) of outputs per 32 x 8 block. The weight is
    made once per device."""
    _hiera_check(x)
    key = (steps, x.device)
    weight = _HIERA_CONSTANTS.get(key)
    if weight is None:
        weight = _HIERA_CONSTANTS[key] = torch.tensor(steps, dtype=torch.float32, device=x.device)
    x = x.contiguous()
    out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    height, width = x.shape[-2:]
    if height * width >= 2**31:
        raise ValueError("the stencil kernel indexes one grid with 32-bit offsets: at most 2^31 - 1 points")
    columns, rows = tile
    grids = x.numel() // (height * width)
    grid = (-(-width // columns), -(-height // rows), min(grids, 65535))
    device = x.device.index
    _hiera_launch(_hiera_kernel(source, name, device), device, grid, (32, 8), 0, x, weight, out, grids, height,
                  width)
    return out


# out[b][s][r] = in[b][r][s] over B matrices of R x S floats, through 32 x 32 tiles in shared memory
# (one column of padding keeps the transposed reads free of bank conflicts).
_HIERA_RELAYOUT_SRC = r"""
extern "C" __global__ void __launch_bounds__(256) hiera_relayout(const float* __restrict__ in, float* __restrict__ out,
                                                                 long long B, long long R_, long long S_) {
    __shared__ float tile[32][33];
    const int R = (int)R_, S = (int)S_, r0 = blockIdx.y * 32, s0 = blockIdx.x * 32;
    for (long long b = blockIdx.z; b < B; b += gridDim.z) {
        const float* src = in + b * R * S;
        float* dst = out + b * R * S;
        for (int i = threadIdx.y; i < 32; i += 8) {
            const int r = r0 + i, s = s0 + threadIdx.x;
            if (r < R && s < S) tile[i][threadIdx.x] = src[(long long)r * S + s];
        }
        __syncthreads();
        for (int i = threadIdx.y; i < 32; i += 8) {
            const int s = s0 + i, r = r0 + threadIdx.x;
            if (s < S && r < R) dst[(long long)s * R + r] = tile[threadIdx.x][i];
        }
        __syncthreads();
    }
}
"""


# The same for matrices under 32 rows or columns (an RGB image's 3 x H*W), where most of a tile's
# threads would idle. Under 32 rows: a thread an output element, writes contiguous, one 32-bit
# division by the row count (64-bit ones took 9 us on 8 RGB 224x224 images, a thread a line 5.4,
# H100); under 32 columns: a thread an input row, looping over its columns (3.2 us back, no division).
_HIERA_RELAYOUT_NARROW_SRC = r"""
extern "C" __global__ void __launch_bounds__(256) hiera_relayout_narrow(const float* __restrict__ in,
                                                                        float* __restrict__ out, long long B,
                                                                        long long R_, long long S_) {
    const unsigned R = (unsigned)R_, S = (unsigned)S_, stride = gridDim.x * 256;
    for (long long b = blockIdx.y; b < B; b += gridDim.y) {
        const float* src = in + b * R * S;
        float* dst = out + b * R * S;
        if (R < S) {
            for (unsigned o = blockIdx.x * 256 + threadIdx.x; o < R * S; o += stride) {
                const unsigned s = o / R;
                dst[o] = src[(o - s * R) * S + s];
            }
        } else {
            for (unsigned r = blockIdx.x * 256 + threadIdx.x; r < R; r += stride) {
                for (unsigned s = 0; s < S; ++s) dst[s * R + r] = src[r * S + s];
            }
        }
    }
}
"""


def _hiera_relayout(x, channels_last):
    """`x` (N, C, H, W) in the other layout: channels-last (`channels_last`) or contiguous, by a batched
    transpose of each image's (C, H*W) matrix; PyTorch's strided copy took 10-11 us where inductor's
    layout kernel took 2 (H100, MobileNetV2's 32x96x14x14 input). Anything else (not 4D float32 on a
    GPU, not in the one layout, too large for the grid) is converted by PyTorch."""
    format = torch.channels_last if channels_last else torch.contiguous_format
    source_format = torch.contiguous_format if channels_last else torch.channels_last
    if not (x.dim() == 4 and x.is_cuda and x.dtype == torch.float32 and x.is_contiguous(memory_format=source_format)
            and not x.is_contiguous(memory_format=format)):
        return x.contiguous(memory_format=format)
    n, c, h, w = x.shape
    rows, cols = (c, h * w) if channels_last else (h * w, c)
    if -(-rows // 32) > 65535 or c * h * w >= 2**31:
        return x.contiguous(memory_format=format)
    out = torch.empty(x.shape, device=x.device, dtype=x.dtype, memory_format=format)
    device = x.device.index
    if min(rows, cols) < 32:
        grid = (min(-(-(rows * cols if rows < cols else rows) // 256), 1024), min(n, 65535))
        _hiera_launch(_hiera_kernel(_HIERA_RELAYOUT_NARROW_SRC, "hiera_relayout_narrow", device), device, grid, 256,
                      0, x, out, n, rows, cols)
        return out
    grid = (-(-cols // 32), -(-rows // 32), min(n, 65535))
    _hiera_launch(_hiera_kernel(_HIERA_RELAYOUT_SRC, "hiera_relayout", device), device, grid, (32, 8), 0, x, out,
                  n, rows, cols)
    return out
