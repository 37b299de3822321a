"""One home for the version number: Cargo.toml's ``[workspace.package] version``.

Everything else derives from it or is checked against it:

- both crates take ``version.workspace = true``; ``pyproject.toml`` says ``dynamic =
  ["version"]`` (maturin reads the crate's version), so the wheel's and the sdist's metadata
  follow; ``rapidbleu.__version__`` is the extension's ``env!("CARGO_PKG_VERSION")`` and the
  signature text ``version:2.6.0+rapidbleu.<version>`` is built from it
  (``python/rapidbleu/version.py``). These are checked here, and on an installed wheel by
  scripts/check_release.sh.
- Written text that quotes it (the example signatures of README.md and docs/, the changelog's
  release section) is checked, and rewritten from Cargo.toml with ``--write``.

    python scripts/check_version.py                     # check (scripts/check_release.sh)
    python scripts/check_version.py --write             # after changing Cargo.toml's version
    python scripts/check_version.py --write --date 2026-12-01   # the release section, dated
    python scripts/check_version.py --tag v0.1.0        # release.yml: the tag, a dated section

The changelog's release section is its first ``## `` heading: ``## <version> (unreleased)``
while work goes on, ``## <version> (YYYY-MM-DD)`` in the commit that is tagged.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = ROOT / "docs" / "changelog.md"
VERSION = r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?"
HEADING = re.compile(rf"^## ({VERSION}) \((unreleased|\d{{4}}-\d{{2}}-\d{{2}})\)$", re.M)
# Text quoting rapidbleu's version: the signature's local label, and docs/migrating.md's
# "rapidbleu's own (`0.1.0`)". Group 1 is the version.
QUOTES = [
    re.compile(rf"\+rapidbleu\.({VERSION})"),
    re.compile(rf"rapidbleu's own\s+\(`({VERSION})`\)"),
]
# The workspace's own packages in Cargo.lock (`cargo build --locked` refuses a stale one).
LOCKED = re.compile(rf'^name = "rapidbleu-[a-z]+"\nversion = "({VERSION})"$', re.M)


def cargo_version() -> str:
    """The version of Cargo.toml's ``[workspace.package]``."""
    with open(ROOT / "Cargo.toml", "rb") as f:
        return str(tomllib.load(f)["workspace"]["package"]["version"])


def quoting_files() -> list[Path]:
    """The written text that may quote the version (not the tests, which quote old ones)."""
    docs = sorted((ROOT / "docs").rglob("*.md"))
    return [ROOT / "Cargo.lock", ROOT / "README.md", ROOT / "python/rapidbleu/version.py", *docs]


def problems(version: str, tag: str | None) -> list[str]:
    """Every disagreement with ``version``, one line each."""
    found = []
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    if "version" in project or "version" not in project.get("dynamic", []):
        found.append('pyproject.toml: [project] must say dynamic = ["version"] and no version')
    for crate in sorted((ROOT / "crates").glob("*/Cargo.toml")):
        with open(crate, "rb") as f:
            if tomllib.load(f)["package"].get("version") != {"workspace": True}:
                found.append(f"{crate.relative_to(ROOT)}: version must be version.workspace = true")
    lib = (ROOT / "crates/rapidbleu-py/src/lib.rs").read_text(encoding="utf-8")
    if 'm.add("__version__", env!("CARGO_PKG_VERSION"))' not in lib:
        found.append("crates/rapidbleu-py/src/lib.rs: __version__ must be CARGO_PKG_VERSION")
    sig = (ROOT / "python/rapidbleu/version.py").read_text(encoding="utf-8")
    if 'SIGNATURE_VERSION = f"{SACREBLEU_VERSION}+rapidbleu.{__version__}"' not in sig:
        found.append("python/rapidbleu/version.py: SIGNATURE_VERSION must use __version__")
    heading = HEADING.search(CHANGELOG.read_text(encoding="utf-8"))
    if heading is None:
        found.append("docs/changelog.md: no '## <version> (unreleased|YYYY-MM-DD)' heading")
    elif heading.group(1) != version:
        found.append(f"docs/changelog.md: the release section is {heading.group(1)}, not {version}")
    elif tag is not None and heading.group(2) == "unreleased":
        found.append(f"docs/changelog.md: {version} is tagged but its section says (unreleased)")
    if tag is not None and tag != f"v{version}":
        found.append(f"the tag {tag} is not v{version}, Cargo.toml's version")
    for path in quoting_files():
        text = path.read_text(encoding="utf-8")
        for pattern in [*QUOTES, LOCKED]:
            for m in pattern.finditer(text):
                if m.group(1) != version:
                    line = text.count("\n", 0, m.start()) + 1
                    found.append(f"{path.relative_to(ROOT)}:{line}: quotes {m.group(1)}")
    return found


def write(version: str, date: str | None) -> None:
    """Rewrites the changelog's release heading and the quoted versions from ``version``."""
    text = CHANGELOG.read_text(encoding="utf-8")
    heading = f"## {version} ({date or 'unreleased'})"
    if HEADING.search(text) is None:
        sys.exit("docs/changelog.md: no '## <version> (...)' heading to rewrite")
    CHANGELOG.write_text(HEADING.sub(heading, text, count=1), encoding="utf-8")
    for path in quoting_files():
        text = path.read_text(encoding="utf-8")
        new = text
        for pattern in [*QUOTES, LOCKED]:
            new = pattern.sub(lambda m: m.group(0).replace(m.group(1), version), new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tag", help="the release tag (vX.Y.Z): also checks it and the date")
    parser.add_argument("--write", action="store_true", help="rewrite the text from Cargo.toml")
    parser.add_argument("--date", help="with --write: date the release section (YYYY-MM-DD)")
    args = parser.parse_args()
    version = cargo_version()
    if args.write:
        write(version, args.date)
    found = problems(version, args.tag)
    for line in found:
        print(f"check_version: {line}", file=sys.stderr)
    if found:
        sys.exit(1)
    print(f"check_version: {version} everywhere (Cargo.toml, changelog, quoted text)")


if __name__ == "__main__":
    main()
