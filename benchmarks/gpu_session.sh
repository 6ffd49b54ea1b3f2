#!/usr/bin/env bash
# The GPU work of a session, in device-call-sized parts (each well under 10 minutes on an H200).
# Run from the repository root on the device machine:
#   bash benchmarks/gpu_session.sh timing     # the timing method across fresh processes; stream checks (~3 min)
#   bash benchmarks/gpu_session.sh tests      # pytest -m gpu: engine, custom CUDA, adversarial timing (~5 min);
#                                             # the corpus entries in `corpus`, several at a time
#   bash benchmarks/gpu_session.sh templates  # pytest -m gpu tests/cuda only: every custom-CUDA template (~3 min)
#   bash benchmarks/gpu_session.sh examples   # issue 2 table: eager / torch.compile / HIERA per example
#   bash benchmarks/gpu_session.sh kernels    # issue 9 table, NVRTC compile times, verifier cost, LLM GPU tests
#   bash benchmarks/gpu_session.sh speed      # issue 24: bench_optimize cold then warm, TASKS (default: 3 proxy tasks)
#   bash benchmarks/gpu_session.sh speed-compare   # the same without warm workers, then with, on one machine
#   bash benchmarks/gpu_session.sh llm        # issue 25: the scripted-model GPU tests (region kernel, ncu feedback), -s
#   bash benchmarks/gpu_session.sh stencil    # the stencil against torch.compile's kernel and a copy; ncu of each;
#                                             # depthwise convolutions on narrow maps (bench_depthwise_narrow.py);
#                                             # the pool with a prologue and the layout kernel (bench_layout_pool.py)
#   bash benchmarks/gpu_session.sh autotune   # issue 24: max-autotune alone vs after two modes in one process (~4 min)
#   bash benchmarks/gpu_session.sh regions    # issue 23: every candidate graphed or not, compiled glue, costliest kernels
#   bash benchmarks/gpu_session.sh suite      # issue 8: benchmarks/suite in offline mode, resumable
#   bash benchmarks/gpu_session.sh proxy      # issue 23: benchmarks/proxy (LEVELS, default 2,3), resumable
#   ONLY="hacks/NAME ..." bash benchmarks/gpu_session.sh corpus   # the adversarial corpus, WORKERS at a time
#   bash benchmarks/gpu_session.sh both       # examples, then the suite with the time left
#   RERUN="level1/9_GroupNorm.py ..." bash benchmarks/gpu_session.sh suite   # those tasks again (each call that sets it; proxy too)
# examples and suite each take 90-140 s per task on an H200 (2026-11-29): one call finishes about
# 4 tasks per GPU (on nvidia-h200-x2 the bench runs one task per GPU at a time). Carry their output
# folder (bench-examples, bench-suite): after each call, here, `tar xzf <files_at>/bench-examples.tgz`
# (the latest call's archive, not an older one) and call again to resume.
# Results land in $OUT (or ./gpu-out). The device image lacks openai: carry its wheels in .whl/llm
# (see docs/llm.md) for the LLM GPU tests (in `kernels`: 150 s, mostly an extension build); without
# them those tests are skipped.
set -uo pipefail
out="${OUT:-gpu-out}"
mkdir -p "$out"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if [[ "${1:-tests}" =~ ^(kernels|llm)$ ]] && compgen -G ".whl/llm/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/llm/*.whl \
    && export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
python3 -c "import torch, cuda.core; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cuda.core', cuda.core.__version__)" | tee -a "$out/gpu.txt"

case "${1:-tests}" in
  timing)
    timeout 400 python3 benchmarks/bench_timing.py 2>&1 | tee "$out/bench_timing.txt" | tail -30
    timeout 120 python3 -m pytest -m gpu -v -p no:cacheprovider --basetemp=/tmp/pt-timing \
      "tests/adversarial/test_adversarial.py::test_on_gpu[hacks/side_stream]" \
      "tests/adversarial/test_adversarial.py::test_on_gpu[controls/two_streams_joined]" \
      tests/adversarial/test_timing_gpu.py 2>&1 | tee "$out/pytest_timing.log" | tail -20
    ;;
  templates)
    # The custom-CUDA templates alone (odd sizes, non-contiguous inputs, CUDA-graph replay): the part to
    # run first when templates were written on a CPU-only machine.
    timeout -s INT 570 python3 -m pytest -m gpu tests/cuda -v --durations=10 -p no:cacheprovider --basetemp=/tmp/pt \
      2>&1 | tee "$out/pytest_templates.log" | grep -v PASSED | tail -60
    ;;
  tests)
    # -v and SIGINT at the limit: if it runs long, the log still names each test's outcome and pytest
    # prints its summary and durations for what ran. The corpus's entries one at a time no longer fit
    # one call (H100, 2026-12-05: 99 of 190 tests in 570 s): `corpus` runs them side by side.
    timeout -s INT 570 python3 -m pytest -m gpu tests/gpu tests/cuda tests/adversarial -k "not test_on_gpu" -v \
      --durations=20 -p no:cacheprovider --basetemp=/tmp/pt 2>&1 | tee "$out/pytest_gpu.log" | grep -v PASSED | tail -60
    ;;
  corpus)
    # Entries share the GPU (WORKERS, default 6); any verdict that comes out wrong is evaluated again
    # alone, since only timing-sensitive verdicts can notice the sharing.
    only=${ONLY:+--only $ONLY}
    timeout -s INT "${CORPUS_S:-420}" python3 tests/adversarial/run_corpus.py --device cuda --workers "${WORKERS:-6}" \
      $only --stop-after $(( ${CORPUS_S:-420} - 90 )) --json "$out/corpus.json" 2>&1 | tee "$out/corpus.txt" | grep -v "^ok "
    wrong=$(grep -oE "^WRONG +[a-z]+/[a-z0-9_]+" "$out/corpus.txt" | awk '{print $2}' | tr '\n' ' ')
    if [ -n "$wrong" ]; then
      timeout -s INT 150 python3 tests/adversarial/run_corpus.py --device cuda --workers 1 --only $wrong 2>&1 \
        | tee "$out/corpus_alone.txt"
    fi
    ;;
  examples|suite|proxy|both)
    # `both`: the examples, then the suite with the time left. Each folder resumes where the last
    # call stopped; no task starts after CALL_S - 180 s, and any still running at CALL_S - 30 s is
    # interrupted. CALL_S (default 600, one device call) is this script's share of the call when other
    # work runs before it.
    call_s=${CALL_S:-600}
    parts=$([ "$1" = both ] && echo "examples suite" || echo "$1")
    # Several GPUs (nvidia-h200-x2): one task per GPU at a time.
    gpus=$([ "$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)" -gt 1 ] && echo "--gpus all")
    for part in $parts; do
      left=$((call_s - 180 - SECONDS))
      [ "$left" -gt 30 ] || break
      folder="bench-$part"
      case "$part" in
        examples) targets="examples/*.py" ;;
        proxy) targets="benchmarks/proxy --levels ${LEVELS:-2,3}" ;;
        *) targets=benchmarks/suite ;;
      esac
      rerun=$(for id in ${RERUN:-}; do printf -- "--rerun %s " "$id"; done)
      timeout -s INT $((call_s - 30 - SECONDS)) python3 -m hiera_core.cli.main bench $targets --device cuda --budget 4 --timeout 240 \
        $gpus --out "$folder" --resume $rerun --stop-after "$left" 2>&1 | tee "$out/$folder.txt" | tail -40
      mkdir -p "$out/$folder"
      cp "$folder"/results.json "$folder"/results.csv "$folder"/report.html "$out/$folder/" 2>/dev/null
      tar czf "$out/$folder.tgz" "$folder"
    done
    ;;
  stencil)
    # The stencil kernel against torch.compile's and a copy of the same bytes, then Nsight Compute on
    # one launch of each (H200.md: counters read on Firecracker machines).
    timeout 200 python3 benchmarks/profile_stencil.py 2>&1 | tee "$out/stencil_times.txt" | tail -8
    timeout 300 ncu --clock-control none --profile-from-start off --section SpeedOfLight \
      --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
      python3 benchmarks/profile_stencil.py --ncu > "$out/stencil_ncu.txt" 2>&1
    grep -E "^  [a-z_]+.*\(|Throughput|Hit Rate|Achieved Occupancy|Registers|Duration|Warp Cycles" "$out/stencil_ncu.txt" | head -60
    # Depthwise convolutions on maps 7 to 56 wide: the column kernel against the wide tile, eager, compile.
    timeout 200 python3 benchmarks/bench_depthwise_narrow.py 2>&1 | tee "$out/bench_depthwise_narrow.txt" | grep -v Warn
    # The pool with a prologue (a CNN stem's BN + ReLU + max pool) and the layout kernel, against
    # PyTorch and torch.compile (the +cudnn_nhwc composition's own kernels).
    timeout 150 python3 benchmarks/bench_layout_pool.py 2>&1 | tee "$out/bench_layout_pool.txt" | grep -v -i warn
    # Through the proposal path: the depthwise suite task (56 wide) and ConvNeXt's 7x7 (56 wide).
    timeout 150 python3 benchmarks/bench_nvrtc.py --gpu --no-compile --only benchmarks/suite/level1/4_Depthwise_Conv2d.py \
      benchmarks/proxy/level1/3_ConvNeXt_Depthwise_Conv7x7.py 2>&1 | tee "$out/bench_nvrtc_depthwise.txt" | tail -4
    # Stencil steps fused in time, each tile against a kernel per step, torch.compile and a copy.
    timeout 150 python3 benchmarks/bench_stencil_steps.py 2>&1 | tee "$out/bench_stencil_steps.txt" | grep -v Warn | tail -40
    ;;
  regions)
    # The level-3 tasks whose custom candidate leaves PyTorch ops between its kernels (compiled glue) and
    # two convolution nets, with each contender's costliest kernels: where inductor's GPU time is less.
    tasks=${TASKS:-"benchmarks/proxy/level3/4_ViT_Encoder_Block_SDPA.py benchmarks/proxy/level3/5_NanoGPT_Block.py benchmarks/proxy/level3/6_Swin_Shifted_Window_Block.py benchmarks/proxy/level3/9_Llama_Decoder_Layer.py benchmarks/proxy/level3/1_ResNet_BasicBlock_Stride2_Downsample.py benchmarks/proxy/level3/3_MobileNetV2_InvertedResidual_14x14.py"}
    timeout -s INT 570 python3 benchmarks/bench_regions.py $tasks --kernels 6 2>&1 | grep -v Warn \
      | tee "$out/bench_regions.txt" | grep -v "^      " | tail -80
    ;;
  autotune)
    timeout 280 python3 benchmarks/bench_autotune_order.py --limit-s 250 2>&1 | tee "$out/bench_autotune_order.txt"
    ;;
  kernels)
    timeout 200 python3 benchmarks/bench_nvrtc.py --gpu --sweep-stencil 2>&1 | tee "$out/bench_nvrtc.txt" | tail -45
    timeout 120 python3 benchmarks/bench_verify.py --device cuda 2>&1 | tee "$out/bench_verify.txt" | tail -20
    if python3 -c "import openai" 2>/dev/null; then
      timeout 250 python3 -m pytest -m gpu tests/llm/test_llm_gpu.py tests/llm/test_llm_extensions.py -q --durations=5 \
        -p no:cacheprovider --basetemp=/tmp/pt-llm 2>&1 | tee "$out/pytest_llm_gpu.log" | tail -15
    fi
    ;;
  speed|speed-compare)
    tasks=${TASKS:-"benchmarks/proxy/level1/7_Llama_RMSNorm.py benchmarks/proxy/level2/8_MobileNetV3_SqueezeExcitation.py benchmarks/proxy/level3/2_ResNet50_Bottleneck.py"}
    # WARM=0: without warm workers. speed-compare: without, then with (the default), on this machine
    # (about 450 s for the three default tasks on an H100).
    runs=$([ "$1" = speed-compare ] && echo "0 default" || echo "${WARM:-default}")
    for warm in $runs; do
      left=$((570 - SECONDS))
      [ "$left" -gt 60 ] || break
      timeout -s INT "$left" python3 benchmarks/bench_optimize.py $tasks --device cuda --budget 4 --timeout 240 \
        $([ "$warm" = default ] || echo "--warm-workers $warm") --out "$out/bench_optimize-warm-$warm.json" 2>&1 \
        | tee "$out/bench_optimize-warm-$warm.txt" | grep -v "^    " | tail -8
    done
    ;;
  llm)
    timeout -s INT 570 python3 -m pytest -m gpu tests/llm/test_llm_gpu.py -v -s --durations=5 \
      -p no:cacheprovider --basetemp=/tmp/pt-llm 2>&1 | tee "$out/pytest_llm_gpu.log" | tail -80
    ;;
  *)
    echo "usage: $0 timing|tests|templates|corpus|examples|kernels|speed|speed-compare|llm|stencil|autotune|regions|suite|proxy|both" >&2
    exit 2
    ;;
esac
