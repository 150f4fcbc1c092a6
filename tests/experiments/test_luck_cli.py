"""`balancelab luck`: the tables it plays, common random numbers, the ladder route, bad input."""
from __future__ import annotations

import json

import numpy as np
import pytest

from experiments import cli
from experiments.ladder import play_ladder
from experiments.luck import luck_from_ladder, play_luck, tables
from simcore.errors import UserError
from simcore.games import get_game


def test_a_bot_that_is_the_field_plays_one_table_for_every_seat():
    plan = tables(["greedy", "random"], "random", 3)
    assert [(k, s) for k, s, _ in plan] == [(0, 0), (0, 1), (0, 2), (1, None)]
    assert plan[1][2] == ("random", "greedy", "random") and plan[3][2] == ("random",) * 3
    other = tables(["greedy", "random"], "silly", 2)
    assert len(other) == 4 and all(lineup.count("silly") == 1 for _, _, lineup in other)


@pytest.fixture(scope="module")
def evolversi():
    return get_game("evolversi").data.load()


@pytest.fixture(scope="module")
def small(evolversi):
    return play_luck(evolversi, "greedy,random", players=3, games=150, seed=4)


def test_the_mirror_table_is_the_same_games_as_a_plain_run(small, evolversi):
    from experiments.luck import seat_shares
    from simcore.runner import simulate
    from strategies.registry import make_bots
    res = simulate(evolversi, make_bots("evolversi", "random", 3), 3, 150, 4, 1, 150)
    np.testing.assert_array_equal(small.y[:, :, 1], seat_shares(res.games, 3))
    assert small.games_played == 150 * 4


def test_luck_run_is_the_same_whatever_the_jobs(small, evolversi):
    again = play_luck(evolversi, "greedy,random", players=3, games=150, seed=4, jobs=2)
    np.testing.assert_array_equal(again.y, small.y)


def test_from_a_ladder_the_lone_tables_are_the_ladders(evolversi):
    lad = play_ladder(evolversi, "random,greedy", players=3, games=300, seed=4)     # 50 games per table
    run = luck_from_ladder(lad, "greedy", "random")
    direct = play_luck(evolversi, "greedy,random", players=3, games=lad.games_per_table, seed=4)
    np.testing.assert_array_equal(run.y, direct.y)
    assert run.source == "ladder" and run.games_played == lad.games_per_table


def test_cli_luck_prints_the_shares_and_writes_json(tmp_path, capsys):
    out = tmp_path / "luck"
    assert cli.main(["luck", "evolversi", "--bots", "greedy,random", "--players", "3", "--games", "200",
                     "--bootstrap", "100", "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "bot" in text and "deal" in text and "Luck and skill" in text
    doc = json.loads((out / "luck.json").read_text())
    assert doc["bots"] == ["greedy", "random"] and doc["field"] == "random"
    shares = [doc["result"]["shares"][c][0] for c in ("bot", "deal", "rest")]
    assert sum(shares) == pytest.approx(1.0)
    assert doc["result"]["difference"][1] > 0          # greedy wins more than random at the same seat


@pytest.mark.parametrize("argv, key", [
    (["--bots", "greedy"], "--bots"),
    (["--bots", "greedy,greedy"], "--bots"),
    (["--bots", "greedy,nosuchbot"], "bots"),
    (["--field", "nosuchbot"], "bots"),
    (["--games", "1"], "--games"),
])
def test_bad_luck_input_is_one_line_and_exit_2(argv, key, capsys, tmp_path):
    assert cli.main(["luck", "evolversi", "--quiet", "--out", str(tmp_path / "x"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and key in err
    assert not (tmp_path / "x").exists()


def test_ladder_reports_luck_and_skill_from_its_own_tables(tmp_path, capsys):
    out = tmp_path / "lad"
    assert cli.main(["ladder", "evolversi", "--bots", "random,greedy", "--players", "3", "--games", "300",
                     "--out", str(out), "--quiet"]) == 0
    assert "Luck and skill" in capsys.readouterr().out
    doc = json.loads((out / "ladder.json").read_text())
    assert doc["luck"]["bots"] == ["greedy", "random"] and doc["luck"]["field"] == "random"
    assert doc["luck"]["games"] == 50 and doc["luck"]["seats"] == 3
    html = (out / "ladder.html").read_text()
    assert 'id="luck"' in html and "greedy against random at a seat" in html
