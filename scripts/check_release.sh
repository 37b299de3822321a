#!/usr/bin/env bash
# What of a release can be proven without GitHub (.github/workflows/release.yml cannot run
# here; docs/development.md says what it does). scripts/test.sh runs this after the main suite:
#
#   1. the workflow linted: GitHub's workflow schema (check-jsonschema) and zizmor's audits;
#   2. one version: scripts/check_version.py (Cargo.toml, pyproject, changelog, quoted text);
#   3. the sdist built, a wheel built from it alone, installed in a clean venv and smoke-tested
#      (scripts/smoke_wheel.py: parity with sacreBLEU, the command, the .pth), its metadata's
#      version checked against Cargo.toml's;
#   4. an aarch64 manylinux2014 wheel cross-built with zig, with the Rust standard library for
#      aarch64 from Debian (rustup's is not reachable: see below); its tag and linked symbols
#      checked with auditwheel and abi3audit, as are the x86_64 wheel's (target/wheels-test/);
#   5. twine check --strict on the sdist and every wheel.
#
#   bash scripts/check_release.sh        # PY: an interpreter >= 3.11 with venv (python3)
#
# The tools are pinned (a new release of a linter must not fail an unchanged tree) and live in
# their own venv under target/release-check/. The extension is compiled twice (from the sdist,
# for aarch64) without LTO, which changes no result and saves minutes: set
# CARGO_PROFILE_RELEASE_LTO=fat to build as the release does.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
DIST=${DIST:-target/wheels-test}
OUT=target/release-check
export CARGO_PROFILE_RELEASE_LTO=${CARGO_PROFILE_RELEASE_LTO:-off}
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}
REPO=$PWD
rm -rf "$OUT/dist" "$OUT/venv" "$OUT/tools"
mkdir -p "$OUT/dist"
PIP=(-m pip install -q --progress-bar off --disable-pip-version-check)

echo "== release tools (pinned) in $OUT/tools"
"$PY" -m venv "$OUT/tools"
T="$REPO/$OUT/tools/bin"
"$T/python" "${PIP[@]}" --only-binary :all: twine==7.0.0 auditwheel==6.8.2 abi3audit==0.0.26 \
    check-jsonschema==0.39.0 zizmor==1.32.0 "maturin>=1.5,<2" "ziglang>=0.13"
ZIG_DIR=$("$T/python" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))')

echo "== 1. the release workflow: GitHub's workflow schema, zizmor (offline, pedantic)"
"$T/check-jsonschema" --builtin-schema vendor.github-workflows .github/workflows/*.yml
"$T/zizmor" --offline --persona pedantic --config .github/zizmor.yml .github/workflows/

echo "== 2. one version"
"$T/python" scripts/check_version.py
VERSION=$("$T/python" -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')

echo "== 3. the sdist, a wheel built from it, installed in a clean venv"
"$T/maturin" sdist --out "$OUT/dist"
SDIST="$OUT/dist/rapidbleu-$VERSION.tar.gz"
tar tzf "$SDIST" | grep -qx "rapidbleu-$VERSION/python/wheel-data/purelib/rapidbleu-accelerate.pth" ||
    { echo "the sdist lacks python/wheel-data (rapidbleu-accelerate.pth)" >&2; exit 1; }
"$PY" -m venv "$OUT/venv"
V="$REPO/$OUT/venv/bin/python"
# pip builds the wheel from the unpacked sdist alone (maturin fetched from PyPI as its
# pyproject asks), not from this checkout.
"$V" -m pip wheel -q --progress-bar off --disable-pip-version-check --no-deps \
    --wheel-dir "$OUT/dist/from-sdist" "$SDIST"
FROM_SDIST=$(ls "$OUT"/dist/from-sdist/rapidbleu-"$VERSION"-cp310-abi3-*.whl)
"$V" "${PIP[@]}" --only-binary rapidbleu "$FROM_SDIST" "sacrebleu==2.6.0"
(
    cd "$(mktemp -d)"
    "$V" "$REPO/scripts/smoke_wheel.py"
    "$V" - "$VERSION" <<'EOF'
import importlib.metadata, sys
import rapidbleu
from rapidbleu.version import SIGNATURE_VERSION
want = sys.argv[1]
got = (importlib.metadata.version("rapidbleu"), rapidbleu.__version__, SIGNATURE_VERSION)
assert got == (want, want, f"2.6.0+rapidbleu.{want}"), got
print(f"ok  metadata, __version__ and signature all say {want}")
EOF
)

echo "== 4. aarch64 manylinux2014 wheel, cross-built with zig"
# rustup's aarch64 standard library is a download from static.rust-lang.org, unreachable here.
# Debian ships Rust 1.9x as rustc-web with its standard library for each architecture
# (libstd-rust-web-dev:arm64, Multi-Arch: same): both are fetched with apt-get download into a
# private apt state under $OUT/apt (the machine's apt lists and packages are left as they are),
# unpacked, and Debian's rustc builds for the host (build scripts) and for aarch64.
APT="$REPO/$OUT/apt"
mkdir -p "$APT/lists/partial" "$APT/archives/partial" "$APT/debs"
APT_OPTS=(-q -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT" -o Debug::NoLocking=1
    -o "APT::Architectures::=$(dpkg --print-architecture)" -o "APT::Architectures::=arm64")
apt-get "${APT_OPTS[@]}" update >/dev/null
RUSTC_V=$(apt-cache "${APT_OPTS[@]}" policy rustc-web | awk '/Candidate:/ {print $2}')
STD=$(apt-cache "${APT_OPTS[@]}" show "libstd-rust-web-dev=$RUSTC_V" |
    sed -n 's/^Depends: \(libstd-rust-web-[0-9.]*\) .*/\1/p' | head -n 1)
LLVM=$(apt-cache "${APT_OPTS[@]}" show "$STD=$RUSTC_V" | sed -n 's/^Depends: //p' | head -n 1 |
    grep -o 'libllvm[0-9]*' | head -n 1)
echo "Debian rustc-web $RUSTC_V ($STD, $LLVM) and libstd-rust-web-dev:arm64 $RUSTC_V"
(cd "$APT/debs" && apt-get "${APT_OPTS[@]}" download "rustc-web=$RUSTC_V" \
    "libstd-rust-web-dev=$RUSTC_V" "$STD=$RUSTC_V" "libstd-rust-web-dev:arm64=$RUSTC_V" "$LLVM")
rm -rf "$APT/root"
for deb in "$APT"/debs/*.deb; do
    case "$deb" in
    *rustc-web_"${RUSTC_V//:/%3a}"_* | *libstd-rust-web*_"${RUSTC_V//:/%3a}"_* | */"$LLVM"_*)
        dpkg-deb -x "$deb" "$APT/root" ;;
    esac
done
RUSTC="$APT/root/usr/bin/rustc"
# Debian's rustc loads its driver and LLVM from the host's multiarch directory, unpacked here.
DRIVER=$(ls "$APT"/root/usr/lib/*/librustc_driver-*.so)
export LD_LIBRARY_PATH="${DRIVER%/*}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$RUSTC" -vV | sed -n '1p;/^LLVM/p'
ls "$APT/root/usr/lib/rustlib/aarch64-unknown-linux-gnu/lib"/libstd-*.rlib >/dev/null
env PATH="$ZIG_DIR:$PATH" RUSTC="$RUSTC" CARGO_TARGET_DIR=target/cross-aarch64 \
    "$T/maturin" build --release --target aarch64-unknown-linux-gnu --zig \
    --compatibility manylinux2014 --out "$OUT/dist/aarch64"
unset LD_LIBRARY_PATH
ARM=$(ls "$OUT"/dist/aarch64/rapidbleu-"$VERSION"-cp310-abi3-manylinux*_aarch64.whl)
X86=$(ls "$DIST"/rapidbleu-"$VERSION"-cp310-abi3-manylinux*_x86_64.whl)
for whl in "$ARM" "$X86"; do
    case "$whl" in *_aarch64.whl) arch=aarch64 ;; *) arch=x86_64 ;; esac
    echo "-- $(basename "$whl")"
    # -v: without it, show stops before the external libraries when symbol versions already
    # constrain the tag (x86_64's manylinux_2_17); its debug log goes to a file.
    "$T/auditwheel" -v show "$whl" 2>"$OUT/auditwheel.log" | tee "$OUT/auditwheel.txt"
    tr -s ' \n' ' ' <"$OUT/auditwheel.txt" | grep -q "consistent with the following platform tag: \"manylinux_2_17_$arch\"" ||
        { echo "auditwheel: $whl is not manylinux_2_17_$arch" >&2; exit 1; }
    grep -q "requires no external shared libraries" "$OUT/auditwheel.txt" ||
        { echo "auditwheel: $whl links external shared libraries" >&2; exit 1; }
    "$T/abi3audit" --strict --report "$whl"
    echo
    # The extension's ELF header names the machine: 183 is AArch64, 62 is x86-64.
    "$T/python" - "$whl" "$arch" <<'EOF'
import struct, sys, zipfile
whl, arch = sys.argv[1:]
with zipfile.ZipFile(whl) as z:
    (so,) = [n for n in z.namelist() if n.startswith("rapidbleu/_core") and n.endswith(".so")]
    head = z.read(so)[:20]
machine = struct.unpack("<H", head[18:20])[0]
assert head[:4] == b"\x7fELF" and machine == {"aarch64": 183, "x86_64": 62}[arch], machine
print(f"ok  {so}: ELF for {arch} (e_machine {machine})")
EOF
done

echo "== 5. twine check --strict"
"$T/twine" check --strict "$SDIST" "$FROM_SDIST" "$ARM" "$X86"
echo "check_release: all checks passed"
