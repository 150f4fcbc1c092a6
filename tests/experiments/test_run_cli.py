"""`balancelab run` is a one-point sweep: the sweep's writer, folder layout and manifest.

These use the real Evolversi batch engine (a few hundred games each).
"""
from __future__ import annotations

import json
import tempfile

import polars as pl
import pytest

from experiments import cli, store
from experiments.sweep import run_sweep
from reports.measures import metrics

RUN_ARGS = ["run", "evolversi", "--players", "3", "--bots", "greedy,random,greedy", "--animals", "Panda,random,Orca",
            "--set", "fourth_card_space=4", "--games", "300", "--seed", "7", "--batch-size", "120"]
EQUIVALENT_CONFIG = """
ruleset = "evolversi"
players = 3
bots = ["greedy", "random", "greedy"]
factions = ["Panda", "random", "Orca"]
set = { fourth_card_space = 4 }
games = 300
seed = 7
batch_size = 120
"""


def run_args(*extra: str) -> list[str]:
    return RUN_ARGS + list(extra)


def canonical(run: store.Run) -> tuple[pl.DataFrame, pl.DataFrame]:
    assert run.complete
    return run.games().with_columns(pl.col(pl.Categorical).cast(pl.Utf8)).sort(["point", "game"]), run.tallies()


@pytest.fixture(scope="module")
def run_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "out"
    assert cli.main(run_args("--out", str(out))) == 0
    return out


def test_run_out_then_report_writes_the_html_report(run_out, tmp_path, capsys):
    html = tmp_path / "r.html"
    assert cli.main(["report", str(run_out), "--out", str(html)]) == 0
    text = html.read_text()
    assert text.startswith("<!DOCTYPE html>")
    for words in ("Headline balance table", "Panda", "Orca", "fourth_card_space"):
        assert words in text
    assert "balance [95% CI]" in capsys.readouterr().out


def test_run_out_has_the_same_rows_as_the_equivalent_one_point_sweep(run_out, tmp_path):
    config = tmp_path / "one.toml"
    config.write_text(EQUIVALENT_CONFIG)
    swept = canonical(store.open_run(run_sweep(config, tmp_path / "sweep")))
    ran = canonical(store.open_run(run_out))
    assert ran[0].height == 300
    assert ran[0].equals(swept[0])
    assert ran[1].equals(swept[1])


def test_the_run_folder_keeps_a_config_that_sweep_replays_to_the_same_rows(run_out, tmp_path, capsys):
    manifest = store.read_manifest(run_out)
    assert manifest["command"] == "run" and len(manifest["points"]) == 1
    assert (run_out / "rulesets" / f"{manifest['points'][0]['ruleset_hash']}.json").is_file()
    assert cli.main(["sweep", str(run_out / "config.toml"), "--out", str(tmp_path / "again"), "--quiet"]) == 0
    assert canonical(store.open_run(tmp_path / "again"))[0].equals(canonical(store.open_run(run_out))[0])


def test_run_tables_are_the_metrics_of_its_rows(run_out, capsys):
    assert cli.main(run_args("--format", "json")) == 0
    d = json.loads(capsys.readouterr().out)
    games = store.open_run(run_out).games()
    seats = metrics.seat_win_rates(games)
    assert [s["win_rate"] for s in d["seats"]] == pytest.approx(seats["win_rate"].to_list(), abs=1e-12)
    assert [s["ci_low"] for s in d["seats"]] == pytest.approx(seats["ci_low"].to_list(), abs=1e-12)
    factions = metrics.faction_win_rates(games)
    assert [f["faction"] for f in d["factions"]] == factions["faction"].to_list()
    assert [f["games"] for f in d["factions"]] == factions["games"].to_list()
    assert d["balance"] == pytest.approx(metrics.balance(games)["balance"][0], abs=1e-12)
    assert d["mean_rounds"] == pytest.approx(games["rounds"].cast(pl.Float64).mean(), abs=1e-12)
    assert sum(d["end_reasons"].values()) == d["games"] == 300
    assert {b["bot"] for b in d["bots_table"]} == {"greedy", "random"}


def test_run_without_out_prints_the_table_and_leaves_no_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "evolversi", "--games", "200", "--batch-size", "50"]) == 0
    out = capsys.readouterr().out
    for words in ("seat 0", "animal", "rounds: mean", "end reasons: track", "balance (1 - largest animal"):
        assert words in out
    assert list(tmp_path.iterdir()) == []


def test_run_never_overwrites_a_sweep_folder(tmp_path, write_config, capsys):
    sweep = run_sweep(write_config(EQUIVALENT_CONFIG.replace("games = 300", "games = 20")), tmp_path / "sweep")
    before = sorted(p.relative_to(sweep) for p in sweep.rglob("*"))
    assert cli.main(["run", "evolversi", "--games", "10", "--out", str(sweep), "--overwrite"]) == 2
    assert "holds no previous `run` output" in capsys.readouterr().err
    assert sorted(p.relative_to(sweep) for p in sweep.rglob("*")) == before


def test_run_with_bad_input_writes_nothing(tmp_path, capsys):
    out = tmp_path / "nested" / "out"
    assert cli.main(["run", "evolversi", "--animals", "Panda,Panda,random,random", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "only once" in err
    assert list(tmp_path.iterdir()) == []


def test_point_summary_refuses_rows_of_several_points():
    rows = pl.DataFrame({"point": [0, 1], "rounds": [3, 4]})
    with pytest.raises(ValueError):
        metrics.point_summary(rows)
