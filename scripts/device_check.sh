#!/usr/bin/env bash
# The checks that need the lent GPU machine (issue 40), as one prepared command.
#
# That machine (one H200, 16 cores, Python 3.12 with torch and Triton, nothing to fetch) gets
# a copy of the working tree; rapidbleu travels as a wheel built here. Here, once:
#
#   echo /.whl/ >> .git/info/exclude
#   maturin build --release -o .whl                  # the wheel (abi3: Python 3.12 takes it)
#
# then one device call, carrying .whl, with a limit that leaves time for a rerun:
#
#   run(command="bash scripts/device_check.sh", carry=[".whl"], timeout_s=540)
#
# It writes gpu.json, gpu-sort.json and scaling.json under $OUT and prints the tables:
#   1. scripts/check_gpu.py --graph: every row and score == the CPU engine's, both counters
#      timed (targets: 256 x 1,024 <= 1 ms, 1,024 x 1,024 <= 2 ms);
#   2. the same with --counter sort, the portable counter alone;
#   3. benchmarks/bench_scaling.py on 1..16 threads for corpus BLEU, chrF and TER (target
#      >= 75% efficiency at 16).
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/device-out}
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/rapidbleu-*.whl || { echo "no rapidbleu wheel in .whl/"; exit 2; }
export PYTHONPATH=/tmp/site
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc
python3 -c "import rapidbleu, torch, triton; print(rapidbleu.__version__, torch.__version__, triton.__version__)"
status=0
timeout 200 python3 scripts/check_gpu.py --graph --json "$OUT/gpu.json" || status=1
timeout 120 python3 scripts/check_gpu.py --counter sort --json "$OUT/gpu-sort.json" || status=1
timeout 200 python3 benchmarks/bench_scaling.py --threads 1,2,4,8,16 --rounds 3 \
    --only bleu,chrf,ter --out "$OUT/scaling.json" || status=1
exit $status
