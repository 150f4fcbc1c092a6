"""Trajectories: each seat's track position after each round, from both engines.

Off by default; turning them on adds the s{seat}_standing columns and changes nothing else."""
import numpy as np
import pytest

from experiments.cli import main
from experiments.lineup import run_spec
from simcore.errors import UserError
from simcore.games import get_game
from simcore.runner import run_chunk
from strategies.registry import make_bots

GAME = get_game("evolversi")
RS = GAME.data.load()


def _standing(rows):
    return np.stack([rows[f"s{s}_standing"].to_numpy() for s in range(4)], axis=2)


def test_turning_trajectories_on_leaves_every_other_column_of_every_row_identical():
    on, _ = run_chunk(run_spec(RS, "greedy,random,greedy,random", 4, None, 9, trajectories=True), 0, 400)
    off, _ = run_chunk(run_spec(RS, "greedy,random,greedy,random", 4, None, 9), 0, 400)
    assert [c for c in on.columns if c not in off.columns] == [f"s{s}_standing" for s in range(4)]
    assert on.select(off.columns).equals(off)


def test_the_last_rounds_standing_is_the_final_track_position_and_repeats_after_the_end():
    rows, _ = run_chunk(run_spec(RS, "greedy", 4, None, 3, trajectories=True), 0, 300)
    st, rounds = _standing(rows), rows["rounds"].to_numpy()
    score = np.stack([rows[f"s{s}_score"].to_numpy() for s in range(4)], axis=1)
    assert (st[np.arange(len(rounds)), rounds - 1] == score).all()
    assert (st[:, -1] == score).all()                      # after the end: the final standing
    assert (np.diff(st, axis=1) >= -RS["track_length"]).all() and (st >= 0).all()


def test_both_engines_record_the_same_trajectory_game_by_game():
    bots = make_bots("evolversi", "greedy,random,greedy,random", 4)
    out = GAME.play_batch(RS, 4, bots, 21, np.arange(60), trajectories=True)
    for k in range(60):
        ref = GAME.play_one(RS, 4, bots, 21, k, trajectories=True)
        r = int(out["rounds"][k])
        assert r == ref["rounds"]
        assert (np.asarray(out["standing"])[k, :r] == np.asarray(ref["standing"])[:r]).all(), f"game {k}"


def test_a_game_whose_engines_do_not_record_trajectories_says_so(capsys, monkeypatch):
    evo = get_game("evolution")
    # every shipped game records trajectories now: stand in one whose engines do not
    monkeypatch.setattr(evo, "standing_label", None)
    with pytest.raises(UserError) as e:
        run_spec(evo.data.load(), "greedy", 4, None, 0, trajectories=True)
    assert e.value.key == "trajectories" and "evolversi" in e.value.message
    assert main(["run", "evolution", "--games", "10", "--trajectories"]) == 2
    assert "trajectories" in capsys.readouterr().err


def test_a_run_with_trajectories_has_the_how_the_game_unfolds_section(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "evolversi", "--games", "600", "--trajectories", "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="flow"' in html and "Runaway leader" in html and "track position" in html
    plain = tmp_path / "plain"
    assert main(["run", "evolversi", "--games", "300", "--out", str(plain)]) == 0
    assert main(["report", str(plain)]) == 0
    assert 'id="flow"' not in (plain / "report.html").read_text()
