"""Preparing the reference: the worker's spec, plan and candidates, cached in the store by what they
depend on (`spec_cache_parts`: the module's content, its settings, the device and the versions of
torch and of HIERA), so a second run on an unchanged module does not run it again; whether the
reference is already at its roofline limit, and the index's profile part of its timing."""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import subprocess
from pathlib import Path

from hiera_core import __version__
from hiera_core.errors import HieraError
from hiera_core.events import Event
from hiera_core.index_entry import ProfiledKernel, ProfileEntry
from hiera_core.loop.session import Session, Settings
from hiera_core.spaces.algebra import rewrites_the_work
from hiera_core.spec.model import Spec
from hiera_core.store import cache_key, iso_time, source_digest
from hiera_core.worker.requests import PrepareRequest, PrepareResult

# A reference measured at this share of its roofline bound or more has at most 1/share to gain: no
# candidate is compiled for it unless one changes the work itself (an exact algebraic rewrite).
AT_LIMIT_SHARE = 0.9

SPEC_CACHE = "spec"  # the store's cache kind
SPEC_CACHE_FORMAT = 1  # the entry's layout; a change makes old entries misses


def prepare_reference(session: Session) -> PrepareResult:
    """The worker's `prepare` result (spec, plan, candidates), from the store's cache when an entry
    matches and --no-cache was not given; a fresh, measured result is cached. Says which it was
    (optimize, spec and plan)."""
    settings = session.settings
    parts, why_not = spec_cache_parts(session)
    session.spec_parts = parts
    key = cache_key(parts) if parts else None
    if key and settings.cache:
        prepared = cached_prepared(session.store.read_cache(SPEC_CACHE, key), parts)
        if prepared is not None:
            prepared.spec.file = session.path  # the content is the key: the module may have moved
            measured = prepared.spec.environment.get("created", "earlier")
            note = f"spec from cache (key {key[:12]}, measured {measured}; --no-cache measures afresh)"
            session.state.spec_cache = {"key": key, "used": True, "note": note}
            session.stage("spec", note, 0.25, cache={"key": key, "used": True,
                                                     "path": str(session.store.cache_path(SPEC_CACHE, key))})
            return prepared
    session.stage("spec", "running the reference to build its contract and workload spec", 0.05)
    prepared = session.worker(PrepareRequest, "building the spec and candidates", "prepare", gpu=settings.gpu,
                              meta=settings.meta, implement=True, budget=settings.budget)
    if key is None:
        note = f"spec not cached: {why_not}"
    elif prepared.meta_only or not prepared.spec.measured:
        note = "spec not cached: it was not measured (a meta-device trace)"  # memory may be free next time
    else:
        session.store.write_cache(SPEC_CACHE, key, {"format": SPEC_CACHE_FORMAT, "key": key, "parts": parts,
                                                    "written": iso_time(), "prepared": prepared.to_dict()})
        note = f"spec measured and cached (key {key[:12]})"
    session.state.spec_cache = {"key": key, "used": False, "note": note}
    session.emit(Event("log", stage="spec", message=note, data={"cache": {"key": key, "used": False}}))
    return prepared


def spec_cache_parts(session: Session) -> tuple[dict | None, str]:
    """(what the prepared spec depends on, ""), or (None, why it cannot be told here): the module's
    content with the same-folder modules it imports, its class, the settings that shape the spec
    and the candidates (device, roofline target, meta, budget; directives are in the source), the
    device model, and the versions of torch, of HIERA's own code and whether custom CUDA is on."""
    settings = session.settings
    versions = worker_versions(settings.python)
    if versions is None:
        return None, "the workers' torch version could not be read"
    model = device_model(settings)
    if model is None:
        return None, "the GPU's model could not be read (nvidia-smi)"
    return {"format": SPEC_CACHE_FORMAT, "source": source_digest(session.path), "class": session.class_name,
            "device": settings.device, "device_model": model, "gpu": settings.gpu, "meta": settings.meta,
            "budget": settings.budget, "hiera": hiera_version(), **versions}, ""


def cached_prepared(entry: dict | None, parts: dict) -> PrepareResult | None:
    """The entry's prepare result when it was written for exactly `parts` and reads as one (a
    partial or corrupt entry is no entry); else None."""
    if not entry or entry.get("format") != SPEC_CACHE_FORMAT or entry.get("parts") != parts:
        return None
    try:
        prepared = PrepareResult.from_dict(entry["prepared"])
    except (KeyError, TypeError, ValueError, AttributeError, HieraError):
        return None
    if prepared.plan is None or not isinstance(prepared.rejected, list):
        return None
    return prepared


@functools.lru_cache(maxsize=1)
def hiera_version() -> str:
    """HIERA's version and a digest of its package's files: its code changed under one version
    number (an edit, a checkout) is another version to the cache."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".cu", ".cuh", ".json", ".md", ".txt") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:16]}"


_VERSIONS_PROBE = """
import importlib.metadata, importlib.util, json

def found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False

print(json.dumps({"torch": importlib.metadata.version("torch"),
                  "custom_cuda": all(found(name) for name in ("cuda.core", "cuda.bindings"))}))
"""


@functools.lru_cache(maxsize=8)
def worker_versions(python: str | None) -> dict | None:
    """{"torch": version, "custom_cuda": whether its modules are installed} as the workers'
    interpreter (`python`, default this one) sees them, without importing torch; None when unreadable."""
    if python is None:
        from importlib import metadata

        from hiera_core.cuda.nvrtc import custom_cuda_unavailable

        try:
            return {"torch": metadata.version("torch"), "custom_cuda": custom_cuda_unavailable() is None}
        except metadata.PackageNotFoundError:
            return None
    try:
        answer = subprocess.run([python, "-c", _VERSIONS_PROBE], capture_output=True, text=True, timeout=60)
        return json.loads(answer.stdout) if answer.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None


def device_model(settings: Settings) -> str | None:
    """The model of the device the workers run on: the GPU's name as nvidia-smi gives it (the
    placement's GPU, else the first visible one), or "cpu" and the processor; None when unreadable."""
    if settings.device == "cpu":
        return f"cpu {platform.processor() or platform.machine()}"
    from hiera_core.bench.environment import gpu_snapshot

    return gpu_snapshot(settings.placement.gpu if settings.placement else None).get("gpu_name") or None


def at_roofline_limit(spec: Spec, candidates: list[dict]) -> str | None:
    """Why no candidate is worth its compile, when the reference was measured, on the GPU its
    roofline is for, at AT_LIMIT_SHARE of its bound or more; None otherwise."""
    from hiera_core.spec import gpus

    here = gpus.match_name(spec.environment.get("device_name") or "")
    if not (spec.measured and spec.device == "cuda" and spec.reference_ms and spec.roofline.bound_ms
            and here is not None and here.key == spec.roofline.device):
        return None
    share = spec.roofline.bound_ms / spec.reference_ms
    if share < AT_LIMIT_SHARE or any(rewrites_the_work(c["space"], c["strategy"]) for c in candidates):
        return None
    return (f"the reference runs at {100 * share:.0f}% of its roofline bound ({spec.roofline.bound_ms * 1000:.3g} us "
            f"{spec.roofline.limiter}-limited on {spec.roofline.device_name}, measured {spec.reference_ms * 1000:.3g} "
            f"us): at most {1 / share:.2f}x is left, so no candidate was compiled")


def profile_record(spec: Spec, timing: dict) -> ProfileEntry:
    """The index's `profile` part (what the hover shows); `timing` as a dict (a Timing's, or a
    candidate outcome's record of one)."""
    bound = spec.roofline.bound_ms
    return ProfileEntry(
        device=spec.device, device_name=spec.environment.get("device_name", spec.device),
        latency_ms=timing["median_ms"], spread_ms=timing["iqr_ms"], method=timing["method"],
        bound=timing.get("bound"), gpu_ms=timing.get("gpu_median_ms"), host_ms=timing.get("host_median_ms"),
        kernels=[ProfiledKernel(name=kernel["name"], ms=kernel["ms"], share=kernel["share"])
                 for kernel in timing.get("kernels", [])],
        kernel_sum_ms=timing.get("kernel_sum_ms"), flops=spec.flops, bytes=spec.bytes_min, intensity=spec.intensity,
        roofline_bound_ms=bound, roofline_device=spec.roofline.device_name,
        roofline_pct=100 * bound / timing["median_ms"] if timing["median_ms"] else None,
        workload_class=spec.workload_class, date=iso_time())
