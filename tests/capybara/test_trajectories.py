"""Trajectories: each seat's -fatigue after each table round, from both engines.

Off by default; turning them on adds the s{seat}_standing columns and changes nothing else."""
import numpy as np

from experiments.cli import main
from experiments.lineup import run_spec
from simcore.games import get_game
from simcore.games.capybara.state import round_cap
from simcore.runner import run_chunk
from strategies.registry import make_bots

GAME = get_game("capybara")
RS = GAME.data.load()


def _standing(rows, players=4):
    return np.stack([rows[f"s{s}_standing"].to_numpy() for s in range(players)], axis=2)


def test_turning_trajectories_on_leaves_every_other_column_of_every_row_identical():
    on, _ = run_chunk(run_spec(RS, "greedy,random,greedy,random", 4, None, 9, trajectories=True), 0, 300)
    off, _ = run_chunk(run_spec(RS, "greedy,random,greedy,random", 4, None, 9), 0, 300)
    assert [c for c in on.columns if c not in off.columns] == [f"s{s}_standing" for s in range(4)]
    assert on.select(off.columns).equals(off)


def test_the_last_rounds_standing_is_minus_the_final_fatigue_and_never_rises():
    rows, _ = run_chunk(run_spec(RS, "greedy", 4, None, 3, trajectories=True), 0, 300)
    st, rounds = _standing(rows), rows["rounds"].to_numpy()
    fatigue = np.stack([rows[f"s{s}_score"].to_numpy() for s in range(4)], axis=1)
    assert st.shape[1] == round_cap(RS, 4) and rounds.max() < st.shape[1]
    assert (st[np.arange(len(rounds)), rounds - 1] == -fatigue).all()
    assert (st[:, -1] == -fatigue).all()                   # after the end: the final standing
    assert (np.diff(st, axis=1) <= 0).all()                # fatigue is only ever taken
    assert (st[:, 0] > st[:, -1]).any()                    # and it is taken during the game


def test_both_engines_record_the_same_trajectory_game_by_game():
    for players, lineup in ((4, "greedy,random,greedy,random"), (2, "random,greedy")):
        bots = make_bots("capybara", lineup, players)
        out = GAME.play_batch(RS, players, bots, 21, np.arange(25), trajectories=True)
        assert out["standing"].shape == (25, round_cap(RS, players), players)
        for k in range(25):
            ref = GAME.play_one(RS, players, bots, 21, k, trajectories=True)
            assert int(out["rounds"][k]) == ref["rounds"]
            assert (out["standing"][k] == ref["standing"]).all(), f"{players} players, game {k}"


def test_without_trajectories_neither_engine_returns_a_standing():
    bots = make_bots("capybara", "greedy", 3)
    assert "standing" not in GAME.play_batch(RS, 3, bots, 0, np.arange(5))
    assert "standing" not in GAME.play_one(RS, 3, bots, 0, 0)


def test_a_run_with_trajectories_has_the_how_the_game_unfolds_section(tmp_path):
    out = tmp_path / "run"
    assert main(["run", "capybara", "--games", "400", "--trajectories", "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="flow"' in html and "Runaway leader" in html and "-fatigue" in html
