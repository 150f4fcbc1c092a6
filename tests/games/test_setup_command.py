"""`balancelab setup`: the state after setup, printed by the batch engine, is the reference
engine's state after the same setup, for every game; a bad player count exits 2 in one line."""
import json
import subprocess
import sys

import pytest

from simcore.games import GAMES, get_game

from .kit import default_bots, player_counts


def _setup(*args):
    return subprocess.run([sys.executable, "-m", "experiments.cli", "setup", *args], capture_output=True, text=True)


@pytest.mark.parametrize("game", GAMES)
def test_the_batch_engines_setup_is_the_reference_engines(game):
    players = player_counts(game)[0]
    proc = _setup(game, "--players", str(players), "--seed", "5", "--game", "3", "--engine", "batch")
    assert proc.returncode == 0, proc.stderr
    g = get_game(game)
    rs = g.data.load()
    expected = g.new_state(rs, players, default_bots(game, players), 5, 3, engine="reference")
    assert json.loads(proc.stdout) == json.loads(json.dumps(expected))


def test_a_player_count_out_of_range_exits_2_in_one_line():
    proc = _setup("capybara", "--players", "9", "--engine", "reference")
    assert proc.returncode == 2 and proc.stdout == ""
    err = proc.stderr.strip()
    assert "\n" not in err and "players" in err and "Traceback" not in err
