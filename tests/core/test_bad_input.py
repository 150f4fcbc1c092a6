"""Every bad input gets one clear error naming file and row/key, exit code 2, no traceback,
and nothing written on disk."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from experiments.cli import main
from simcore.games.evolversi.schema import GAME_DATA


def _data_folder(tmp_path, file, edit):
    folder = tmp_path / "data"
    folder.mkdir()
    src = GAME_DATA.data_dir / file
    text = src.read_text()
    (folder / file).write_text(edit(text))
    return folder


def _run(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err
    return code, err


CSV_CASES = {
    "missing_csv_column": ("cards.csv", lambda t: t.replace(",fury,", ",furry,", 1), "cards.csv, row 1", "furry"),
    "unknown_effect_word": ("cards.csv", lambda t: t.replace("steal_tokens,2,other", "steel_tokens,2,other", 1),
                            "cards.csv, row", "steel_tokens"),
    "wrong_type_in_csv": ("cards.csv", lambda t: t.replace("Vampirismo,evolution,,2,2,2", "Vampirismo,evolution,,2,two,2"),
                          "cards.csv, row 32", "whole number"),
    "negative_strength": ("cards.csv", lambda t: t.replace("Vampirismo,evolution,,2,2,2", "Vampirismo,evolution,,2,-2,2"),
                          "cards.csv, row 32", ">= 0"),
    "negative_cost": ("params.toml", lambda t: t.replace("value = [1, 2, 3, 4, 5, 6]", "value = [1, -2, 3, 4, 5, 6]"),
                      "params.toml", "market_costs"),
    "unknown_toml_key": ("params.toml", lambda t: re.sub(r"(\[params\.track_length\]\nvalue = \d+)",
                                                         r"\1\nvalu = 3", t),
                         "params.toml", "params.track_length"),
    "out_of_range_toml_value": ("params.toml", lambda t: re.sub(r"(\[params\.track_length\]\nvalue = )\d+",
                                                                r"\g<1>2", t),
                                "params.toml", "track_length"),
    "wrong_type_reserve": ("animals.csv", lambda t: t.replace("Panda,3,", "Panda,three,"),
                               "animals.csv, row 2", "reserve"),
}


@pytest.mark.parametrize("case", sorted(CSV_CASES))
def test_bad_data_file_is_one_clear_error(case, tmp_path, capsys):
    file, edit, where, what = CSV_CASES[case]
    folder = _data_folder(tmp_path, file, edit)
    out = tmp_path / "out"
    code, err = _run(capsys, ["run", "evolversi", "--data", str(folder), "--games", "10", "--out", str(out)])
    assert code == 2
    assert where in err and what in err, err
    assert "Traceback" not in err and err.count("\n") == 1
    assert not out.exists() and not any(p.name.startswith(".out") for p in tmp_path.iterdir())


ARG_CASES = {
    "unknown_ruleset": (["run", "nope"], "unknown ruleset 'nope'"),
    "unknown_variant": (["run", "evolversi", "--variant", "nope"], "unknown variant 'nope'"),
    "unknown_bot": (["run", "evolversi", "--bots", "genius"], "unknown bot 'genius'"),
    "unknown_animal": (["run", "evolversi", "--players", "2", "--animals", "Panda,Dodo"], "unknown animal 'Dodo'"),
    "two_player_sea_cucumber": (["run", "evolversi", "--players", "2", "--animals", "Panda,Sea Cucumber"], "Sea Cucumber"),
    "too_many_players": (["run", "evolversi", "--players", "6"], "between 2 and 5"),
    "too_few_players": (["run", "evolversi", "--players", "1"], "between 2 and 5"),
    "unknown_parameter": (["run", "evolversi", "--set", "trak_length=3"], "key 'trak_length'"),
    "wrong_parameter_type": (["run", "evolversi", "--set", "track_length=long"], "whole number"),
    "out_of_range_parameter": (["run", "evolversi", "--set", "fury_max=0"], "key 'fury_max': must be >= 1"),
    "bots_count_mismatch": (["run", "evolversi", "--players", "3", "--bots", "greedy,random"], "one bot for every seat"),
}


@pytest.mark.parametrize("case", sorted(ARG_CASES))
def test_bad_command_line_is_one_clear_error(case, tmp_path, capsys):
    argv, what = ARG_CASES[case]
    out = tmp_path / "out"
    code, err = _run(capsys, argv + ["--games", "10", "--out", str(out)])
    assert code == 2, err
    assert what in err, err
    assert "Traceback" not in err
    assert not out.exists()


def test_a_bad_input_from_the_shell_prints_no_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "run", "evolversi", "--bots", "genius"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "balancelab: error: key 'bots': unknown bot 'genius' for evolversi; bots for evolversi: greedy, trained, random, script, rollout"


def test_validate_reports_every_bad_file(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "cards.csv").write_text(CSV_CASES["unknown_effect_word"][1]((GAME_DATA.data_dir / "cards.csv").read_text()))
    (folder / "animals.csv").write_text(CSV_CASES["wrong_type_reserve"][1]((GAME_DATA.data_dir / "animals.csv").read_text()))
    code, err = _run(capsys, ["validate", str(folder), "--ruleset", "evolversi"])
    assert code == 2
    assert "steel_tokens" in err and "animals.csv, row 2" in err and "2 problem(s)" in err


def test_validate_accepts_the_shipped_data(tmp_path, capsys):
    folder = tmp_path / "copy"
    shutil.copytree(GAME_DATA.data_dir, folder)
    assert main(["validate", str(folder)]) == 0
    assert "valid evolversi data" in capsys.readouterr().out


def test_run_never_deletes_a_folder_it_did_not_write(tmp_path, capsys):
    keep = tmp_path / "precious"
    keep.mkdir()
    (keep / "thesis.txt").write_text("keep")
    code, err = _run(capsys, ["run", "evolversi", "--games", "50", "--out", str(keep)])
    assert code == 2 and "not empty" in err
    assert (keep / "thesis.txt").read_text() == "keep"


def test_run_replaces_its_own_previous_output_only_with_overwrite(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["run", "evolversi", "--games", "50", "--out", str(out)]) == 0
    code, err = _run(capsys, ["run", "evolversi", "--games", "50", "--out", str(out)])
    assert code == 2 and "--overwrite" in err
    assert main(["run", "evolversi", "--games", "60", "--out", str(out), "--overwrite"]) == 0
    assert json.loads((out / "manifest.json").read_text())["games_per_point"] == 60
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_run_refuses_the_current_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "important.txt").write_text("keep")
    code, err = _run(capsys, ["run", "evolversi", "--games", "50", "--out", "."])
    assert code == 2 and (tmp_path / "important.txt").exists()


def test_a_designer_params_file_may_set_only_some_known_parameters(tmp_path, capsys):
    (tmp_path / "params.toml").write_text("[params]\ntrack_length = 14\n")
    rs = GAME_DATA.load(data_dir=tmp_path)
    assert rs["track_length"] == 14 and rs["starting_cards"] == 6
    (tmp_path / "params.toml").write_text("[params.trak_length]\nvalue = 14\n")
    code, err = _run(capsys, ["run", "evolversi", "--data", str(tmp_path), "--games", "10"])
    assert code == 2 and "params.toml" in err and "params.trak_length" in err


def test_duplicate_animal_names_are_rejected(tmp_path, capsys):
    text = (GAME_DATA.data_dir / "animals.csv").read_text()
    (tmp_path / "animals.csv").write_text(text + text.splitlines()[1] + "\n")
    code, err = _run(capsys, ["run", "evolversi", "--data", str(tmp_path), "--games", "10"])
    assert code == 2 and "duplicate name 'Panda'" in err


@pytest.mark.parametrize("doc, what", [
    ({"ruleset": "evolversi", "state": "x"}, "key 'state'"),
    ({"ruleset": "evolversi", "state": {"seats": []}, "seed": "abc"}, "key 'seed'"),
    ({"ruleset": "evolversi", "state": {"seats": [{"animal": "Panda", "tokns": 1}, {"animal": "Orca"}]}},
     "state.seats[0].tokns"),
    ({"ruleset": "evolversi", "state": {"seats": [{"animal": "Panda", "fury": 7}, {"animal": "Orca"}]}},
     "state.seats[0].fury"),
    ({"ruleset": "evolversi", "state": {"seats": [{"animal": "Panda"}, {"animal": "Orca"}], "order": [0, 0]}},
     "state.order"),
])
def test_a_bad_scenario_is_one_clear_error(doc, what, tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    code, err = _run(capsys, ["scenario", str(path)])
    assert code == 2 and what in err and str(path) in err, err


def test_bench_rejects_an_empty_batch(capsys):
    code, err = _run(capsys, ["bench", "evolversi", "--batch-size", "0"])
    assert code == 2 and "--batch-size" in err


def test_report_of_a_folder_that_is_no_sweep_is_one_clear_error(tmp_path, capsys):
    (tmp_path / "manifest.json").write_text("{}")
    code, err = _run(capsys, ["report", str(tmp_path)])
    assert code == 2 and "not a sweep manifest" in err
