"""The board facts docs/games/evo.md section 17 rests on (strategies.evo.seat_bias): which seats'
starting areas a symmetry of the board (adjacency, terrain, coast) carries onto each other."""
import pytest

from simcore.games.evo.maps import load_map
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.seat_bias import _automorphism

RS = GAME_DATA.load()


def _same_position(players, a, b) -> bool:
    m = load_map(RS, players)
    sa, sb = m.starts(a), m.starts(b)
    return any(_automorphism(m, {sa[0]: sb[i], sa[1]: sb[1 - i]}) for i in (0, 1))


@pytest.mark.parametrize("players", [2, 3])
def test_every_seat_starts_in_the_same_position_on_the_two_and_three_player_boards(players):
    assert all(_same_position(players, 0, s) for s in range(players))


def test_on_the_four_player_board_only_opposite_seats_start_alike():
    assert _same_position(4, 0, 2) and _same_position(4, 1, 3)
    assert not _same_position(4, 0, 1) and not _same_position(4, 0, 3)


def test_a_symmetry_keeps_terrain_and_adjacency():
    m = load_map(RS, 2)
    f = _automorphism(m, {m.starts(0)[0]: m.starts(1)[0], m.starts(0)[1]: m.starts(1)[1]}) or \
        _automorphism(m, {m.starts(0)[0]: m.starts(1)[1], m.starts(0)[1]: m.starts(1)[0]})
    assert f and sorted(f.values()) == list(range(len(m.names)))
    assert all(m.terrain[z] == m.terrain[w] for z, w in f.items())
    assert all(m.adjacent[a, b] == m.adjacent[f[a], f[b]] for a in f for b in f)
