"""Stable identities: a card's shuffle address depends on its design key and copy
index only (schema.shuffle_id), so removing one design leaves every other card's shuffle key
as it was and the remaining cards keep their relative order in every shuffle. (Uids stay the
dense positions of contract section 1, used to index arrays; shuffles never read them.)"""
from __future__ import annotations

import numpy as np

from simcore.games import get_game
from simcore.games.capybara.reference import K_DECK, K_STRIKES, Game
from simcore.games.capybara.state_io import components
from tests.games.kit import mixed_bots, outcome_row

GAME = get_game("capybara")
P, SEED = 4, 3

# one card design (every colour) and one strike design out of the box
NO_CAPYBARGE = dict(edits=[{"table": "cards", "where": {"name": "Capybarge"}, "set": {"copies": 0}}],
                    overrides={"cards_per_colour": 12})
NO_PEEK_STRIKE = dict(edits=[{"table": "strikes", "where": {"name": "Strike 5 crown_peek"}, "set": {"copies": 0}}],
                      overrides={"strike_cards": 39})


def addresses(rs):
    """(key, copy) -> shuffle address, cards and strikes."""
    c = components(rs)
    cards, strikes, seen = {}, {}, {}
    for u in range(c.n_capybara):
        k = c.card_key[u]
        seen[k] = seen.get(k, -1) + 1
        cards[(k, seen[k])] = c.card_sid[u]
    for u, name in enumerate(c.strike_name):
        seen[name] = seen.get(name, -1) + 1
        strikes[(name, seen[name])] = c.strike_sid[u]
    return cards, strikes


def test_removing_a_design_changes_no_other_cards_shuffle_address():
    full_cards, full_strikes = addresses(GAME.data.load())
    for removed, table in ((NO_CAPYBARGE, 0), (NO_PEEK_STRIKE, 1)):
        cut = addresses(GAME.data.load(**removed))
        full = (full_cards, full_strikes)[table]
        assert len(cut[table]) < len(full)
        assert all(full[k] == v for k, v in cut[table].items())
        assert cut[1 - table] == (full_cards, full_strikes)[1 - table]
    assert len(set(full_cards.values()) | set(full_strikes.values())) == len(full_cards) + len(full_strikes)


def shuffled_keys(rs, game, kind):
    g = Game(rs, P, [None] * P, SEED, game)
    c = g.comps
    if kind == K_DECK:
        return [c.card_key[u] for u in g.shuffle(range(c.n_capybara), c.card_sid, K_DECK)]
    return [c.strike_name[u] for u in g.shuffle(range(len(c.strike_name)), c.strike_sid, K_STRIKES)]


def test_the_remaining_cards_keep_their_relative_order_in_the_shuffles():
    full, cut_cards, cut_strikes = GAME.data.load(), GAME.data.load(**NO_CAPYBARGE), GAME.data.load(**NO_PEEK_STRIKE)
    for k in range(50):
        deck = shuffled_keys(full, k, K_DECK)
        assert [x for x in deck if not x.endswith("Capybarge")] == shuffled_keys(cut_cards, k, K_DECK)
        strikes = shuffled_keys(full, k, K_STRIKES)
        assert [x for x in strikes if x != "Strike 5 crown_peek"] == shuffled_keys(cut_strikes, k, K_STRIKES)


def test_the_strike_deck_after_setup_keeps_its_order_without_a_strike_design():
    """Default rules (no symbols): setup lays the strike deck's top m strikes; the rest is the deck."""
    full, cut, bots = GAME.data.load(), GAME.data.load(**NO_PEEK_STRIKE), mixed_bots("capybara", P)
    for k in range(20):
        a, b = (GAME.new_state(rs, P, bots, SEED, k) for rs in (full, cut))
        order = [s["strike"] for s in a["slots"]] + a["strike_deck"]
        assert [x for x in order if x != "Strike 5 crown_peek"] == [s["strike"] for s in b["slots"]] + b["strike_deck"]


def test_engines_agree_without_a_card_design():
    rs, bots = GAME.data.load(**NO_CAPYBARGE), mixed_bots("capybara", P)
    batch = GAME.play_batch(rs, P, bots, SEED, np.arange(4))
    for k in range(4):
        assert outcome_row(GAME.play_one(rs, P, bots, SEED, k)) == outcome_row(batch, k), f"game {k}"
