"""`balancelab sweep` and `balancelab report` through the CLI entry point, and the notebook API."""
from __future__ import annotations

import polars as pl

from experiments import api, cli, store

CONFIG = """
name = "cli-test"
ruleset = "evolversi"
players = 3
games = 40
seed = 2
batch_size = 20
target_rounds = [8, 15]
[[grid]]
param = "fourth_card_space"
values = [3, 4]
"""


def test_sweep_then_report_then_resume_is_a_no_op(fake_engine, write_config, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet"]) == 0
    assert f"wrote {out}/: 2 points, 80 games" in capsys.readouterr().out
    chunks = sorted(out.glob("chunks/*/*.parquet"))
    assert len(chunks) == 4
    stamps = [p.stat().st_mtime_ns for p in chunks]
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--resume"]) == 0
    assert [p.stat().st_mtime_ns for p in chunks] == stamps          # nothing recomputed
    assert cli.main(["report", str(out)]) == 0
    assert (out / "report.html").read_text().startswith("<!DOCTYPE html>")


def test_report_of_a_missing_run_is_a_user_error(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path / "nothing")]) == 2
    assert "run folder does not exist" in capsys.readouterr().err


def test_notebook_api_returns_frames(fake_engine, write_config, tmp_path):
    cfg = write_config(CONFIG)
    plan = api.plan(cfg)
    assert plan["fourth_card_space"].to_list() == ["3", "4"]
    run = api.sweep(cfg, tmp_path / "run")
    head = api.headline(run)
    assert isinstance(head, pl.DataFrame) and head.height == 2 and "fourth_card_space" in head.columns
    assert "in_target" in head.columns
    assert api.seat_win_rates(run, pandas=True).shape[0] == 6
    assert api.faction_win_rates(run).height > 0 and api.entity_impact(run).height > 0
    assert api.games(tmp_path / "run").height == 80
    d = api.paired_difference(run, 0, 1, "rounds")
    assert d["games"] == 40
    assert api.report(run).exists()
    assert isinstance(store.open_run(tmp_path / "run"), store.Run)
