"""GPU: the stencil kernel's variants (registers along z, or the cp.async plane ring) against
cuDNN's depthwise convolution, on sizes that are not multiples of the tile, with bias, several
channels and volumes, and 7/27-point (3D) or 5/9-point (2D) taps."""

from __future__ import annotations

import itertools

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("cuda.core")

from hiera_core.cuda import proposal_runtime  # noqa: E402
from hiera_core.spaces.custom_cuda.graph import stencil_taps  # noqa: E402
from hiera_core.spaces.custom_cuda.templates import STENCIL_TILE_3D, stencil_source  # noqa: E402

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]

TILES_3D = {"registers": STENCIL_TILE_3D, "ring4": {"bx": 64, "by": 4, "ry": 4, "zc": 32, "ring": 4},
            "ring6": {"bx": 64, "by": 4, "ry": 4, "zc": 16, "ring": 6},
            "ring8_narrow": {"bx": 32, "by": 4, "ry": 2, "zc": 8, "ring": 8}}
TILES_2D = {"ring5": {"bx": 128, "by": 1, "ry": 1, "zc": 32, "ring": 5}}


def weights(channels: int, rank: int, points: str):
    weight = torch.randn(channels, 1, *(3,) * rank)
    if points == "star":  # the centre and its face neighbours only (7 or 5 points)
        mask = torch.zeros((3,) * rank)
        for offset in itertools.product((-1, 0, 1), repeat=rank):
            if sum(abs(o) for o in offset) <= 1:
                mask[tuple(o + 1 for o in offset)] = 1
        weight = weight * mask
    return weight


@pytest.mark.parametrize("points", ["star", "box"])
@pytest.mark.parametrize("tile", [*TILES_3D, *TILES_2D])
def test_stencil_variant_matches_cudnn_on_odd_sizes(tile, points):
    rank = 3 if tile in TILES_3D else 2
    config = {**TILES_3D, **TILES_2D}[tile]
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)
    shapes = [(1, 1, 37, 45, 67), (2, 3, 20, 33, 40), (1, 2, 5, 1, 130)] if rank == 3 else [(2, 3, 45, 131), (1, 1, 1, 7)]
    for shape in shapes:
        channels = shape[1]
        weight = weights(channels, rank, points).cuda()
        bias = torch.randn(channels, device="cuda")
        x = torch.randn(shape, device="cuda")
        taps = stencil_taps(weight, rank, pruned=True)
        source = stencil_source("hiera_stencil_test", taps, rank, config).source
        launch = (config["bx"], config["by"], config["by"] * config["ry"], config["zc"])
        got = proposal_runtime._hiera_stencil(source, "hiera_stencil_test", x, weight, bias, rank, launch)
        conv = torch.nn.functional.conv3d if rank == 3 else torch.nn.functional.conv2d
        expected = conv(x, weight, bias, padding=1, groups=channels)
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4, msg=lambda m: f"{tile} {shape}: {m}")
