#!/usr/bin/env bash
# The product as a user installs it: `pip install .` (no extras, not editable) into a fresh venv that
# has only the CPU torch, then the server, the checker and the bench report from that install alone.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# The sources as a clone has them (tracked and new files, nothing ignored), so the build leaves no
# build/ or egg-info behind in the checkout and cannot pick up a stray local file.
mkdir "$work/src"
git ls-files -z --cached --others --exclude-standard \
    | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$work/src"
python3 -m venv "$work/venv"
bin="$work/venv/bin"
"$bin/pip" install -q torch==2.13.0  # the CPU wheel on this machine's disk
"$bin/pip" install -q "$work/src"
# torch is the user's choice: installing HIERA must not have swapped in a CUDA build
"$bin/python" -c "import torch, sys; sys.exit(0 if torch.__version__.endswith('+cpu') else f'torch {torch.__version__}')"
if "$bin/pip" list 2>/dev/null | grep -qi '^nvidia-'; then
    echo "plain install pulled CUDA packages:" >&2; "$bin/pip" list | grep -i '^nvidia-' >&2; exit 1
fi

cd "$work"  # away from the checkout: what runs is the installed package
export PATH="$bin:$PATH" HIERA_MODEL="" OPENAI_API_KEY=""

"$bin/python" "$checkout/.ci/lsp_handshake.py" hiera-lsp

printf '__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\nvoid run(float* x) { k<<<1, 2000>>>(x); }\n' > bad.cu
set +e
hiera-lsp --check bad.cu > check.out
status=$?
set -e
cat check.out
[ "$status" -eq 1 ] || { echo "hiera-lsp --check bad.cu exited $status, expected 1" >&2; exit 1; }
grep -q '^bad.cu:2:.*HC105' check.out || { echo "hiera-lsp --check did not report HC105" >&2; exit 1; }

hiera bench --help > /dev/null
mkdir -p suite
for task in "1_Tanh:torch.tanh(x) * 0.5" "2_Scale_Add:x * 2.0 + 1.0"; do
    cat > "suite/${task%%:*}.py" <<TASK
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return ${task#*:}


def get_inputs():
    return [torch.randn(64, 64)]


def get_init_inputs():
    return []
TASK
done
printf "[project]\nname = 'scratch'\n" > pyproject.toml  # HIERA's store lands here, not in the checkout
hiera bench suite/1_Tanh.py suite/2_Scale_Add.py --device cpu --budget 1 --out out
test -s out/report.html || { echo "hiera bench wrote no report.html" >&2; exit 1; }
echo "plain install: server, --check and bench report work ($((SECONDS - started)) s)"
