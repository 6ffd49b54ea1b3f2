#!/usr/bin/env bash
# The GPU work of a session, in device-call-sized parts (each well under 10 minutes on an H200).
# Run from the repository root on the device machine:
#   bash benchmarks/gpu_session.sh tests      # pytest -m gpu: engine, custom CUDA, adversarial corpus
#   bash benchmarks/gpu_session.sh examples   # issue 2 table: eager / torch.compile / HIERA per example
#   bash benchmarks/gpu_session.sh kernels    # issue 9 table and NVRTC compile times; verifier cost
#   bash benchmarks/gpu_session.sh suite      # issue 8: benchmarks/suite in offline mode, resumable
# examples and suite each take about 100 s per task on an H200 (2026-11-29): one call finishes
# about 5 tasks. Carry their output folder (bench-examples, bench-suite) and call again to resume.
# Results land in $OUT (or ./gpu-out). The device image lacks openai: carry its wheels in .whl/llm
# (see docs/llm.md) for tests/llm/test_llm_gpu.py; without them that test is skipped.
set -uo pipefail
out="${OUT:-gpu-out}"
mkdir -p "$out"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if compgen -G ".whl/llm/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/llm/*.whl \
    && export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
python3 -c "import torch, cuda.core; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cuda.core', cuda.core.__version__)" | tee -a "$out/gpu.txt"

case "${1:-tests}" in
  tests)
    dirs="tests/gpu tests/cuda tests/adversarial"
    python3 -c "import openai" 2>/dev/null && dirs="$dirs tests/llm/test_llm_gpu.py tests/llm/test_llm_extensions.py"
    timeout 560 python3 -m pytest -m gpu $dirs -q --durations=20 -p no:cacheprovider --basetemp=/tmp/pt 2>&1 | tee "$out/pytest_gpu.log" | tail -40
    ;;
  examples|suite)
    folder="bench-$1"
    targets=$([ "$1" = examples ] && echo examples/*.py || echo benchmarks/suite)
    timeout -s INT 570 python3 -m hiera_core.cli bench $targets --device cuda --budget 4 --timeout 240 \
      --out "$folder" --resume --stop-after 470 2>&1 | tee "$out/$folder.txt" | tail -40
    cp "$folder"/results.json "$folder"/results.csv "$folder"/report.html "$out/" 2>/dev/null
    tar czf "$out/$folder.tgz" "$folder"
    ;;
  kernels)
    timeout 300 python3 benchmarks/bench_nvrtc.py --gpu 2>&1 | tee "$out/bench_nvrtc.txt" | tail -30
    timeout 240 python3 benchmarks/bench_verify.py --device cuda 2>&1 | tee "$out/bench_verify.txt" | tail -20
    ;;
  *)
    echo "usage: $0 tests|examples|kernels|suite" >&2
    exit 2
    ;;
esac
