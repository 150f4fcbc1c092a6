"""`balancelab skill`: a small real skill curve writes its files; bad input is one line and exit 2."""
from __future__ import annotations

import json

import polars as pl
import pytest

from experiments import cli


@pytest.mark.slow
def test_cli_skill_plays_every_knockout_per_bot_and_writes_its_files(tmp_path, capsys):
    out = tmp_path / "skill"
    assert cli.main(["skill", "evolution", "--bots", "random,greedy", "--entities", "fertile,carnivore",
                     "--games", "200", "--ladder-games", "80", "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "bots, weakest first: random" in text and "Sign changes across skill" in text
    curve = pl.read_csv(out / "skill_curve.csv")
    assert sorted(zip(curve["entity"], curve["bot"])) == [("carnivore", "greedy"), ("carnivore", "random"),
                                                          ("fertile", "greedy"), ("fertile", "random")]
    assert (curve["games"] == 200).all() and curve["holds"].all()
    greedy = curve.filter(pl.col("bot") == "greedy")
    assert (greedy["rating"] > curve.filter(pl.col("bot") == "random")["rating"][0]).all()
    fertile = greedy.filter(pl.col("entity") == "fertile").row(0, named=True)
    assert fertile["ci_low"] > 0                  # greedy's Fertile is worth a lot: its knockout costs its holders
    doc = json.loads((out / "skill_curve.json").read_text())
    assert doc["bots"] == ["random", "greedy"] and doc["games"] == 200 and isinstance(doc["flags"], list)
    assert (out / "skill_curve.png").read_bytes()[:4] == b"\x89PNG"
    # The ratings of a ladder's folder are read, not played again; a second curve there needs --overwrite.
    lad = tmp_path / "lad"
    (lad).mkdir()
    (lad / "ladder.json").write_text(json.dumps({"ruleset_hash": doc["ruleset_hash"], "players": 4, "ratings": [
        {"bot": "random", "rating": -1.0, "ci_low": -1.2, "ci_high": -0.8},
        {"bot": "greedy", "rating": 1.0, "ci_low": 0.8, "ci_high": 1.2}]}))
    assert cli.main(["skill", "evolution", "--bots", "random,greedy", "--entities", "fertile", "--games", "50",
                     "--ladder", str(lad), "--out", str(out), "--quiet"]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert cli.main(["skill", "evolution", "--bots", "random,greedy", "--entities", "fertile", "--games", "50",
                     "--ladder", str(lad), "--out", str(out), "--overwrite", "--quiet"]) == 0
    assert "random -1.00 [-1.20, -0.80], greedy 1.00" in capsys.readouterr().out
    assert pl.read_csv(out / "skill_curve.csv")["entity"].unique().to_list() == ["fertile"]


@pytest.mark.parametrize("argv, needle", [
    (["--bots", "random,greedy", "--entities", "fertil"], "did you mean fertile"),
    (["--bots", "greedy"], "at least two bots"),
    (["--bots", "random,gredy"], "did you mean 'greedy'"),
    (["--bots", "random,greedy", "--games", "1"], "--games"),
    (["--bots", "random,greedy", "--ladder-games", "5"], "--ladder-games"),
    (["--bots", "random,greedy", "--ladder", "nowhere"], "holds no ladder.json"),
])
def test_bad_skill_input_is_one_line_and_exit_2(argv, needle, tmp_path, capsys):
    out = tmp_path / "never"
    argv = [a if a != "nowhere" else str(tmp_path / "nowhere") for a in argv]
    assert cli.main(["skill", "evolution", *argv, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err, err
    assert not out.exists()


def test_a_ladder_of_other_rules_is_refused(tmp_path, capsys):
    lad = tmp_path / "lad"
    lad.mkdir()
    (lad / "ladder.json").write_text(json.dumps({"ruleset_hash": "other", "players": 4, "ratings": []}))
    assert cli.main(["skill", "evolution", "--bots", "random,greedy", "--ladder", str(lad), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "ruleset_hash is 'other', expected" in err


def test_an_out_folder_of_someone_elses_files_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert cli.main(["skill", "evolution", "--bots", "random,greedy", "--out", str(tmp_path), "--quiet"]) == 2
    assert "holds neither a sweep's run nor a previous skill curve" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"


@pytest.mark.slow
def test_the_report_of_a_run_folder_shows_its_skill_curve_and_whether_stronger_bots_agree(tmp_path, capsys):
    config = tmp_path / "knockouts.toml"
    config.write_text('name = "fertile"\nruleset = "evolution"\nplayers = 4\ngames = 600\nseed = 0\n'
                      'bots = "greedy"\n\n[ablation]\nkind = "knockout"\nentities = ["fertile"]\n')
    run = tmp_path / "run"
    assert cli.main(["sweep", str(config), "--out", str(run)]) == 0
    assert cli.main(["skill", "evolution", "--bots", "random,greedy,trained", "--entities", "fertile",
                     "--games", "600", "--ladder-games", "240", "--out", str(run), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(run)]) == 0
    text = capsys.readouterr().out
    # greedy's Fertile is too strong (+20 pp); the line rests on greedy and checks trained, rated above it
    line = next(t for t in text.splitlines() if "too strong: Trait fertile" in t)
    assert "greedy bots" in line and "Across skill: stronger bots" in line and "trained +" in line
    html = (run / "report.html").read_text()
    assert 'id="skill"' in html and "Balance across skill" in html and "Across skill: stronger bots" in html
