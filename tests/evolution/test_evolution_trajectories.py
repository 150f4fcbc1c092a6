"""Trajectories: each seat's score so far after each round, from both engines.

Off by default; turning them on adds the s{seat}_standing columns and changes nothing else."""
import numpy as np

from experiments.cli import main
from experiments.lineup import run_spec
from simcore.games import get_game
from simcore.runner import run_chunk
from strategies.registry import make_bots

GAME = get_game("evolution")
RS = GAME.data.load()
# one engine build for every test here, and the one the shared suite's mixed line-up uses
# (greedy, random and silly: each distinct set of bots is its own compiled build)
LINEUP = "greedy,random,silly,greedy"


def _standing(rows, players=4):
    return np.stack([rows[f"s{s}_standing"].to_numpy() for s in range(players)], axis=2)


def test_turning_trajectories_on_leaves_every_other_column_of_every_row_identical():
    on, _ = run_chunk(run_spec(RS, LINEUP, 4, None, 9, trajectories=True), 0, 200)
    off, _ = run_chunk(run_spec(RS, LINEUP, 4, None, 9), 0, 200)
    assert [c for c in on.columns if c not in off.columns] == [f"s{s}_standing" for s in range(4)]
    assert on.select(off.columns).equals(off)


def test_the_last_rounds_standing_is_the_final_score_and_repeats_after_the_end():
    rows, _ = run_chunk(run_spec(RS, LINEUP, 4, None, 3, trajectories=True), 0, 200)
    st, rounds = _standing(rows), rows["rounds"].to_numpy()
    score = np.stack([rows[f"s{s}_score"].to_numpy() for s in range(4)], axis=1)
    assert st.shape[1] == RS["max_rounds"] and (rounds >= 1).all()
    assert (st[np.arange(len(rounds)), rounds - 1] == score).all()
    assert (st[:, -1] == score).all()                      # after the end: the final standing
    assert (st >= 0).all() and (st[:, 0] < score).any()    # scores grow during the game


def test_both_engines_record_the_same_trajectory_game_by_game():
    bots = make_bots("evolution", LINEUP, 4)
    out = GAME.play_batch(RS, 4, bots, 21, np.arange(20), trajectories=True)
    assert out["standing"].shape == (20, RS["max_rounds"], 4)
    for k in range(20):
        ref = GAME.play_one(RS, 4, bots, 21, k, trajectories=True)
        assert int(out["rounds"][k]) == ref["rounds"]
        assert (out["standing"][k] == ref["standing"]).all(), f"game {k}"


def test_without_trajectories_neither_engine_returns_a_standing():
    bots = make_bots("evolution", LINEUP, 4)
    assert "standing" not in GAME.play_batch(RS, 4, bots, 0, np.arange(3))
    assert "standing" not in GAME.play_one(RS, 4, bots, 0, 0)


def test_a_run_with_trajectories_has_the_how_the_game_unfolds_section(tmp_path):
    out = tmp_path / "run"
    assert main(["run", "evolution", "--games", "300", "--bots", LINEUP, "--trajectories",
                 "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="flow"' in html and "Runaway leader" in html and "score so far" in html
