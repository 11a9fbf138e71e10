#!/usr/bin/env bash
# The GPU check of tapegrad in one script: the test suite on CuPy, then the
# CPU-vs-GPU benchmark. See docs/gpu.md.
#
#   bash benchmarks/gpu_run.sh [--quick]   on a machine with a CUDA GPU and CuPy (>= 13.3);
#                                          it needs no internet: whatever tapegrad's tests need
#                                          and the machine lacks comes from the wheels in .whl/
#   bash benchmarks/gpu_run.sh fetch [3.X] on a machine with internet: download those wheels
#                                          into .whl/ for Python 3.X (default: this python's)
#
# Results (pytest log, benchmark table and plot, versions) go to $OUT when it is set,
# else to benchmarks/results/. Exit status: 0 when the suite and the benchmark both pass.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
WHEELS=(
    "numpy>=2.1" "pytest>=8" "hypothesis>=6.100" "array-api-strict>=2.3"
    "array-api-compat>=1.11" "matplotlib>=3.7"
)

if [[ "${1:-}" == "fetch" ]]; then
    version="${2:-$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')}"
    "$PYTHON" -m pip download --dest .whl --only-binary=:all: --python-version "$version" \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 "${WHEELS[@]}"
    echo "gpu_run: wheels for Python $version are in .whl/ ($(du -sh .whl | cut -f1))"
    exit 0
fi
bench_args=()
[[ "${1:-}" == "--quick" ]] && bench_args+=(--quick)

# 1. A GPU that CuPy can use, or stop here with the reason.
if ! "$PYTHON" -c 'import cupy, sys; sys.exit(cupy.cuda.runtime.getDeviceCount() == 0)'; then
    echo "gpu_run: CuPy cannot see a CUDA GPU here (pip install cupy-cuda12x on a GPU machine)" >&2
    exit 3
fi

# 2. What tapegrad's tests need and this machine lacks, from .whl/ (no index, no network).
missing=()
has() { "$PYTHON" -c "$1" >/dev/null 2>&1; }
has 'import numpy, sys; sys.exit(tuple(map(int, numpy.__version__.split(".")[:2])) < (2, 1))' ||
    missing+=("numpy>=2.1")
has 'import pytest' || missing+=("pytest>=8")
has 'import hypothesis' || missing+=("hypothesis>=6.100")
has 'import array_api_strict' || missing+=("array-api-strict>=2.3")
has 'import array_api_compat' || missing+=("array-api-compat>=1.11")
has 'import matplotlib' || missing+=("matplotlib>=3.7")
if ((${#missing[@]})); then
    if [[ ! -d .whl ]]; then
        echo "gpu_run: missing ${missing[*]} and there is no .whl/ folder:" \
            "run 'bash benchmarks/gpu_run.sh fetch 3.X' where there is internet" >&2
        exit 4
    fi
    echo "gpu_run: installing ${missing[*]} from .whl/ into .deps/"
    "$PYTHON" -m pip install -q --no-index --find-links .whl --target .deps "${missing[@]}"
fi
export PYTHONPATH="$PWD/.deps:$PWD${PYTHONPATH:+:$PYTHONPATH}"
export HYPOTHESIS_PROFILE=ci

out="${OUT:-benchmarks/results}"
mkdir -p "$out"
"$PYTHON" - <<'EOF' | tee "$out/gpu_versions.txt"
import platform, cupy, numpy, tapegrad
props = cupy.cuda.runtime.getDeviceProperties(0)
name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
print(f"GPU {name}, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, CuPy {cupy.__version__}")
print(f"NumPy {numpy.__version__}, Python {platform.python_version()}, tapegrad {tapegrad.__version__}")
EOF

# 3. The suite with --backend cupy (every backend-parametrised test on the GPU), then the
#    benchmark. Both always run; the exit status says whether both passed.
set +e
"$PYTHON" -m pytest --backend cupy -q -rs -p no:cacheprovider 2>&1 | tee "$out/pytest_cupy.txt"
suite=${PIPESTATUS[0]}
"$PYTHON" benchmarks/cpu_vs_gpu.py --out "$out" "${bench_args[@]}" 2>&1 |
    tee "$out/cpu_vs_gpu.log"
bench=${PIPESTATUS[0]}
set -e
echo "gpu_run: pytest --backend cupy exit $suite; benchmark exit $bench; results in $out/"
exit $((suite != 0 || bench != 0))
