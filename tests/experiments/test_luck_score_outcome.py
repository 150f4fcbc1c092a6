"""Luck against skill with the score outcome (`balancelab luck --outcome score`): the seat's score
margin, oriented so higher is better; a planted truth on scores; every game's direction checked
against its winners; the CLI and the API say which outcome they used."""
from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from experiments import api, cli
from experiments.luck import play_luck, score_direction, seat_margins
from reports.measures import luck as L
from simcore.games import GAMES, get_game
from simcore.runner import simulate
from strategies.registry import make_bots


def test_the_margin_is_the_score_minus_the_other_seats_mean():
    # two games (rows out of order: the margins come back in game order), three seats
    games = pl.DataFrame({"game": [1, 0], "s0_score": [3, 6], "s1_score": [0, 3], "s2_score": [0, 0]})
    np.testing.assert_allclose(seat_margins(games, 3), [[4.5, 0, -4.5], [3, -1.5, -1.5]])
    np.testing.assert_allclose(seat_margins(games, 3, lower_is_better=True), [[-4.5, 0, 4.5], [-3, 1.5, 1.5]])


def planted_scores(rng, games=3000, seats=4, alpha=(2.0, -2.0), sd_deal=3.0, sd_field=2.0, sd_noise=1.5):
    """Per bot k a frame of the games with k at seat s (one frame per seat), the others the field.

    The tested seat scores 20 + alpha_k + beta_(g,s) + noise_(g,s,k); the field's scores are the
    deal's and do not react to the bot. Its margin's parts: bot var(alpha), deal
    var(beta) + var(field)/(seats-1), rest var(noise)."""
    alpha = np.asarray(alpha)
    beta = rng.normal(0, sd_deal, (games, seats))
    field = 20 + rng.normal(0, sd_field, (games, seats))
    frames = {}
    for k in range(2):
        for s in range(seats):
            score = field.copy()
            score[:, s] = 20 + alpha[k] + beta[:, s] + rng.normal(0, sd_noise, games)
            frames[k, s] = pl.DataFrame({"game": np.arange(games),
                                         **{f"s{i}_score": score[:, i] for i in range(seats)}})
    parts = np.array([np.mean((alpha - alpha.mean()) ** 2), sd_deal ** 2 + sd_field ** 2 / (seats - 1), sd_noise ** 2])
    return frames, parts / parts.sum()


@pytest.mark.parametrize("lower_is_better", [False, True])
def test_planted_score_shares_come_back_inside_their_intervals(lower_is_better):
    seats = 4
    frames, truth = planted_scores(np.random.default_rng(21), seats=seats)
    y = np.zeros((3000, seats, 2))
    for (k, s), f in frames.items():
        if lower_is_better:        # the same game told as a "lower is better" score: every score negated
            f = f.with_columns([(-pl.col(f"s{i}_score")).alias(f"s{i}_score") for i in range(seats)])
        y[:, s, k] = seat_margins(f, seats, lower_is_better)[:, s]
    r = L.decompose(y, ["strong", "weak"], bootstrap=300, seed=1)
    for c, t in zip(L.COMPONENTS, truth):
        assert r["shares"][c][1] <= t <= r["shares"][c][2], (c, t, r["shares"][c])
    assert r["difference"][1] > 0          # the strong bot's margin is higher, whichever way the score runs


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_games_declared_direction_puts_its_winners_ahead(name):
    game = get_game(name)
    rs = game.data.load()
    res = simulate(rs, make_bots(name, "random", 4), 4, 120, 3, 1, 120)
    label, lower = score_direction(rs)
    assert label == game.score_label
    margin = seat_margins(res.games, 4, lower)
    won = np.column_stack([res.games.sort("game")[f"s{s}_win"].to_numpy() for s in range(4)]).astype(bool)
    assert margin[won].mean() > margin[~won].mean() + 0.1 * margin.std()


def test_the_cli_says_which_outcome_and_bots_and_records_them(tmp_path, capsys):
    out = tmp_path / "luck"
    assert cli.main(["luck", "evolversi", "--bots", "greedy,random", "--players", "3", "--games", "150",
                     "--bootstrap", "50", "--outcome", "score", "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "outcome: the seat's score margin: its track position minus the other seats' mean" in text
    assert "mean score margin at the seat: greedy" in text and "bots compared at a seat: greedy, random" in text
    doc = json.loads((out / "luck.json").read_text())
    assert doc["outcome"] == "score" and doc["score_label"] == "track position" and not doc["score_lower_is_better"]
    again = play_luck(get_game("evolversi").data.load(), "greedy,random", players=3, games=150, outcome="score")
    assert doc["result"]["shares"]["bot"][0] == pytest.approx(L.decompose(again.y, again.bots, 50, 0)["shares"]["bot"][0])


def test_the_default_outcome_is_still_the_win_share(capsys):
    assert cli.main(["luck", "evolversi", "--players", "3", "--games", "60", "--bootstrap", "20", "--quiet"]) == 0
    assert "outcome: the seat's win share" in capsys.readouterr().out


def test_an_unknown_outcome_is_one_line_and_exit_2(capsys):
    assert cli.main(["luck", "evolversi", "--games", "50", "--outcome", "points"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--outcome" in err and "win, score" in err


def test_the_api_takes_the_outcome_and_names_it():
    rs = get_game("evolversi").data.load()
    r = api.luck(rs, "greedy,random", players=3, games=80, bootstrap=20, outcome="score")
    assert r["manifest"]["outcome"] == "score" and "score margin" in r["words"]
    assert "win share" in api.luck(rs, "greedy,random", players=3, games=80, bootstrap=20)["words"]
