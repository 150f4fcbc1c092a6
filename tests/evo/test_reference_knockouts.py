"""Knockouts (contract 10) on the reference engine: an inactive gene is held and counted
but adds nothing to its holder's traits; an inactive event card is never offered; the
decisions that exist only through an effect disappear with it."""
import json

import pytest

from simcore.games.evo import reference
from simcore.games.evo.reference_comps import Components, traits
from simcore.games.evo.schema import GAME_DATA

from .reference_kit import load, policies, ruleset


def knocked(table, name):
    return GAME_DATA.load(edits=[{"table": table, "where": {"name": name}, "set": {"active": 0}}])


GENES = [r["name"] for r in GAME_DATA.load().tables["genes"]]


@pytest.mark.parametrize("name", GENES)
def test_an_inactive_gene_adds_nothing_to_its_holders_traits(name):
    rs, ko = ruleset(), knocked("genes", name)
    base = traits(rs, Components.build(rs), {})
    assert traits(rs, Components.build(rs), {name: 1}) != base          # the printed effect acts
    assert traits(ko, Components.build(ko), {name: 1}) == base          # knocked out: nothing


def run(rs, doc, choices=None):
    choices = choices if choices is not None else {int(k): v for k, v in doc.get("choices", {}).items()}
    pols = policies(rs, len(doc["state"]["seats"]), doc.get("bots", "script"), choices)
    state, _ = reference.run_state(rs, json.loads(json.dumps(doc["state"])), pols, 0, 0, doc.get("until", "phase"))
    assert all(not getattr(p, "items", None) for p in pols)
    return state


def test_an_inactive_frenzied_attack_card_is_never_offered_and_stays_in_hand():
    doc = load("frenzied_attack_two_more_horns_for_every_attack_of_the_phase.json")
    after = run(knocked("events", "Frenzied attack"), doc,
                {0: [{"kind": "move", "option": 1}, {"kind": "move", "option": 0}], 1: [{"kind": "move", "option": 0}]})
    assert after["seats"][0]["events"] == ["Frenzied attack"] and after["event_discard"] == []
    assert "Z04" not in after["seats"][0]["dinosaurs"]      # claw++ at 0 vs 0 fails without the card


def test_sixth_sense_knocked_out_the_greedy_does_not_look_ahead():
    doc = load("sixth_sense_greedy_keeps_the_dinosaur_the_next_token_favours.json")
    assert run(ruleset(), doc)["seats"][0]["dinosaurs"] == ["Z01", "Z04"]
    assert run(knocked("genes", "Sixth sense"), doc)["seats"][0]["dinosaurs"] == ["Z01", "Z06"]


def test_killer_babies_knocked_out_offer_no_occupied_target():
    doc = load("killer_babies_birth_on_an_opponent_with_a_die_roll.json")
    seen = []

    class Spy:
        def choose(self, d, view):
            seen.append(list(d.options))
            return 0
    rs = knocked("genes", "Killer babies")
    reference.run_state(rs, doc["state"], [Spy(), Spy()], 0, 0, "phase")
    occupied = {"Z04", "Z05", "Z06", "Z11"}
    names = reference.Game(rs, 2, [Spy(), Spy()], 0, 0).map.names
    assert seen and all(names[t] not in occupied for opts in seen for t in opts[1:])


def test_adrenaline_knocked_out_asks_nothing():
    doc = load("adrenaline_rush_takes_any_place_on_the_initiative_track.json")
    after = run(knocked("genes", "Adrenaline rush"), doc, {})
    assert after["order"] == [1, 2, 0] and after["decisions"] == [0, 0, 0]


def test_a_knocked_out_gene_is_still_auctioned_and_tallied():
    doc = load("auction_outbid_seat_rebids_at_once_barred_from_the_lost_column.json")
    after = run(knocked("genes", "Horn"), doc)
    assert after["seats"][0]["genes"] == ["Horn"] and after["seats"][0]["mp"] == 3
