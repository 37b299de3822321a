"""The fused Triton counter (rapidbleu.torch.fused) without a GPU: interpreted, and compiled.

- Triton's interpreter (``TRITON_INTERPRET=1``, read when Triton is imported, so in a child
  process) runs the kernel on CPU tensors: rows ``==`` the sorts' and the CPU engine's.
- Triton compiles the kernel for NVIDIA targets without a device (to PTX and cubin with its
  own ``ptxas``): the code that a GPU would run type-checks and builds for sm_80 and sm_90.
- The counter option's errors.

Timings on a GPU are ``scripts/check_gpu.py``'s (``--counter``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from rapidbleu.errors import InvalidOptionError
from rapidbleu.torch import statistics

HERE = Path(__file__).parent


def _child(code_or_file: list[str], **env: str) -> str:
    done = subprocess.run(
        [sys.executable, *code_or_file],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_interpreted_kernel_equals_the_sorts_and_the_cpu_engine() -> None:
    out = _child([str(HERE / "fused_interpreted.py"), "0"], TRITON_INTERPRET="1")
    assert out.split() == ["cases", "28"]


COMPILE = """
import warnings
warnings.simplefilter("ignore")
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from rapidbleu.torch.fused import BLOCK_I, BLOCK_J, _matches
signature = {name: "*i64" for name in ("hyp_ptr", "hyp_len_ptr", "ref_ptr", "ref_len_ptr")}
signature["out_ptr"] = "*i32"
signature.update(dict.fromkeys(("hyp_width", "ref_width", "num_refs", "blocks"), "i32"))
signature.update(dict.fromkeys(("ORDER", "BLOCK_I", "BLOCK_J"), "constexpr"))
for arch in (80, 90):
    source = ASTSource(
        fn=_matches, signature=signature,
        constexprs={"ORDER": 4, "BLOCK_I": BLOCK_I, "BLOCK_J": BLOCK_J},
    )
    kernel = triton.compile(source, target=GPUTarget("cuda", arch, 32))
    print(arch, len(kernel.asm["cubin"]) > 0)
"""


def test_kernel_compiles_for_nvidia_targets_without_a_device() -> None:
    assert _child(["-c", COMPILE]).split() == ["80", "True", "90", "True"]


def test_counter_option_errors() -> None:
    h = torch.tensor([[1, 2, 3]])
    with pytest.raises(InvalidOptionError, match="counter must be one of auto, fused, sort"):
        statistics(h, h, lengths=[3], ref_lengths=[3], counter="hash")
    with pytest.raises(InvalidOptionError, match="runs on CUDA tensors"):
        statistics(h, h, lengths=[3], ref_lengths=[3], counter="fused")
    # auto on a CPU tensor is the sorts' counter, without importing Triton.
    assert statistics(h, h, lengths=[3], ref_lengths=[3], counter="auto").tolist() == (
        statistics(h, h, lengths=[3], ref_lengths=[3], counter="sort").tolist()
    )
