"""`tune` can target how a game unfolds: game-flow metrics from trajectories."""
import json
import math

from simcore.games import get_game

from .kit import BASE, ONE_VAR, SMALL, run, write


def test_a_lead_change_target_is_measured_from_trajectories_and_proved(tmp_path, capsys):
    cfg = write(tmp_path, BASE + ONE_VAR + "\n[targets]\nlead_changes = [0.5, 4.0]\ncomeback = 20.0\n" + SMALL)
    code, _, err = run([cfg, "--out", tmp_path / "out", "--quiet"], capsys)
    assert code == 0, err
    doc = json.loads((tmp_path / "out" / "tune.json").read_text())
    est, lo, hi = doc["proof"]["proposal"]["values"]["lead_changes"]
    assert all(math.isfinite(x) for x in (est, lo, hi)) and lo <= est <= hi
    assert 0.5 < est < 4.0           # greedy Evolversi: about 1.5 lead changes a game
    c_est = doc["proof"]["proposal"]["values"]["comeback"][0]
    assert 0 <= c_est <= 100
    assert doc["verdict"] in ("met", "not met")


def test_a_flow_target_on_a_game_without_trajectories_is_one_clear_error(tmp_path, capsys, monkeypatch):
    # every shipped game records trajectories now: stand in one whose engines do not
    monkeypatch.setattr(get_game("evolution"), "standing_label", None)
    base = BASE.replace('ruleset = "evolversi"', 'ruleset = "evolution"')
    var = '\n[[variables]]\nparam = "max_body"\nmin = 5\nmax = 7\nstep = 1\n'
    cfg = write(tmp_path, base + var + "\n[targets]\nlead_changes = 3.0\n" + SMALL)
    code, _, err = run([cfg, "--out", tmp_path / "out", "--quiet"], capsys)
    assert code == 2 and "targets.lead_changes" in err and "trajectories" in err
    assert not (tmp_path / "out").exists()
