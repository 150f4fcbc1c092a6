"""`balancelab train`: CMA-ES over a game's greedy weights.

The optimiser is checked against a planted optimum; training on a tiny budget runs, writes a
valid weights file atomically, and is the same given its seed."""
from __future__ import annotations

import os

import numpy as np
import pytest

from experiments import train as T
from experiments.cli import main
from simcore.games import get_game
from strategies import weights as W

GAME = "capybara"


def test_the_optimiser_finds_a_planted_optimum_of_a_noisy_toy_objective():
    """A quadratic bowl with its minimum planted off-centre, plus common noise per generation
    (as the games add: the same for every candidate of a generation)."""
    planted = np.array([0.2, 0.75, 0.4, 0.9])
    noise = np.random.default_rng(7).normal(0, 0.01, 200)

    def evaluate(X, gen):
        return [float(np.sum((x - planted) ** 2)) + noise[gen] for x in X]

    x = T.optimise(evaluate, np.full(4, 0.5), generations=60, popsize=8, seed=3)
    assert np.abs(x - planted).max() < 0.03
    start = np.abs(np.full(4, 0.5) - planted).max()
    assert start > 0.3                                     # the search had somewhere to go


def test_the_optimiser_is_the_same_given_its_seed_and_touches_no_global_random_state():
    def evaluate(X, gen):
        return [float(np.sum(x ** 2)) for x in X]

    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    a = T.optimise(evaluate, np.full(3, 0.5), 5, 6, seed=11)
    assert (np.random.get_state()[1] == before).all()
    b = T.optimise(evaluate, np.full(3, 0.5), 5, 6, seed=11)
    c = T.optimise(evaluate, np.full(3, 0.5), 5, 6, seed=12)
    assert (a == b).all() and not (a == c).all()


def test_a_tiny_training_run_writes_a_valid_file_with_provenance_and_is_deterministic(tmp_path):
    rs = get_game(GAME).data.load()
    outs = []
    for k in range(2):
        res = T.train(rs, players=4, budget=400, seed=5)
        outs.append(T.write(res, tmp_path / f"w{k}.toml"))
    text = [o.read_text() for o in outs]
    assert text[0] == text[1]
    w = W.load(GAME, outs[0])
    assert w.names == W.schema(GAME).names
    p = res.provenance
    assert (p["budget"], p["seed"], p["players"], p["field"]) == (400, 5, 4, "greedy")
    assert p["games_played"] <= 400 and p["generations"] >= 1
    lo, hi = p["eval_interval_95"]
    assert 0 <= lo <= p["eval_win_share"] <= hi <= 1
    assert [f.name for f in tmp_path.iterdir() if f.name.startswith(".")] == []


def test_the_held_out_score_is_the_fair_share_when_the_candidate_is_the_field():
    """Seat rotation on common game indices: greedy against three greedy wins exactly 1/P of
    the decided games, whatever the seat bias."""
    rs = get_game(GAME).data.load()
    field = T.check(rs, 4, 100, 0, "greedy", None)
    y = T.seat_shares(rs, T.candidate_bot(W.default(GAME)), field, 4, 0, 0, 50)
    assert y.mean() == pytest.approx(0.25, abs=1e-9)


def test_a_failed_write_leaves_no_file_behind(tmp_path, monkeypatch):
    res = T.Trained(W.default(GAME), {"budget": 1})
    out = tmp_path / "w.toml"

    def boom(*a):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        T.write(res, out)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,expect", [
    (["--budget", "5"], "cannot pay one generation"),
    (["--budget", "0"], "must be a whole number from 1"),
    (["--players", "9"], "players"),
    (["--field", "greedi"], "did you mean 'greedy'"),
    (["--out", "/no/such/folder/w.toml"], "folder does not exist"),
])
def test_bad_train_arguments_are_one_line_and_exit_2(args, expect, capsys, tmp_path):
    argv = ["train", GAME, "--quiet"] + args
    if "--out" not in args:
        argv += ["--out", str(tmp_path / "w.toml")]
    code = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and expect in err[0]
    assert not (tmp_path / "w.toml").exists()


def test_a_game_without_weights_is_refused_by_name(capsys, monkeypatch, tmp_path):
    """Every shipped game has weights; a game whose weights folder holds no default.toml (a new
    game, or a designer's copy) is refused by name, not trained on nothing."""
    shipped = W.weights_dir
    monkeypatch.setattr(W, "weights_dir", lambda g: tmp_path if g == "evo" else shipped(g))
    code = main(["train", "evo", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "no weights to train" in err and "evo" in err
