"""Knockouts in the contract's scenarios: the effect happens with active = 1 and
not with active = 0, on both engines, one scenario per effect word and per strike symbol.

Each scenario file of tests/scenarios/capybara/ is played as written (the base) and with one
row of cards.csv / strikes.csv edited to active = 0 (the knockout). The scripted choices stay
valid because a knocked-out effect is still declared and asked about (contract 17).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcore.games import get_game
from strategies.registry import Bot

HERE = Path(__file__).parents[1] / "scenarios" / "capybara"
GAME = get_game("capybara")

# scenario file -> (table, row name knocked out): every effect word and every symbol
KNOCKOUTS = {
    "capybara_and_capybarabanshchik_turn": ("cards", "Capybara"),                           # place
    "capybara_and_capybarabanshchik_turn#2": ("cards", "Capybarabanshchik"),                # place_others
    "capybanshchik_completes_a_strike_without_tie": ("cards", "Capybanshchik"),             # complete
    "capybarge_gathers_one_players_tokens_except_locked": ("cards", "Capybarge"),           # gather
    "capybarin_locks_a_strike_until_the_revolution": ("cards", "Capybarin"),                # lock
    "capybarbecue_copies_tokens_within_the_supply": ("cards", "Capybarbecue"),              # copy_tokens
    "copybara_copies_the_top_of_the_discard_pile": ("cards", "Copybara"),                   # copy_card
    "capybaranka_cancels_a_card": ("cards", "Capybaranka"),                                 # cancel
    "all_place_strike_takes_a_token_from_everyone": ("strikes", "Strike 4 all_place"),
    "banned_colour_strike_refuses_its_colour_and_gives_strikes": ("strikes", "Strike 2 banned_colour red"),
    "crown_complete_takes_the_strike_and_its_neighbours": ("strikes", "Strike 3 crown_complete"),
    "crown_double_resolves_the_first_card_twice": ("strikes", "Strike 2 crown_double"),
    "crown_peek_reorders_the_top_cards": ("strikes", "Strike 1 crown_peek"),
    "double_tokens_strike_doubles_a_capybara": ("strikes", "Strike 2 double_tokens"),
    "plus_one_strike_carries_a_strike_under_it": ("strikes", "Strike 3 plus_one"),
}


def play(sc, engine, edits):
    rs = GAME.data.load(sc.get("variant", "default"), overrides=sc.get("set"), edits=edits)
    P = len(sc["state"]["seats"])
    bots = [Bot("capybara", "script", options=(("choices", sc["choices"].get(str(s), [])),)) for s in range(P)]
    state, _ = GAME.run_state(engine, rs, sc["state"], bots, sc.get("seed", 0), sc.get("game", 0), sc["until"])
    return state


def knockout(table, name):
    return [{"table": table, "where": {"name": name}, "set": {"active": 0}}]


def tally(state):
    return [s.get("played", {}) for s in state["seats"]]


@pytest.mark.parametrize("case", sorted(KNOCKOUTS), ids=str)
def test_a_knocked_out_row_loses_its_effect_on_both_engines(case):
    table, name = KNOCKOUTS[case]
    sc = json.loads((HERE / f"{case.split('#')[0]}.json").read_text())
    base = {e: play(sc, e, None) for e in ("batch", "reference")}
    ko = {e: play(sc, e, knockout(table, name)) for e in ("batch", "reference")}
    assert base["batch"] == base["reference"]
    assert ko["batch"] == ko["reference"], "the engines disagree on the knockout"
    assert ko["batch"] != base["batch"], f"knocking out {name} changed nothing"
    # the cards are still played (tallied) as in the base game
    assert tally(ko["batch"]) == tally(base["batch"])


def test_a_knocked_out_card_is_still_played_and_discarded_but_places_nothing():
    sc = json.loads((HERE / "capybara_and_capybarabanshchik_turn.json").read_text())
    base = play(sc, "reference", None)
    ko = play(sc, "reference", knockout("cards", "Capybara"))
    assert base["slots"][2]["tokens"] == [0, 2, 1, 1]      # Capybara: pink +1; Capybarabanshchik: all but blue +1
    assert ko["slots"][2]["tokens"] == [0, 1, 1, 1]        # only the Capybarabanshchik's tokens
    assert ko["discard"] == base["discard"] == ["red Capybara", "red Capybarabanshchik"]


def test_a_knocked_out_capybaranka_is_played_as_an_answer_and_cancels_nothing():
    sc = json.loads((HERE / "capybaranka_cancels_a_card.json").read_text())
    for engine in ("batch", "reference"):
        base = play(sc, engine, None)
        ko = play(sc, engine, knockout("cards", "Capybaranka"))
        assert sum(sum(s["tokens"]) for s in base["slots"]) == 0           # cancelled: nothing placed
        assert ko["slots"][2]["tokens"] == [0, 1, 0, 0]                     # the Capybara stands
        assert ko["seats"][1]["hand"] == [] and ko["discard"] == base["discard"]   # yet it was played


def test_a_copybara_copying_a_knocked_out_card_copies_nothing():
    sc = json.loads((HERE / "copybara_copies_the_top_of_the_discard_pile.json").read_text())
    top = sc["state"]["discard"][-1].split(" ", 1)[1]
    for engine in ("batch", "reference"):
        base = play(sc, engine, None)
        ko = play(sc, engine, knockout("cards", top))
        assert base["slots"] != ko["slots"]
        assert [s["tokens"] for s in ko["slots"]] == [s["tokens"] for s in sc["state"]["slots"]]


def test_a_knocked_out_strike_keeps_its_fatigue():
    sc = json.loads((HERE / "plus_one_strike_carries_a_strike_under_it.json").read_text())
    for engine in ("batch", "reference"):
        base = play(sc, engine, None)
        ko = play(sc, engine, knockout("strikes", "Strike 3 plus_one"))
        # the refill still lays the knocked-out strike, with nothing under it
        assert [s["strike"] for s in ko["slots"]] == [s["strike"] for s in base["slots"]]
        assert any(s["under"] for s in base["slots"]) and not any(s["under"] for s in ko["slots"])
