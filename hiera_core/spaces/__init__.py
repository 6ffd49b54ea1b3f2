"""The three implementation spaces and their strategies.

A *strategy* (e.g. `pytorch.compile_default`, `cuda_libs.cudnn_fused_conv`, `custom_cuda.row_softmax`)
knows, from the spec alone, whether and why it applies (`applies`, pure, used by the planner in the
orchestrating process) and how to write a candidate (`generate`, run in a worker process where torch
and the reference module are available).

A *candidate* is Python source appended after the verbatim copy of the reference file: it defines
`class ModelNew(<ReferenceClass>)` (so the constructor signature and state_dict keys are the
reference's) and overrides `forward`. Space modules import torch only inside `generate`.
"""

from hiera_core.spaces.strategy import Strategy, registered


def strategies() -> dict[str, Strategy]:
    """All registered strategies; importing the space modules registers them."""
    from hiera_core.spaces import (  # noqa: F401  (registration)
        algebra,
        algebra_diagonal,
        algebra_scan,
        cuda_libs,
        custom_cuda,
        pytorch_ops,
    )

    return registered()
