"""Hypothesis properties of Evolversi, checked on both engines from arbitrary game states:
tokens and cards are conserved, no count goes negative, Fury stays in range, both engines
reach the same state, and every game ends."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evolversi_kit import batch_run_state, play_batch, play_one, ref_run_state
from simcore.games.evolversi.components import components
from simcore.games.evolversi.schema import GAME_DATA
from simcore.games.evolversi.state_io import card_name, event_name

RULESETS = {v: GAME_DATA.load(v) for v in ("default", "advanced-genetics")}


@st.composite
def game_states(draw):
    variant = draw(st.sampled_from(sorted(RULESETS)))
    rs = RULESETS[variant]
    players = draw(st.integers(2, 5))
    comps = components(rs, players)
    animals = draw(st.permutations(list(comps.eligible_animals)))[:players]
    names = [a["name"] for a in rs.tables["animals"]]
    evo = list(draw(st.permutations(list(comps.evolution))))
    cuts = sorted(draw(st.lists(st.integers(0, len(evo)), min_size=players * 2 + 2, max_size=players * 2 + 2)))
    pieces = [evo[a:b] for a, b in zip([0] + cuts, cuts + [len(evo)])]
    m = min(players + rs["market_extra"], rs["market_spaces"])
    market_pool = pieces[-1]
    market = [card_name(rs, comps, u) for u in market_pool[:m]]
    market += [None] * (m - len(market))
    tokens = [draw(st.integers(0, 6)) for _ in range(players)]
    seats = []
    for s, a in enumerate(animals):
        own = list(draw(st.permutations(list(comps.starting[a])))) + pieces[2 * s] + pieces[2 * s + 1]
        split = draw(st.integers(0, len(own)))
        seats.append({
            "animal": names[a], "position": draw(st.integers(0, rs["track_length"] - 1)),
            "fury": draw(st.integers(0, rs["fury_max"])), "tokens": tokens[s],
            "deck": [card_name(rs, comps, u) for u in own[:split]],
            "discard": [card_name(rs, comps, u) for u in own[split:]],
        })
    # A pawn already on or past the 4th Card space has flipped the token (a reachable state).
    past_fourth = any(seat["position"] >= rs["fourth_card_space"] for seat in seats)
    events = list(draw(st.permutations(list(range(len(comps.event_row))))))
    e_split = draw(st.integers(0, len(events)))
    spaces = draw(st.lists(st.sampled_from(list(rs["pressure_spaces"])), unique=True, max_size=6))
    kinds = list(comps.pressure_kind)
    state = {
        "round": draw(st.integers(1, 4)), "phase": "play", "totem": draw(st.integers(0, players - 1)),
        "fourth_card": draw(st.booleans()) or past_fourth, "supply": max(0, rs["token_supply"] - sum(tokens)),
        "market": market,
        "evolution_deck": [card_name(rs, comps, u) for u in pieces[2 * players]],
        "evolution_discard": [card_name(rs, comps, u) for u in pieces[2 * players + 1] + market_pool[m:]],
        "event_deck": [event_name(rs, comps, u) for u in events[:e_split]],
        "event_discard": [event_name(rs, comps, u) for u in events[e_split:]],
        "pressure": [{"space": sp, "token": kinds[i], "revealed": draw(st.booleans())}
                     for i, sp in enumerate(spaces[:len(kinds)])],
        "seats": seats,
    }
    return variant, state, draw(st.integers(0, 2**32)), draw(st.sampled_from(["random", "greedy"]))


def all_cards(state):
    c = Counter(n for n in state["market"] if n is not None)
    c.update(state["evolution_deck"])
    c.update(state["evolution_discard"])
    for seat in state["seats"]:
        for pile in ("deck", "discard", "hand", "above", "below"):
            c.update(seat.get(pile, []))
    return c


def check_invariants(rs, before, after):
    total = rs["token_supply"]
    held = before["supply"] + sum(s["tokens"] for s in before["seats"])
    assert after["supply"] + sum(s["tokens"] for s in after["seats"]) == held <= total
    assert after["supply"] >= 0 and all(s["tokens"] >= 0 for s in after["seats"])
    assert all(0 <= s["fury"] <= rs["fury_max"] for s in after["seats"])
    assert all(0 <= s["position"] <= rs["track_length"] for s in after["seats"])
    assert all_cards(after) == all_cards(before), "a card appeared or vanished"
    assert Counter(after["event_deck"] + after["event_discard"]) == Counter(before["event_deck"] + before["event_discard"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_states())
def test_a_round_from_any_state_conserves_everything_and_both_engines_agree(case):
    variant, state, seed, bot = case
    rs = RULESETS[variant]
    bots = [bot] * len(state["seats"])
    ref_state, ref_out = ref_run_state(rs, state, bots, seed, 0, "round")
    bat_state, bat_out = batch_run_state(rs, state, bots, seed, 0, "round")
    check_invariants(rs, state, ref_state)
    check_invariants(rs, state, bat_state)
    assert ref_state == bat_state
    assert (ref_out is None) == (bat_out is None)


@pytest.mark.parametrize("players", [2, 5])
def test_every_game_ends_and_a_round_cap_reports_stalled(players):
    rs = GAME_DATA.load(overrides={"track_length": 200, "pressure_spaces": [3], "max_rounds": 7})
    out = play_batch(rs, players, ["random"] * players, 1, np.arange(300))
    assert (out["end_reason"] == 1).all() and (out["rounds"] == 7).all() and not out["winner"].any()
    ref = play_one(rs, players, ["random"] * players, 1, 0)
    assert ref["end_reason"] == 1 and ref["rounds"] == 7


def test_default_games_end_on_the_track():
    rs = GAME_DATA.load()
    out = play_batch(rs, 4, ["greedy"] * 4, 2, np.arange(2000))
    assert (out["end_reason"] == 0).mean() > 0.99
    assert (out["winner"].sum(axis=1)[out["end_reason"] == 0] >= 1).all()
