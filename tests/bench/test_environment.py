"""The environment recorded with every result: nvidia-smi's answer parsed, the endpoint without
credentials, no key anywhere."""

import os
import stat

import pytest

from hiera_core.bench.environment import gpu_snapshot, host_environment, llm_environment, redact_endpoint
from hiera_core.llm.config import LLMConfig

SMI_ANSWER = "NVIDIA H200, 580.159.04, 1980, 3201, 1980, 3201, P0, 41, 121.35, [N/A], 143771"


@pytest.fixture
def fake_smi(tmp_path, monkeypatch):
    """An nvidia-smi on PATH that records its arguments and prints one CSV line."""
    script = tmp_path / "nvidia-smi"
    script.write_text(f'#!/bin/sh\necho "$@" > "{tmp_path}/args"\necho "{SMI_ANSWER}"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path))
    return tmp_path


def test_gpu_snapshot_parses_nvidia_smi(fake_smi, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,5")
    snapshot = gpu_snapshot()
    assert snapshot == {"gpu_name": "NVIDIA H200", "driver": "580.159.04", "sm_clock_mhz": 1980,
                        "mem_clock_mhz": 3201, "max_sm_clock_mhz": 1980, "max_mem_clock_mhz": 3201, "pstate": "P0",
                        "temperature_c": 41, "power_draw_w": 121.35, "power_limit_w": None,
                        "memory_total_mib": 143771}
    args = (fake_smi / "args").read_text().split()
    assert "--format=csv,noheader,nounits" in args and args[-2:] == ["-i", "3"]  # the GPU the workers see


def test_no_nvidia_smi_means_no_gpu_fields(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert gpu_snapshot() == {}


def test_a_failing_nvidia_smi_is_recorded_not_raised(tmp_path, monkeypatch):
    script = tmp_path / "nvidia-smi"
    script.write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert gpu_snapshot() == {"gpu_query_error": "NVIDIA-SMI has failed"}


def test_endpoint_without_credentials_and_no_key():
    assert redact_endpoint("https://user:sk-secret@llm.example:8443/v1?api_key=sk-x") == "https://llm.example:8443/v1"
    assert redact_endpoint(None) is None
    assert llm_environment(LLMConfig()) == {"model": None, "endpoint": None}
    config = LLMConfig(model="qwen-coder", base_url="http://me:pw@127.0.0.1:8000/v1", api_key="sk-secret")
    assert llm_environment(config) == {"model": "qwen-coder", "endpoint": "http://127.0.0.1:8000/v1"}


def test_host_environment(fake_smi):
    environment = host_environment("cuda", {"model": None, "endpoint": None})
    assert environment["device"] == "cuda" and environment["gpu_name"] == "NVIDIA H200"
    assert environment["hiera_version"] and environment["python"] and environment["cpu_count"] == os.cpu_count()
    assert "api_key" not in environment
