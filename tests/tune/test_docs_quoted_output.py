"""The output quoted in docs/tune.md is what the current code prints: each `balancelab tune`
command quoted there is run at a small size (its config's budget, search and proof cut down),
and every line of the quoted output after the diff must have the shape of a printed line
(the same words, with any number in the place of each number)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "tune.md"
SMALL = {("budget", "games"): "8000", ("budget", "minutes"): "5", ("search", "first_games"): "300",
         ("search", "max_games"): "900", ("search", "max_changes"): "1", ("proof", "games"): "600"}
NUMBER = re.compile(r"[-+]?\d[\d,_]*(?:\.\d+)?")


def quoted() -> list[tuple[str, list[str]]]:
    """(command, the indented output block quoted after it) for each tune command in the doc."""
    blocks, lines = [], DOC.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("    balancelab tune ") and (REPO / line.split()[2]).is_file():   # not the usage line
            out, j = [], i + 1
            while j < len(lines) and not lines[j].startswith("    "):
                j += 1
            while j < len(lines) and lines[j].startswith("    "):
                out.append(lines[j][4:])
                j += 1
            blocks.append((line.strip(), out))
    return blocks


STOPPED = re.compile(r"\((?:max_changes|met|no candidates left|[\w.]+ spent)\)$")   # why the search ended


def shape(line: str) -> str:
    return STOPPED.sub("(stopped)", NUMBER.sub("#", line.strip()))


def small_config(path: Path, tmp: Path) -> Path:
    text, section = [], ""
    for line in path.read_text().splitlines():
        head = re.match(r"^\[(\w+)\]\s*$", line)
        section = head.group(1) if head else section
        key = re.match(r"^(\w+)\s*=", line)
        if key and (section, key.group(1)) in SMALL:
            line = f"{key.group(1)} = {SMALL[(section, key.group(1))]}"
        text.append(line)
    out = tmp / path.name
    out.write_text("\n".join(text) + "\n")
    return out


@pytest.mark.parametrize("command,output", quoted(), ids=lambda x: x if isinstance(x, str) else "")
def test_the_quoted_tune_output_is_what_the_code_prints(command, output, tmp_path):
    assert output, f"no output quoted after {command!r}"
    args = command.split()[2:]
    cfg = small_config(REPO / args[0], tmp_path)
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "tune", str(cfg), "--out", str(tmp_path / "out"),
                           "--jobs", "1", "--quiet"], capture_output=True, text=True, timeout=900, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    printed = {shape(line) for line in proc.stdout.splitlines()}
    for line in output[1:]:                      # the first line is the diff: which values moved
        if line.strip().startswith(("not met", "  ")) and shape(line) not in printed:
            # a plain-words ending depends on the result; its form must be one the code can print
            assert any(shape(line).split(":")[0] == p.split(":")[0] for p in printed), (line, proc.stdout)
            continue
        assert shape(line) in printed, (line, proc.stdout)
