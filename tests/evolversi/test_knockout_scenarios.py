"""Knockouts (contract 5.5), one scenario per effect kind, on both engines: with
active = 1 the effect happens; with active = 0 the same turn asks the same decisions (every
scripted choice is used, in the same order) and the effect's change does not happen, while
what is printed on the card (Fury symbols, the discard symbol) still counts."""
import copy
from functools import lru_cache

import pytest

from evolversi_kit import batch_run_state, ref_run_state
from simcore.games.evolversi.schema import GAME_DATA

RUN = {"batch": batch_run_state, "reference": ref_run_state}
B = {"kind": "BUY", "option": 0}      # the actor buys nothing (every turn asks BUY)


@lru_cache(maxsize=None)
def ruleset(table, name, active, variant="default"):
    return GAME_DATA.load(variant, edits=[{"table": table, "where": {"name": name}, "set": {"active": active}}])


def turn(below, others=(), **fields):
    """Seat 0 (Panda) acts first with `below`; the other seats have no cards (3 seats)."""
    seats = [{"animal": "Panda", "position": 3, "fury": 1, "tokens": 1, "below": list(below)},
             {"animal": "Mantis", "position": 4, "fury": 2, "tokens": 3},
             {"animal": "Orca", "position": 5, "fury": 1, "tokens": 2}]
    for s, extra in others:
        seats[s].update(extra)
    state = {"round": 2, "phase": "actions", "turn": 0, "order": [0, 1, 2], "totem": 1,
             "market": ["Ali", "Occhi Dolci", "Coda Prensile", "Pene a Stella", None, None], "pressure": [],
             "event_deck": ["Deriva Genetica"], "seats": seats}
    state.update(fields)
    return state


def pos(s, seat):
    return s["seats"][seat]["position"]


def tokens(s, seat):
    return s["seats"][seat]["tokens"]


def fury(s, seat):
    return s["seats"][seat]["fury"]


# name: (table, entity, variant, state, {seat: choices}, until, what the effect changes: state -> value)
SCENARIOS = {
    "gain_points": ("cards", "Mutazione", "default", turn(["Mutazione"]), {0: [B]}, "turn",
                    lambda s: pos(s, 0)),
    "lose_points": ("cards", "Epidemia", "default", turn(["Epidemia"]), {0: [B]}, "turn",
                    lambda s: (pos(s, 1), pos(s, 2))),
    "gain_tokens": ("cards", "Occhi Dolci", "default", turn(["Occhi Dolci"]), {0: [B]}, "turn",
                    lambda s: tokens(s, 0)),
    "lose_tokens": ("cards", "Disprezzo", "default", turn(["Disprezzo"]), {0: [B]}, "turn",
                    lambda s: (tokens(s, 1), tokens(s, 2))),
    "steal_tokens_and_more": ("cards", "Rapina", "default", turn(["Rapina"]),
                              {0: [{"kind": "TARGET", "option": 0}, {"kind": "MORE", "option": 1}, B]}, "turn",
                              lambda s: (tokens(s, 0), tokens(s, 1))),
    "gain_fury": ("cards", "Branchie", "default", turn(["Branchie"]), {0: [B]}, "turn", lambda s: fury(s, 0)),
    "self_and_other": ("cards", "Furia Cieca", "default", turn(["Furia Cieca"]),
                       {0: [{"kind": "TARGET", "option": 1}, B]}, "turn", lambda s: (fury(s, 0), fury(s, 2))),
    "lose_fury": ("cards", "Scaglie", "default", turn(["Scaglie"]), {0: [{"kind": "TARGET", "option": 0}, B]},
                  "turn", lambda s: fury(s, 1)),
    "swap_market": ("cards", "Scambio", "default", turn(["Scambio"]),
                    {0: [{"kind": "OPTIONAL", "option": 1}, {"kind": "SWAP_MARKET", "option": 0}, B]}, "turn",
                    lambda s: s["market"]),
    # BUY option 3 = slot 2 in both arms (cost 3, or 1 after the discount): the price paid differs
    "discount": ("cards", "Sconto", "default", turn(["Sconto"], others=[(0, {"tokens": 3})]),
                 {0: [{"kind": "BUY", "option": 3}]}, "turn", lambda s: tokens(s, 0)),
    "reveal_pressure": ("cards", "Sonar", "default",
                        turn(["Sonar"], pressure=[{"space": 6, "token": "meteor", "revealed": False}]),
                        {0: [B]}, "turn", lambda s: (s["pressure"][0]["revealed"], pos(s, 0))),
    "draw_event": ("cards", "Meteorite", "default", turn(["Meteorite"]), {0: [B]}, "turn",
                   lambda s: (pos(s, 0), s["event_deck"])),
    "take_totem": ("cards", "Totemismo", "default", turn(["Totemismo"]), {0: [B]}, "turn", lambda s: s["totem"]),
    "starting_card": ("cards", "Morso", "default", turn(["Morso"]), {0: [{"kind": "TARGET", "option": 0}, B]},
                      "turn", lambda s: (tokens(s, 0), tokens(s, 1))),
    # reactions: seat 1 answers seat 0's Fury symbol (Collera) or purchase (Ali from slot 0)
    "reaction_copy_fury": ("cards", "Umorismo", "advanced-genetics",
                           turn(["Collera"], others=[(1, {"below": ["Umorismo"]})]),
                           {0: [B], 1: [{"kind": "REACT", "option": 1}]}, "turn", lambda s: fury(s, 1)),
    "reaction_other_buy": ("cards", "Gelosia", "advanced-genetics",
                           turn(["Pelliccia"], others=[(1, {"below": ["Gelosia"]})]),
                           {0: [{"kind": "BUY", "option": 1}], 1: [{"kind": "REACT", "option": 1}]}, "turn",
                           lambda s: tokens(s, 1)),
    "event": ("events", "Deriva Genetica", "default", turn(["Meteorite"]), {0: [B]}, "turn", lambda s: pos(s, 0)),
    "power": ("animals", "Tardigrade", "default",
              {"round": 2, "phase": "play", "totem": 0, "seats": [
                  {"animal": "Tardigrade", "tokens": 0, "deck": ["Corazza", "Sopravvivenza"],
                   "discard": ["Istinto", "Istinto", "Criptobiosi", "Zampette"]},
                  {"animal": "Mantis", "tokens": 0, "deck": ["Istinto", "Istinto", "Artigli", "Preghiera"]}]},
              {0: [{"kind": "PLACE", "option": 0}], 1: [{"kind": "PLACE", "option": 0}]}, "phase",
              lambda s: tokens(s, 0)),
    "pressure_meteor": ("pressure", "Meteor", "default",
                        turn(["Pelliccia"], pressure=[{"space": 3, "token": "meteor", "revealed": False}]),
                        {0: [B]}, "turn", lambda s: (pos(s, 0), s["event_deck"])),
    "pressure_totem_or_fury": ("pressure", "Totem or Fury", "default",
                               turn(["Pelliccia"], pressure=[{"space": 3, "token": "totem_or_fury", "revealed": False}]),
                               {0: [B, {"kind": "TOTEM_OR_FURY", "option": 0}]}, "turn", lambda s: s["totem"]),
    "pressure_swap_above": ("pressure", "Swap", "default",
                            turn(["Pelliccia"], others=[(0, {"above": ["Ali"]}), (1, {"above": ["Artigli"]})],
                                 pressure=[{"space": 3, "token": "swap_above", "revealed": False}]),
                            {0: [B, {"kind": "SWAP_ABOVE", "option": 0}]}, "turn",
                            lambda s: (s["seats"][0]["above"], s["seats"][1]["above"])),
}


def play(engine, case, active):
    table, name, variant, state, choices, until, _ = SCENARIOS[case]
    rs = ruleset(table, name, active, variant)
    left = copy.deepcopy(choices)
    players = len(state["seats"])
    after, _ = RUN[engine](rs, copy.deepcopy(state), ["script"] * players, 7, 0, until, left)
    assert all(items == [] for items in left.values()), f"scripted choices left unused: {left}"
    return after


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("case", list(SCENARIOS))
def test_the_effect_happens_when_active_and_not_when_knocked_out_with_the_same_decisions(engine, case):
    watch = SCENARIOS[case][-1]
    before = SCENARIOS[case][3]
    on, off = play(engine, case, 1), play(engine, case, 0)
    assert watch(on) != watch(before), "the active effect changed nothing: the scenario does not test it"
    if case == "discount":       # the purchase happens in both arms; only its price differs
        assert watch(off) == watch(on) - 2
    else:
        assert watch(off) == watch(before)


@pytest.mark.parametrize("case", list(SCENARIOS))
def test_both_engines_agree_on_the_knocked_out_turn(case):
    assert play("batch", case, 0) == play("reference", case, 0)


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_knocked_out_card_still_counts_its_fury_symbols_and_leaves_by_its_discard_symbol(engine):
    # Epidemia: 1 Fury symbol, discard symbol (to the common discards), others lose 1 point
    on, off = play(engine, "lose_points", 1), play(engine, "lose_points", 0)
    for after in (on, off):
        assert fury(after, 0) == 2
        assert after["seats"][0]["below"] == [] and after["evolution_discard"] == ["Epidemia"]


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_knocked_out_reaction_card_still_goes_to_its_owners_discards(engine):
    off = play(engine, "reaction_copy_fury", 0)
    assert off["seats"][1]["below"] == [] and off["seats"][1]["discard"] == ["Umorismo"]
