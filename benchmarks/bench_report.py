"""Time and size of ``rapidbleu report`` on WMT17 en-de: 16 systems x 3,004 segments.

Runs the installed command in a fresh process, as a user would::

    rapidbleu report ref.A.de -i hyp.*.de -l en-de -o report.html

with the default options (paired bootstrap, 1,000 resamples; 200 segments listed), and
records the wall time, the CPU time (user + system, of the child) and the file's size. Two
kinds of run, each ``--repeats`` times:

- **cold**: an empty cache directory (``XDG_CACHE_HOME``), so vl-convert bundles the Vega
  JavaScript (the first report on a machine);
- **warm**: the bundle cached by the first run (every later report).

The machine's load average is printed with the times: on a shared machine the wall time
follows the load, the CPU time much less. ``--screenshot PATH`` also opens the report in
headless Chromium (Debian's ``chromium``) and saves the top of the page and its segment
section as PNGs (the README's pictures; quantized to 64 colours when Pillow is installed).
Benchmarks are not tests: nothing here asserts a time.

Usage::

    .venv/bin/python benchmarks/bench_report.py
    .venv/bin/python benchmarks/bench_report.py --repeats 5 --screenshot docs/report-wmt17.png
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(os.environ.get("RAPIDBLEU_DATA") or REPO.parent / "shared" / "data")
DEFAULT_OUT = REPO / "benchmarks" / "results" / "bench_report.json"
BIN = Path(sys.executable).parent

# Runs argv[1:] as a child; prints its wall time and CPU time (user + system) as JSON.
_WRAPPER = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True)
wall = time.perf_counter() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": r.ru_utime + r.ru_stime, "rc": p.returncode,
                  "err": p.stderr.decode()[-2000:]}))
"""


def run_once(argv: list[str], cache: Path) -> dict[str, Any]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    res = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *argv], capture_output=True, text=True, env=env
    )
    row: dict[str, Any] = json.loads(res.stdout)
    if row["rc"] != 0:
        sys.exit(f"rapidbleu report failed: {row['err']}")
    row["load"] = os.getloadavg()[0]
    return row


def screenshot(page: Path, png: Path) -> list[Path]:
    """The top of the page, and its segment section, as PNGs (quantized if Pillow is there)."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("--screenshot needs Chromium: apt-get install -y chromium")
    segments = png.with_name(png.stem + "-segments" + png.suffix)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1100, "height": 1500})
        tab.goto(page.as_uri())
        tab.wait_for_selector("body[data-charts=done]", timeout=120_000)
        png.parent.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(png))
        box = tab.locator("#segments").bounding_box()
        assert box is not None
        clip = {"x": 0, "y": box["y"], "width": 1100, "height": 1400}
        tab.screenshot(path=str(segments), full_page=True, clip=clip)
        browser.close()
    try:
        from PIL import Image  # optional: 64 colours make the PNGs a quarter of the size
    except ImportError:
        print("Pillow not installed: PNGs left unquantized", file=sys.stderr)
        return [png, segments]
    for path in (png, segments):
        img = Image.open(path).convert("RGB")
        img.quantize(64, Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            path, optimize=True
        )
    return [png, segments]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA / "wmt17.en-de")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--screenshot", type=Path, default=None)
    args = ap.parse_args()
    if not args.data.is_dir():
        sys.exit(f"{args.data}: no such folder (set RAPIDBLEU_DATA or --data)")
    exe = shutil.which("rapidbleu", path=str(BIN)) or "rapidbleu"
    hyps = sorted(str(p) for p in args.data.glob("hyp.*"))
    rows: dict[str, list[dict[str, Any]]] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        argv = [exe, "report", str(args.data / "ref.A.de"), "-i", *hyps, "-l", "en-de"]
        argv += ["-o", str(page), "-q"]
        warm_cache = Path(tmp) / "warm-cache"
        for r in range(args.repeats):
            cold_cache = Path(tmp) / f"cold-cache-{r}"
            rows["cold"].append(run_once(argv, cold_cache))
            if r == 0:
                run_once(argv, warm_cache)  # fills the warm cache
            rows["warm"].append(run_once(argv, warm_cache))
            print(
                f"round {r + 1}: cold {rows['cold'][-1]['wall']:.2f} s "
                f"(cpu {rows['cold'][-1]['cpu']:.2f} s), warm {rows['warm'][-1]['wall']:.2f} s "
                f"(cpu {rows['warm'][-1]['cpu']:.2f} s), load {rows['warm'][-1]['load']:.1f}",
                file=sys.stderr,
            )
        size = page.stat().st_size
        if args.screenshot is not None:
            screenshot(page, args.screenshot)
    summary = {
        "systems": len(hyps),
        "segments": sum(1 for _ in open(args.data / "ref.A.de", encoding="utf-8")),
        "size_bytes": size,
        "cpus": os.cpu_count(),
        **{
            f"{kind}_{what}_median_s": statistics.median(r[what] for r in rows[kind])
            for kind in rows
            for what in ("wall", "cpu")
        },
        "runs": rows,
        "command": " ".join(["rapidbleu", *argv[1:]]),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(
        f"{summary['systems']} systems x {summary['segments']:,} segments: "
        f"{size / 1e6:.2f} MB; median wall {summary['cold_wall_median_s']:.2f} s cold, "
        f"{summary['warm_wall_median_s']:.2f} s warm; median CPU "
        f"{summary['cold_cpu_median_s']:.2f} s cold, {summary['warm_cpu_median_s']:.2f} s warm "
        f"({args.out})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
