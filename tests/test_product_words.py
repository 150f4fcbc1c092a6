"""The repository speaks of the product: no work diary in README, docs, configs, data or code.

A reader of the product cannot follow numbered work periods, dated runs, load averages,
"this machine", commit ids or tracker numbers, and they go stale. What a figure means
belongs in the docs; the figures themselves in docs/benchmarks.md, which its generator
rewrites with the machine's spec.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROCESS_WORDS = {
    "a numbered work period": r"\bsessions? \d|\bsession-\d|\b(this|that|each|next|last|earlier|previous|later) session\b",
    "a work period": r"\bwork period",
    "a tracker number": r"\bissues? #?\d",
    "a dated run": r"\b20\d\d-[01]\d-[0-3]\d\b",
    "a time of day": r"\b\d\d:\d\d(-\d\d:\d\d)? UTC\b",
    "a load average": r"\bload average|\bload [0-9]",
    "a machine of the work": r"\b(this|that|the same|a slow|the slow|a fast|the fast|a faster|the faster|a quiet|"
                             r"the quiet|the busy|the shared|a busy|a shared|this \d-core|the \d-core) machine\b",
    "a commit narrated": r"\b(main|commit|on) [0-9a-f]{7,10}\b",
    "a path outside the repository": r"\.\./shared/",
}
PATTERN = {why: re.compile(rx, re.IGNORECASE) for why, rx in PROCESS_WORDS.items()}


def product_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "pyproject.toml"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "experiments" / "configs").rglob("*.toml"))
    for package in ("simcore", "strategies", "experiments", "reports", "tests"):
        files += sorted((ROOT / package).rglob("*.py")) + sorted((ROOT / package).rglob("*.toml"))
    return [f for f in dict.fromkeys(files) if f.resolve() != Path(__file__).resolve()]


def findings(path: Path) -> list[str]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for why, rx in PATTERN.items():
            m = rx.search(line)
            if m:
                out.append(f"{path.relative_to(ROOT)}:{n}: {why}: {m.group(0)!r}")
    return out


def test_the_scan_covers_readme_docs_configs_data_and_code():
    names = {f.relative_to(ROOT).as_posix() for f in product_files()}
    assert {"README.md", "CHANGELOG.md", "experiments/configs/quick.toml", "simcore/jit.py",
            "simcore/games/evo/data/params.toml"} <= names
    assert any(n.startswith("docs/games/") for n in names)


@pytest.mark.parametrize("line, why", [
    ("Measured in session 21 on the same slow machine", "a numbered work period"),
    ("(2026-11-30, the machine shared with other jobs)", "a dated run"),
    ("quiet: load 1.3-1.8", "a load average"),
    ("on main 6f491a9", "a commit narrated"),
    ("Restricted play (issue 12)", "a tracker number"),
    ("rulebook ../shared/seeds/000.txt", "a path outside the repository"),
])
def test_each_process_word_is_caught(line, why):
    assert PATTERN[why].search(line)


def test_no_process_words_in_the_product():
    found = [f for path in product_files() for f in findings(path)]
    assert found == [], "the work diary, not the product:\n" + "\n".join(found[:60])
