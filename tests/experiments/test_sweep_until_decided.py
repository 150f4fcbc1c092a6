"""`sweep --until-decided`: each knockout/removal played in chunks until its sequential check decides."""
from __future__ import annotations

import polars as pl

from experiments import cli, store
from reports.measures.metrics import ablation_effects

CONFIG = """
name = "until-decided"
ruleset = "evolversi"
players = 4
bots = "greedy"
games = 4000
seed = 1
batch_size = 2000
[[grid]]
param = "fourth_card_space"
values = [3, 6]
[ablation]
kind = "removal"
entities = ["Vampirismo", "Mutazione"]
set = { copies = 0 }
"""


def test_each_removal_stops_when_decided_and_the_run_folder_is_complete(write_config, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--until-decided"]) == 0
    printed = capsys.readouterr().out
    run = store.open_run(out)
    seq = run.manifest["until_decided"]
    removals = [r for r in seq["rows"] if r["entity"] is not None]
    grid_checks = [r for r in seq["rows"] if r["entity"] is None]
    assert len(removals) == 4 and not run.missing() and run.manifest["status"] == "complete"
    assert {r["measure"] for r in grid_checks} >= {f"seat {s}" for s in range(4)}     # point 1 against point 0
    assert all((r["point"], r["base"]) == (1, 0) for r in grid_checks)
    games = run.games()
    counts = dict(games.group_by("point").len().iter_rows())
    effects = {r["point"]: r for r in ablation_effects(games, run.points).iter_rows(named=True)}
    for r in removals:
        played = counts[r["point"]]
        assert played == r["games"] <= 4000 and counts[r["base"]] >= played
        if r["decided_after"] is not None:
            assert r["decided_after"] == played and f"{r['entity']}: {r['decision']} after {played:,}" in printed
            assert effects[r["point"]]["games"] == played          # the report pairs the games played
            assert abs(effects[r["point"]]["effect"] - r["effect"]) < 1e-9
        else:
            assert played == 4000
    assert seq["games_played"] == games.height < seq["games_fixed"] == 6 * 4000
    assert games.filter(pl.col("point") == 0)["game"].to_list() == list(range(counts[0]))


def test_a_shared_budget_caps_the_games_played(write_config, tmp_path):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--until-decided",
                     "--budget", "1000"]) == 0
    run = store.open_run(out)
    assert run.manifest["until_decided"]["games_played"] == run.games().height <= 1000


def test_until_decided_without_a_paired_check_is_one_clear_line(write_config, tmp_path, capsys):
    plain = CONFIG.split("[[grid]]")[0]
    assert cli.main(["sweep", str(write_config(plain)), "--out", str(tmp_path / "r"), "--until-decided"]) == 2
    assert "no [ablation] and no grid point" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_the_report_says_after_how_many_games_each_check_was_decided(write_config, tmp_path):
    out = tmp_path / "run"
    assert cli.main(["sweep", str(write_config(CONFIG)), "--out", str(out), "--quiet", "--until-decided"]) == 0
    assert cli.main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="until-decided"' in html
    for r in store.open_run(out).manifest["until_decided"]["rows"]:
        if r["decided_after"] is not None:
            assert f"<td>{r['decided_after']:,}</td>" in html
