"""Planted seat edge (seat versions of the flow metrics): with `totem_start = "seat0"`
seat 0 starts every game with the Totem, which breaks its Strength ties; the per-seat runaway
rate (reports/measures/flow_groups.py) must find seat 0 the halfway leader who wins more often than the
other seats, with an interval excluding equality, and the printed rules (a random Totem holder)
must flag no seat. Four greedy players, the same game indices under both."""
import numpy as np
import pytest

from reports.measures import flow_groups
from simcore.games import get_game
from strategies.registry import make_bots

GAMES = 12000


def _seat_table(**overrides):
    game = get_game("evolversi")
    rs = game.data.load(overrides=[f"{k}={v}" for k, v in overrides.items()])
    out = game.play_batch(rs, 4, make_bots("evolversi", "greedy", 4), 17, np.arange(GAMES), trajectories=True)
    st, rounds, winner = (np.asarray(out[k], t) for k, t in (("standing", float), ("rounds", np.int64),
                                                              ("winner", bool)))
    return flow_groups.table(st, rounds, winner, flow_groups.seat_groups(GAMES, 4))


@pytest.fixture(scope="module")
def printed():
    return _seat_table()


def test_seat_0_holding_the_totem_is_the_runaway_leader_more_often(printed):
    edge = _seat_table(totem_start="seat0")
    seat0 = edge.row(0, named=True)
    assert seat0["runaway_flag"] and seat0["runaway_diff_lo"] > 0, (seat0["runaway_diff"], seat0["runaway_diff_lo"])
    # and more often than seat 0 under the printed rules (independent samples: Wilson intervals apart)
    assert seat0["runaway_lo"] > printed.row(0, named=True)["runaway"]


def test_the_printed_rules_flag_no_seat(printed):
    assert not printed["runaway_flag"].any() and not printed["comeback_flag"].any()
