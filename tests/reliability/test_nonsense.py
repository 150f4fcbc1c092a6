"""Nonsense refused with one line and exit 2: an empty data folder, a scenario seating the same
animal twice, a ladder too short to rate. (Duplicate rows in every game's data: tests/games.)"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from experiments.cli import main

ROOT = Path(__file__).resolve().parents[2]


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("argv", [["run", "evolversi", "--games", "10"], ["validate", "{data}", "--ruleset", "evolversi"]],
                         ids=lambda a: a[0])
def test_an_empty_data_folder_is_refused_out_loud(argv, tmp_path, capsys):
    data = tmp_path / "empty"
    data.mkdir()
    argv = [a.format(data=data) for a in argv] + (["--data", str(data)] if argv[0] == "run" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "holds none of evolversi's data files" in err.splitlines()[0]
    assert len(err.strip().splitlines()) == (1 if argv[0] == "run" else 2)      # validate adds its problem count


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_scenario_seating_one_animal_twice_is_refused(engine, tmp_path, capsys):
    src = ROOT / "tests" / "scenarios" / "evolversi" / "fury_example.json"
    doc = json.loads(src.read_text())
    doc["state"]["seats"][1]["animal"] = doc["state"]["seats"][0]["animal"]
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(doc))
    assert main(["scenario", str(path), "--engine", engine]) == 2
    line = one_line(capsys)
    assert "seats 0 and 1" in line and "state.seats[1].animal" in line


def test_a_scenario_folder_is_one_line(tmp_path, capsys):
    assert main(["scenario", str(tmp_path)]) == 2
    assert str(tmp_path) in one_line(capsys)


def test_a_ladder_too_short_to_rate_is_refused_not_nan(tmp_path, capsys):
    assert main(["ladder", "evolversi", "--games", "3"]) == 2
    line = one_line(capsys)
    assert "a rating needs at least 80 games per pair" in line and "nan" not in line


def test_a_file_given_to_report_is_called_a_file(tmp_path, capsys):
    path = tmp_path / "results.parquet"
    path.write_bytes(b"PAR1")
    assert main(["report", str(path)]) == 2
    assert "is a file; give the run folder" in one_line(capsys)
