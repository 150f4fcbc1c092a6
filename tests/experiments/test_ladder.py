"""`balancelab ladder`: seat rotations on common random numbers, a small real ladder, bad input."""
from __future__ import annotations

import json

import polars as pl
import pytest

from experiments import cli
from experiments.ladder import games_per_table, play_ladder, rotations
from simcore.errors import UserError
from simcore.games import get_game


def test_each_bot_sits_alone_at_every_seat_against_the_other():
    tables = rotations("a", "b", 4)
    assert len(tables) == 8
    for lone, field in (("a", "b"), ("b", "a")):
        mine = [t for t in tables if t.lone == lone]
        assert sorted(t.seat for t in mine) == [0, 1, 2, 3]
        for t in mine:
            assert t.field == field and t.lineup[t.seat] == lone
            assert [s for s in range(4) if t.lineup[s] == field] == [s for s in range(4) if s != t.seat]


def test_two_players_play_each_table_once():
    tables = rotations("a", "b", 2)
    assert sorted(t.lineup for t in tables) == [("a", "b"), ("b", "a")]


def test_games_per_pair_are_spread_over_the_rotations():
    assert games_per_table(2000, 4) == 250
    assert games_per_table(2001, 4) == 251
    assert games_per_table(10, 3) == 2


@pytest.fixture(scope="module")
def small_ladder():
    rs = get_game("evolversi").data.load()
    return play_ladder(rs, "random,greedy", players=3, games=120, seed=5)


def test_every_rotation_plays_the_same_game_indices(small_ladder):
    m = small_ladder.matches
    per_table = m.group_by(["a", "seat"]).agg(pl.col("game").sort())
    assert per_table.height == 6
    first = per_table["game"][0].to_list()
    assert first == list(range(small_ladder.games_per_table))
    assert all(g.to_list() == first for g in per_table["game"])


def test_the_ladder_is_the_same_games_whatever_the_jobs(small_ladder):
    rs = get_game("evolversi").data.load()
    again = play_ladder(rs, "random,greedy", players=3, games=120, seed=5, jobs=2)
    assert again.matches.equals(small_ladder.matches)


def test_cli_ladder_ranks_greedy_above_random_and_writes_its_files(tmp_path, capsys):
    out = tmp_path / "lad"
    assert cli.main(["ladder", "evolversi", "--bots", "random,greedy", "--games", "400", "--out", str(out),
                     "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "How much skill matters" in text
    assert "Blind spots (touched in fewer than 5% of games by every bot: random, greedy" in text
    spots = pl.read_csv(out / "blind_spots.csv")
    assert set(spots["bot"]) == {"random", "greedy"} and set(spots["kind"]) == {"entity", "rule"}
    ratings = pl.read_csv(out / "ladder.csv")
    assert ratings["bot"].to_list() == ["greedy", "random"]
    assert ratings["ci_low"][0] > ratings["ci_high"][1]
    doc = json.loads((out / "ladder.json").read_text())
    assert doc["games_per_pair"] == 400 and doc["skill"]["best"] == "greedy"
    html = (out / "ladder.html").read_text()
    assert "How much skill matters" in html and "data:image/png;base64," in html
    # A second ladder into the same folder needs --overwrite.
    assert cli.main(["ladder", "evolversi", "--bots", "random,greedy", "--games", "80", "--out", str(out),
                     "--quiet"]) == 2
    assert "--overwrite" in capsys.readouterr().err


@pytest.mark.parametrize("argv, needle", [
    (["--bots", "random,gredy"], "did you mean 'greedy'"),
    (["--bots", "greedy"], "at least two bots"),
    (["--bots", "greedy,greedy"], "listed twice"),
    (["--bots", "random,greedy", "--games", "0"], "--games"),
    (["--bots", "random,greedy", "--players", "9"], "player count"),
])
def test_bad_ladder_input_is_one_line_and_exit_2(argv, needle, tmp_path, capsys):
    out = tmp_path / "never"
    assert cli.main(["ladder", "evolversi", *argv, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err
    assert not out.exists()


def test_check_rejects_an_unknown_bot_before_playing():
    rs = get_game("evolversi").data.load()
    with pytest.raises(UserError, match="unknown bot"):
        play_ladder(rs, ["random", "nobody"], players=4, games=10)
