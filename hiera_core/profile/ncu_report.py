"""What Nsight Compute measured of one call of a candidate (hiera_core.profile.ncu runs it): per
kernel, its counters (`KernelCounters`), and the report the `ncu` worker op returns (`NcuReport`)
with the text the refinement prompt shows. Torch-free: the orchestrator reads it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from hiera_core.errors import ErrorKind, HieraError

TOP_KERNELS = 5  # kernels the text shows
NAME_CHARS = 100


@dataclass
class KernelCounters:
    """One kernel of the profiled call: its launches together (durations summed; the other figures
    are those of its longest launch)."""

    name: str
    launches: int = 0
    duration_ns: float | None = None
    sm_throughput_pct: float | None = None
    memory_throughput_pct: float | None = None
    dram_throughput_pct: float | None = None
    l2_hit_pct: float | None = None
    achieved_occupancy_pct: float | None = None
    theoretical_occupancy_pct: float | None = None
    registers: float | None = None

    def line(self) -> str:
        name = self.name if len(self.name) <= NAME_CHARS else self.name[:NAME_CHARS - 3] + "..."
        parts = [f"{self.duration_ns / 1000:.4g} us" if self.duration_ns is not None else "duration ?"]
        if self.sm_throughput_pct is not None or self.memory_throughput_pct is not None:
            parts.append(f"SM {_pct(self.sm_throughput_pct)} / memory {_pct(self.memory_throughput_pct)} of peak")
        if self.dram_throughput_pct is not None:
            parts.append(f"DRAM {_pct(self.dram_throughput_pct)}")
        if self.l2_hit_pct is not None:
            parts.append(f"L2 hit {_pct(self.l2_hit_pct)}")
        if self.achieved_occupancy_pct is not None:
            parts.append(f"occupancy {_pct(self.achieved_occupancy_pct)} achieved"
                         + (f" of {_pct(self.theoretical_occupancy_pct)} theoretical"
                            if self.theoretical_occupancy_pct is not None else ""))
        if self.registers is not None:
            parts.append(f"{self.registers:.0f} registers/thread")
        launches = f" x{self.launches}" if self.launches > 1 else ""
        return f"{name}{launches}: " + "; ".join(parts)


@dataclass
class NcuReport:
    """What Nsight Compute measured of one call (kernels by duration, longest first), or why nothing."""

    kernels: list[KernelCounters] = field(default_factory=list)
    note: str = ""  # why there are no figures, or what was left out of them

    def text(self) -> str:
        lines = []
        if self.kernels:
            lines.append(f"Nsight Compute, one call (top {min(TOP_KERNELS, len(self.kernels))} of "
                         f"{len(self.kernels)} kernels by duration):")
            lines += [f"  {kernel.line()}" for kernel in self.kernels[:TOP_KERNELS]]
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> NcuReport:
        """Refuses a key a report does not have: the result of a worker from another HIERA version."""
        unknown = sorted(set(data) - {"kernels", "note"})
        if unknown:
            raise HieraError(f"an Nsight Compute report has no {', '.join(unknown)}", kind=ErrorKind.INTERNAL,
                             hint="the orchestrator and the worker are from different versions of HIERA")
        return cls([KernelCounters(**kernel) for kernel in data.get("kernels", [])], data.get("note", ""))


def _pct(value: float | None) -> str:
    return "?" if value is None else f"{value:.0f}%"
