"""Strike symbols as a whole are switched by `p.symbols` (the symbols in force). Dropping one
from the list keeps the game paired with the base: the same strike deck and capybara deck
in the same order (the shuffles never read symbols), the same games until a strike with that
symbol is drawn."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games import get_game
from simcore.games.capybara.schema import SYMBOLS
from tests.games.kit import mixed_bots

from .test_knockout_pairing import identical

GAME = get_game("capybara")
P, SEED = 4, 5


def without(symbol):
    return GAME.data.load("additional-rules", overrides={"symbols": [s for s in SYMBOLS if s != symbol]})


def strike_order(state):
    """Every strike in the order setup drew it: each slot's strike and under-cards, then the deck."""
    drawn = [n for sl in state["slots"] for n in ([sl["strike"]] + sl.get("under", [])) if n]
    return drawn + state["strike_deck"]


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_dropping_a_symbol_keeps_the_strike_deck_and_the_deal(symbol):
    base_rs, rs, bots = GAME.data.load("additional-rules"), without(symbol), mixed_bots("capybara", P)
    for k in range(40):
        a, b = (GAME.new_state(r, P, bots, SEED, k) for r in (base_rs, rs))
        assert strike_order(a) == strike_order(b)
        assert a["deck"] == b["deck"] and [s["hand"] for s in a["seats"]] == [s["hand"] for s in b["seats"]]


def test_dropping_a_symbol_replays_the_games_where_no_strike_with_it_was_drawn():
    """200 games, mixed bots: every game whose base run left all the symbol's strikes in the
    strike deck was identical without the symbol (measured 100%); each symbol changes some game."""
    base_rs, bots, games = GAME.data.load("additional-rules"), mixed_bots("capybara", P), np.arange(200)
    base = GAME.play_batch(base_rs, P, bots, SEED, games)
    left = []
    for k in games:
        end, _ = GAME.run_state("batch", base_rs, GAME.new_state(base_rs, P, bots, SEED, int(k)), bots, SEED,
                                int(k), "end")
        left.append(set(end["strike_deck"]))
    for symbol in SYMBOLS:
        names = {r["name"] for r in base_rs.tables["strikes"] if r["symbol"] == symbol}
        same = identical(base, GAME.play_batch(without(symbol), P, bots, SEED, games))
        unused = np.array([names <= s for s in left])
        assert unused.sum() >= 5 and same[unused].all(), symbol   # banned_colour: 4 strikes, 8 games
        assert not same.all(), f"dropping {symbol} changed no game"
