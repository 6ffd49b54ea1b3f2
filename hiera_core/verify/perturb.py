"""Perturbed parameters: the reference's state moved at its own scale from the run's seed, so that a
candidate specialised on the initial values (a zero gate, initial running statistics, a tiny
scale) fails verification. Imports torch lazily: worker processes only.
"""

from __future__ import annotations

PERTURB_FLOOR = 0.1  # the least scale a parameter moves by: zero gates and tiny LayerScales move too


def perturbed_state(state: dict, seed: int) -> dict:
    """Floating-point parameters and buffers moved at their own scale (at least PERTURB_FLOOR):
    signed ones by noise of half that scale; non-negative ones (variances, scales) multiplied by
    exp(noise/2), or, when tiny, moved up by half the floor times |noise|, so they stay positive.
    Integers are kept."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    moved = {}
    for name, value in state.items():
        if not value.is_floating_point() or value.numel() == 0:
            moved[name] = value.clone()
            continue
        noise = torch.randn(value.shape, generator=generator, dtype=torch.float32).to(value.device)
        as_float = value.float()
        rms = float(as_float.pow(2).mean().sqrt())
        if bool((as_float >= 0).all()) and bool((as_float > 0).any()):
            moved[name] = (as_float * torch.exp(0.5 * noise) if rms >= PERTURB_FLOOR
                           else as_float + 0.5 * PERTURB_FLOOR * noise.abs()).to(value.dtype)
        else:
            moved[name] = (as_float + 0.5 * max(rms, PERTURB_FLOOR) * noise).to(value.dtype)
    return moved
