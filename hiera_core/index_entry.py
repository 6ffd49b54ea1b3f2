"""The store's index entry of a module (`.hiera/index/<task-key>.json`): its last run, spec, profile,
proposal and verification failures, what the editor's hover, diagnostics and code actions show.

Every HIERA command on the module updates its parts (hiera_core.store.Store.update_index, under the
store's lock: processes writing one entry at once keep each other's parts); the language server reads
it. Since the editor reads entries written by other versions of HIERA, an entry reads leniently
(hiera_core.lenient_record): a missing part reads as its default, an unknown one is ignored (and kept
on disk by the next update), a malformed file reads as the empty entry. Pure: no torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hiera_core.lenient_record import LenientRecord


@dataclass
class SpecEntry(LenientRecord):
    """The module's latest contract-augmented spec."""

    run: str = ""
    path: str = ""  # its spec.json in the run's folder


@dataclass
class ProfiledKernel(LenientRecord):
    """A kernel of a profile, with its share of the module's time."""

    name: str = ""  # as the profiler names it: a demangled signature
    ms: float | None = None  # per call
    share: float | None = None
    # ptxas's and the occupancy figures, when a profile records them (the hover shows each it finds)
    registers: int | None = None
    spills: int | None = None
    shared_bytes: int | None = None
    occupancy: float | None = None


@dataclass
class ProfileEntry(LenientRecord):
    """The module's latest timing (hiera_core.loop.reference.profile_record), also `hiera profile`'s result."""

    device: str = ""
    device_name: str = ""
    latency_ms: float | None = None
    spread_ms: float | None = None  # the timing's interquartile range
    method: str = ""
    # GPU: which figure is the latency, "gpu" or "host" (launches and Python set the pace), and both
    bound: str | None = None
    gpu_ms: float | None = None
    host_ms: float | None = None
    kernels: list[ProfiledKernel] = field(default_factory=list)
    kernel_sum_ms: float | None = None
    flops: float | None = None
    bytes: float | None = None
    intensity: float | None = None
    roofline_bound_ms: float | None = None
    roofline_device: str = ""
    roofline_pct: float | None = None
    workload_class: str = ""
    date: str = ""


@dataclass
class ProposalEntry(LenientRecord):
    """The module's latest proposal."""

    run: str = ""
    path: str = ""  # its proposal.py in the run's folder
    target: str = ""  # <stem>_hiera.py next to the module
    speedup: float | None = None
    space: str | None = None
    strategy: str | None = None
    verification: str | None = None
    device_name: str | None = None
    date: str = ""


@dataclass
class VerificationFailure(LenientRecord):
    """A check a candidate of the last run failed (optimize's candidates, or `hiera verify`'s file)."""

    candidate: str = ""
    check: str = ""
    message: str = ""
    reproducer: str = ""


@dataclass
class LastRun(LenientRecord):
    """The last run of any command on the module, and how it ended."""

    id: str = ""
    kind: str = ""  # the command: optimize, spec, plan, profile, verify
    status: str = ""  # proposal | no_improvement | passed | failed | interrupted
    date: str = ""
    error: dict | None = None  # a HieraError's dict, when it failed or was interrupted


@dataclass
class IndexEntry(LenientRecord):
    """The module's entry; read leniently (missing parts: defaults, unknown ones: ignored, a malformed
    file: the empty entry), since other versions of HIERA write it too."""

    file: str = ""
    class_name: str = field(default="", metadata={"key": "class"})
    spec: SpecEntry | None = None
    profile: ProfileEntry | None = None
    proposal: ProposalEntry | None = None
    verification_failures: list[VerificationFailure] = field(default_factory=list)
    last_run: LastRun | None = None
    updated: float | None = None  # time.time() of the last update
