"""Faction-strength control on Evolversi's seat win rates: unbiased against the raw rate, and narrower."""
from __future__ import annotations

import pytest

from experiments.variance import faction_control
from reports.measures.control import MIN_FACTOR
from simcore.errors import UserError
from simcore.games import get_game


def test_the_faction_control_agrees_with_the_raw_rate_and_is_used_only_where_it_saves_games():
    rs = get_game("evolversi").data.load("default")
    rows = faction_control(rs, games=4000, pilot=2000, seed=4)
    for r in rows:
        assert abs(r["adjusted"] - r["raw"]) < r["raw_half"]     # the same quantity
        assert r["factor"] > 0.98                                 # a pilot slope does not blow it up
        assert r["use"] == (r["factor"] >= MIN_FACTOR)


def test_a_game_without_factions_says_so():
    with pytest.raises(UserError, match="no factions"):
        faction_control(get_game("capybara").data.load("default"), games=10, pilot=10)
