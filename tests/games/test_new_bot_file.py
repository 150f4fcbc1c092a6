"""Every game: a bot added as one new file under strategies/<game>/ plays both engines,
with no edit to any engine (the engines receive bots; they never name one)."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import strategies
from simcore.games import GAMES
from tests.games.kit import PROBE_MODULE

PROBE = textwrap.dedent('''
    """A bot added by tests/games/test_new_bot_file.py (deleted after the test)."""
    from strategies.registry import make_bot, register

    @register("{game}", "probe_bot")
    class Probe:
        """The random bot's policies under a new name, from a file the engines have never seen."""

        def batch(self, rs):
            return make_bot("{game}", "random").batch_policy(rs)

        def reference(self, rs, seat):
            return make_bot("{game}", "random").reference_policy(rs, seat)
''')

PLAY = textwrap.dedent('''
    import numpy as np
    from simcore.games import get_game
    from strategies.registry import bot_names, make_bots
    g = get_game("{game}")
    rs = g.data.load()
    assert "probe_bot" in bot_names("{game}")
    lo, hi = g.player_range(rs)
    players = min(max(4, lo), hi)
    probe = make_bots("{game}", ["probe_bot"] + [g.default_bot] * (players - 1), players)
    rand = make_bots("{game}", ["random"] + [g.default_bot] * (players - 1), players)
    a = g.play_batch(rs, players, probe, 3, np.arange(60))
    b = g.play_batch(rs, players, rand, 3, np.arange(60))
    for k in range(60):
        one = g.play_one(rs, players, probe, 3, k)
        assert np.array_equal(np.asarray(one["score"]), np.asarray(a["score"][k])), k
    assert np.array_equal(a["score"], b["score"])   # the same policy under another name
    print("probe played", players, "seats")
''')


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_in_one_new_file_plays_both_engines(game):
    folder = Path(strategies.__file__).parent / game
    probe = folder / f"{PROBE_MODULE}.py"
    probe.write_text(PROBE.format(game=game))
    try:
        proc = subprocess.run([sys.executable, "-c", PLAY.format(game=game)], capture_output=True, text=True,
                              timeout=600)
    finally:
        probe.unlink()
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "probe played" in proc.stdout
