"""Every game: a game state goes to JSON and back unchanged, and both engines continue it alike
(the basis of scenario files: `balancelab scenario`)."""
import json

import pytest

from simcore.games import GAMES, get_game

from .kit import default_bots, four_or_nearest


def _json(x):
    return json.loads(json.dumps(x))


@pytest.mark.parametrize("game", GAMES)
def test_a_state_survives_json_and_both_engines_continue_it_alike(game):
    g = get_game(game)
    rs = g.data.load()
    players = four_or_nearest(game)
    bots = default_bots(game, players)
    for k in range(20):
        start = g.new_state(rs, players, bots, 9, k)
        assert _json(start) == start
        after = [g.run_state(engine, rs, _json(start), bots, 9, k, "round") for engine in ("batch", "reference")]
        assert after[0] == after[1], f"game {k}: the engines differ after one round"
        state = after[0][0]
        ends = [g.run_state(engine, rs, _json(state), bots, 9, k, "end") for engine in ("batch", "reference")]
        assert ends[0] == ends[1], f"game {k}: the engines differ at the end"
        assert ends[0][1] is not None, f"game {k}: played to the end, but no outcome"
