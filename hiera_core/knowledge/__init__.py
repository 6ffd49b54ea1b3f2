"""Expert knowledge for prompts: techniques tagged by workload class, op kind and space.

Each `Entry` says what the technique is, when it pays, when it does not, what changes on Hopper
(H100/H200, sm_90), and gives a short example. `select` retrieves the entries whose tags match a
task, ranked by how much of the task's time their op kinds cover, instead of dumping the whole
base into every prompt. Pure data and text.
"""

from __future__ import annotations

from hiera_core.knowledge.entry import Entry
from hiera_core.spaces.strategy import SPACES
from hiera_core.spec.model import WORKLOAD_CLASSES
from hiera_core.spec.opkinds import MODULE_KINDS

OP_KINDS = ("pointwise", "matmul", "conv", "reduction", "softmax", "norm", "pool", "attention", "view", "copy",
            "other")


def all_entries() -> list[Entry]:
    from hiera_core.knowledge.entries import ENTRIES

    return list(ENTRIES)


def select(workload_class: str, op_shares: dict[str, float], space: str | None = None, device: str = "cuda",
           limit: int = 5) -> list[Entry]:
    """Entries for a task: its class and op kinds (kind -> share of time), optionally one space.

    An entry qualifies when its class matches and it either names no ops or names an op kind the
    task has. It ranks by the time share its op kinds cover, times the square root of the fraction
    of its op kinds the task has (so a softmax entry beats a catch-all on a softmax task);
    entries naming no ops get a small base. Ties break by key, for stable prompts.
    """
    scored = []
    for entry in all_entries():
        if workload_class not in entry.classes or (space and space not in entry.spaces) \
                or (entry.cuda_only and device != "cuda"):
            continue
        matched = [kind for kind in entry.ops if kind in op_shares]
        if entry.ops and not matched:
            continue
        covered = sum(op_shares[kind] for kind in matched)
        score = covered * (len(matched) / len(entry.ops)) ** 0.5 if entry.ops else 0.05
        scored.append((-score, entry.key, entry))
    return [entry for _, _, entry in sorted(scored)[:limit]]


def op_shares_of(ops: list) -> dict[str, float]:
    """Op kind -> share of time, from a spec's op breakdown (`Spec.ops`); views are free."""
    shares: dict[str, float] = {}
    for op in ops:
        if op.kind != "view":
            shares[op.kind] = shares.get(op.kind, 0.0) + op.share
    return shares


# Words in a GPU kernel's name that say what it computes, tried in order (a conv kernel often says
# "gemm" too: conv first). aten:: and torch names go through hiera_core.spec.opkinds instead.
_KERNEL_WORDS = (("conv", "conv"), ("wgrad", "conv"), ("dgrad", "conv"), ("fmha", "attention"),
                 ("flash", "attention"), ("attention", "attention"), ("gemm", "matmul"), ("gemv", "matmul"),
                 ("matmul", "matmul"), ("cutlass", "matmul"), ("softmax", "softmax"), ("norm", "norm"),
                 ("pool", "pool"), ("reduce", "reduction"), ("reduction", "reduction"), ("elementwise", "pointwise"),
                 ("unrolled", "pointwise"), ("triton_poi", "pointwise"), ("triton_red", "reduction"),
                 ("triton_per", "reduction"), ("copy", "copy"), ("cat", "copy"))


def kind_of_kernel(name: str) -> str:
    """Op kind of a profiled kernel or op: an aten/torch name by its op, a CUDA kernel by its name."""
    from hiera_core.spec.opkinds import kind_of_name

    if "::" in name and not name.startswith(("void ", "at::native")) and (kind := kind_of_name(name)) != "other":
        return kind
    lowered = name.lower()
    return next((kind for word, kind in _KERNEL_WORDS if word in lowered), "other")


def op_shares_of_kernels(kernels: list[dict]) -> dict[str, float]:
    """Op kind -> share of time from a candidate's profile (its top kernels or ops: name, share)."""
    shares: dict[str, float] = {}
    for kernel in kernels:
        kind = kind_of_kernel(str(kernel.get("name", "")))
        if kind != "view":
            shares[kind] = shares.get(kind, 0.0) + float(kernel.get("share") or 0.0)
    return shares


def render(entries: list[Entry]) -> str:
    return "\n\n".join(entry.render() for entry in entries) if entries else "(no entry matches this workload)"


def validate() -> list[str]:
    """Problems in the base (unknown tags, empty fields, duplicate keys); empty when sound."""
    problems, seen = [], set()
    known_ops = set(OP_KINDS) | set(MODULE_KINDS.values())
    for entry in all_entries():
        if entry.key in seen:
            problems.append(f"{entry.key}: duplicate key")
        seen.add(entry.key)
        problems += [f"{entry.key}: unknown space {s}" for s in entry.spaces if s not in SPACES]
        problems += [f"{entry.key}: unknown class {c}" for c in entry.classes if c not in WORKLOAD_CLASSES]
        problems += [f"{entry.key}: unknown op kind {o}" for o in entry.ops if o not in known_ops]
        problems += [f"{entry.key}: empty {name}" for name in ("technique", "pays", "not_when", "hopper", "example")
                     if not getattr(entry, name).strip()]
        if not entry.spaces or not entry.classes:
            problems.append(f"{entry.key}: needs at least one space and one class")
    return problems
