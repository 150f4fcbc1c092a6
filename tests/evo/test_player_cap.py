"""One player cap: the parameters' bounds (data/params.toml) size the map tables and the
ruleset's `players_max` the compiled engine's policy tuple; no second constant."""
import pytest

from simcore.errors import UserError
from simcore.games.evo import maps, rules
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.registered import batch_policy


@pytest.mark.parametrize("cap", [3, 4, 5])
def test_the_policy_tuple_is_as_wide_as_the_rulesets_players_max(cap):
    rs = GAME_DATA.load(overrides=[f"players_max={cap}"])
    _, pol = rules.pack(rs, 2, [batch_policy("random", rs)] * 2, 0)
    assert len(pol) == cap


def test_a_player_count_above_the_rulesets_players_max_is_a_user_error():
    rs = GAME_DATA.load(overrides=["players_max=4"])
    with pytest.raises(UserError, match="2 to 4 players"):
        rules.check_players(rs, 5, [batch_policy("random", rs)] * 5)


def test_every_player_count_the_parameters_allow_has_a_map():
    rs = GAME_DATA.load()
    spec_min, spec_max = maps.MIN_PLAYERS, maps.MAX_PLAYERS
    assert spec_min <= rs["players_min"] <= rs["players_max"] <= spec_max
    for players in range(spec_min, spec_max + 1):
        assert len(maps.load_map(rs, players).names) > 0
