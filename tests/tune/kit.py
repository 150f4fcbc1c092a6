"""Helpers for the tune tests: write a small tuning config, run the CLI in-process."""
from __future__ import annotations

from pathlib import Path

from experiments.cli import main

HERE = Path(__file__).parent

BASE = """
name = "t"
ruleset = "evolversi"
players = 4
bots = "greedy"
seed = 5
batch_size = 1000
"""

ONE_VAR = """
[[variables]]
table = "cards"
where = { name = "Mutazione" }
column = "amount"
min = 1
max = 3
step = 1
"""

SMALL = """
[budget]
games = 40000
[search]
first_games = 1000
max_games = 3000
max_changes = 1
[proof]
games = 2000
"""


def write(tmp_path: Path, text: str, name: str = "tune.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(["tune", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err
