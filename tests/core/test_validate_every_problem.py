"""`balancelab validate` lists every problem in every file, one line each (the README's promise)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from simcore.games import get_game

BUILTIN = Path(get_game("evolversi").data.data_dir)


def _edit_line(path: Path, line_no: int, old: str, new: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    assert old in lines[line_no - 1], (line_no, lines[line_no - 1])
    lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
    path.write_text("".join(lines))


def test_validate_lists_several_problems_in_several_files(tmp_path):
    folder = tmp_path / "my-cards"
    folder.mkdir()
    for name in ("cards.csv", "animals.csv"):
        shutil.copyfile(BUILTIN / name, folder / name)
    (folder / "params.toml").write_text('[game]\nname = "evolversi"\n[params]\ntrack_lenght = 20\n'
                                        'fourth_card_space = -5\ntrack_length = 22\n')
    _edit_line(folder / "cards.csv", 3, "Occhiaie,starting,Panda,1,2,", "Occhiaie,starting,Panda,1,x,")
    _edit_line(folder / "cards.csv", 6, "gain_tokens", "gain_tokenz")
    _edit_line(folder / "animals.csv", 2, "Panda,3,", "Panda,-1,")
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "validate", str(folder)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    problems = [ln for ln in lines if ln.startswith("error: ")]
    expected = [("params.toml", "track_lenght", "did you mean track_length"),
                ("params.toml", "fourth_card_space", "must be >= 1"),
                ("cards.csv, row 3", "strength", "whole number"),
                ("cards.csv, row 6", "effect", "gain_tokenz"),
                ("animals.csv, row 2", "reserve", "must be >= 0")]
    for parts in expected:
        assert any(all(p in ln for p in parts) for ln in problems), (parts, problems)
    assert len(problems) == len(expected)              # each problem once, nothing invented
    assert lines[-1].endswith(f"{len(expected)} problem(s)")


def test_validate_still_accepts_the_shipped_data(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUILTIN, folder)
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "validate", str(folder)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_an_unbalanced_quote_is_named_on_its_row_and_not_read_as_a_bad_value(tmp_path):
    folder = tmp_path / "my-cards"
    shutil.copytree(BUILTIN, folder)
    _edit_line(folder / "cards.csv", 4, "Pigrizia,starting,", 'Pigrizia,"starting,')
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "validate", str(folder)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    problems = [ln for ln in proc.stderr.splitlines() if ln.startswith("error: ")]
    assert len(problems) == 1, problems
    assert "cards.csv, row 4" in problems[0] and 'unbalanced "' in problems[0]
    assert "deck" not in problems[0] and "Occhiaie" not in problems[0]     # no swallowed rows pasted in
