"""Peak rates of the GPUs HIERA knows, for roofline bounds. Pure data, no torch.

Rates are dense (no sparsity) datasheet figures; `mem_bw` is the attainable copy bandwidth,
measured where we could (H200: 4.3 TB/s device-to-device on this workplace's machines) and
otherwise 90% of the datasheet figure. The CPU entry is a nominal estimate for a small
x86-64 machine: roofline percentages on CPU are indicative only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Peaks:
    key: str
    name: str
    fp32: float  # FLOP/s on CUDA cores (strict fp32)
    tf32: float  # FLOP/s on tensor cores
    bf16: float  # FLOP/s on tensor cores (fp16 is the same on every GPU here)
    mem_bw: float  # bytes/s attainable
    l2_bytes: int
    sms: int
    note: str = ""

    def flops_for(self, dtype: str, precision: str) -> float:
        if dtype in ("float16", "bfloat16"):
            return self.bf16
        if dtype == "float32" and precision in ("tf32", "bf16", "fp16"):
            return self.tf32
        if dtype == "float64":
            return self.fp32 / 2
        return self.fp32

    def to_dict(self) -> dict:
        return asdict(self)


TABLE: dict[str, Peaks] = {p.key: p for p in (
    Peaks("h200", "NVIDIA H200", 67e12, 494.7e12, 989.5e12, 4.3e12, 60 * 2**20, 132,
          "copy bandwidth measured on an H200 (4.3 TB/s of 4.8 datasheet)"),
    Peaks("h100", "NVIDIA H100 SXM", 67e12, 494.7e12, 989.5e12, 3.0e12, 50 * 2**20, 132),
    Peaks("a100", "NVIDIA A100 SXM", 19.5e12, 156e12, 312e12, 1.8e12, 40 * 2**20, 108),
    Peaks("l40s", "NVIDIA L40S", 91.6e12, 183e12, 362e12, 0.78e12, 96 * 2**20, 142),
    Peaks("rtx4090", "NVIDIA GeForce RTX 4090", 82.6e12, 82.6e12, 165.2e12, 0.9e12, 72 * 2**20, 128),
    Peaks("b200", "NVIDIA B200", 80e12, 1100e12, 2250e12, 7.2e12, 126 * 2**20, 148),
    Peaks("cpu", "CPU (nominal)", 0.1e12, 0.1e12, 0.05e12, 20e9, 32 * 2**20, 0,
          "nominal estimate for a small x86-64 machine"),
)}

ALIASES = {"h200": ("h200",), "h100": ("h100",), "a100": ("a100",), "l40s": ("l40s",),
           "rtx4090": ("4090",), "b200": ("b200",)}


def match_name(device_name: str) -> Peaks | None:
    """Table entry for a device name as CUDA reports it, e.g. 'NVIDIA H200'."""
    lowered = device_name.lower().replace(" ", "")
    for key, needles in ALIASES.items():
        if any(needle in lowered for needle in needles):
            return TABLE[key]
    return None


def lookup(key_or_name: str) -> Peaks:
    """Entry by table key ('h200') or device name; unknown GPUs get the H100 rates, said in the note."""
    if key_or_name.lower() in TABLE:
        return TABLE[key_or_name.lower()]
    found = match_name(key_or_name)
    if found:
        return found
    base = TABLE["h100"]
    return Peaks("unknown", key_or_name, base.fp32, base.tf32, base.bf16, base.mem_bw, base.l2_bytes,
                 base.sms, f"unknown GPU '{key_or_name}': H100 rates assumed")
