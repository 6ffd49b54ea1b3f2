"""What a bench result was measured on: GPU, clocks, driver, CUDA, torch, HIERA, model, endpoint.

Read without importing torch: the GPU through `nvidia-smi` (when present), torch's own view
(version, CUDA, cuDNN, device name) comes from the worker that timed the task. The model and
endpoint come from the engine's resolved LLM configuration; the API key is never recorded, and
the endpoint is recorded without credentials or query.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from importlib import metadata
from urllib.parse import urlsplit, urlunsplit

from hiera_core import __version__
from hiera_core.errors import ErrorKind, HieraError

# nvidia-smi query field -> (our key, numeric?)
GPU_FIELDS = {
    "name": ("gpu_name", False),
    "driver_version": ("driver", False),
    "clocks.sm": ("sm_clock_mhz", True),
    "clocks.mem": ("mem_clock_mhz", True),
    "clocks.max.sm": ("max_sm_clock_mhz", True),
    "clocks.max.mem": ("max_mem_clock_mhz", True),
    "pstate": ("pstate", False),
    "temperature.gpu": ("temperature_c", True),
    "power.draw": ("power_draw_w", True),
    "power.limit": ("power_limit_w", True),
    "memory.total": ("memory_total_mib", True),
}


def _value(text: str, numeric: bool):
    text = text.strip()
    if not text or text.strip("[]").lower() in ("n/a", "not supported", "unknown error"):
        return None
    if not numeric:
        return text
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text


def _visible_gpu() -> str:
    """The GPU the workers use: the first of CUDA_VISIBLE_DEVICES (an index or a UUID), else 0."""
    first = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
    return first or "0"


def gpu_snapshot(gpu: str | None = None) -> dict:
    """Name, driver, current and maximum clocks, power and temperature of `gpu` (an index or UUID;
    default: the workers' GPU); {} without nvidia-smi."""
    executable = shutil.which("nvidia-smi")
    if executable is None:
        return {}
    try:
        answer = subprocess.run([executable, f"--query-gpu={','.join(GPU_FIELDS)}", "--format=csv,noheader,nounits",
                                 "-i", gpu or _visible_gpu()], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"gpu_query_error": str(error)[:200]}
    lines = answer.stdout.strip().splitlines()
    if answer.returncode != 0 or not lines:
        return {"gpu_query_error": (answer.stderr or answer.stdout).strip()[:200]}
    values = lines[0].split(",")
    return {key: _value(value, numeric) for (key, numeric), value in zip(GPU_FIELDS.values(), values)}


def redact_endpoint(url: str | None) -> str | None:
    """The endpoint without user:password@ or a query string (where keys sometimes travel)."""
    if not url:
        return None
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _installed(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def llm_environment(config) -> dict:
    """The model and endpoint of a resolved hiera_core.llm.config.LLMConfig (None offline); no key."""
    if not config.enabled:
        return {"model": None, "endpoint": None}
    return {"model": config.model, "endpoint": redact_endpoint(config.endpoint())}


def host_environment(device: str, llm: dict) -> dict:
    """What the orchestrating process can tell: versions, CPU, the GPU, and `llm` (model, endpoint)."""
    return {"hiera_version": __version__, "device": device, "python": platform.python_version(),
            "platform": platform.platform(terse=True), "cpu": _cpu_model(), "cpu_count": os.cpu_count(),
            "torch": _installed("torch"), **llm, **gpu_snapshot()}


def gpu_indices() -> list[str]:
    """The GPUs to spread work over: CUDA_VISIBLE_DEVICES's entries when set, else every GPU
    nvidia-smi lists (by its index, which workers see in the same order: see isolate.run_worker)."""
    visible = [name.strip() for name in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if name.strip()]
    if visible:
        return visible
    executable = shutil.which("nvidia-smi")
    if executable is None:
        raise HieraError("nvidia-smi was not found, so the GPUs cannot be listed", kind=ErrorKind.USAGE,
                         hint="name the GPUs, e.g. --gpus 0,1, or install the NVIDIA driver's tools")
    try:
        answer = subprocess.run([executable, "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                                text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise HieraError(f"nvidia-smi failed: {error}", kind=ErrorKind.USAGE,
                         hint="name the GPUs, e.g. --gpus 0,1") from None
    listed = [line.strip() for line in answer.stdout.splitlines() if line.strip()]
    if answer.returncode != 0 or not listed:
        raise HieraError(f"nvidia-smi lists no GPU: {(answer.stderr or answer.stdout).strip()[:200]}",
                         kind=ErrorKind.USAGE, hint="check the driver with nvidia-smi, or run on CPU with --device cpu")
    return listed


def task_environment(host: dict, worker: dict | None, gpu: str | None = None) -> dict:
    """The run's environment with fresh GPU clocks (of `gpu`, where the task ran on one GPU of
    several) and the worker's own torch/CUDA/device view."""
    snapshot = {**host, **gpu_snapshot(gpu)}
    if gpu is not None:
        snapshot["gpu_index"] = gpu
    if worker:
        snapshot.update({key: worker.get(key) for key in ("torch", "cuda", "cudnn", "device_name", "threads")
                         if key in worker})
    return snapshot
