"""Constructed states through the batch engine, one phase at a time (docs/games/evo.md
sections 4, 9 and 11): the auction example, the initiative example, every die face against
every horn difference (with Large horn, Bony plates, Frenzied attack), Chameleon skin,
Killer babies, the replace rule at the cap, Egg thief, the survival example, Prescience
and the meteorite."""
import pytest

from simcore.errors import UserError
from simcore.games.evo import rules
from simcore.games.evo.maps import load_map
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.registered import batch_policy

RS = GAME_DATA.load()
MAP2 = load_map(RS, 2)
Z = MAP2.names            # 2-player zones: Z01.. (uid = index)


def seat(*dinos, mp=6, genes=(), events=()):
    return {"mp": mp, "genes": list(genes), "events": list(events), "dinosaurs": [Z[z] for z in dinos]}


def state(phase, seats, players=2, **over):
    st = rules.initial_state(RS, players, 1, 0)
    st.update(phase=phase, seats=seats, order=list(range(players)), **over)
    for x in seats:              # the cards in hand come out of the deck
        for card in x["events"]:
            st["event_deck"].remove(card)
    return st


def run(st, *choices, until="phase"):
    """Play with one script per seat: lists of (kind, option)."""
    pols = [batch_policy("script", RS, choices=[{"kind": k, "option": o} for k, o in c]) for c in choices]
    return rules.run_state(RS, st, pols, 1, 0, until)


def zones_of(st, s):
    return sorted(Z.index(n) for n in st["seats"][s]["dinosaurs"])


# ------------------------------------------------------------------ auction and initiative

def test_auction_example_outbid_seats_rebid_at_once_barred_from_the_lost_column():
    """Section 9: seat 2 bids (1, 2), is outbid by seat 0 (1, 3), re-bids (2, 1), is outbid
    by seat 1 (2, 2), goes back... to column 0 for 0; the option indices are the contract's."""
    m3 = load_map(RS, 3)
    seats = [{"mp": 6, "genes": [], "events": [], "dinosaurs": [m3.names[z] for z in m3.starts(s)]} for s in range(3)]
    st = state("mutation", seats, players=3, draws=["Horn", "Egg"])
    st["order"] = [2, 0, 1]
    deck_top = st["event_deck"][0]
    out, _ = run(st, [("bid", 7)], [("bid", 10)], [("bid", 9), ("bid", 8), ("bid", 0)])
    assert out["phase"] == "initiative" and out["lab"] == [2, 0, 1]
    assert [x["mp"] for x in out["seats"]] == [3, 4, 6]
    assert out["seats"][0]["genes"] == ["Horn"] and out["seats"][1]["genes"] == ["Egg"]
    assert out["seats"][2]["events"] == [deck_top]
    assert out["decisions"] == [1, 1, 3]
    # initiative step 1 (no count differences): the lab's column order
    nxt, _ = run(out, [], [], [])
    assert nxt["order"] == [2, 0, 1] and nxt["phase"] == "movement"


def test_initiative_example_stable_by_dinosaur_count():
    """Section 11: yellow (3) col 0, red (0) col 1, blue (1) col 2, green (2) col 3; counts
    5, 6, 5, 7 -> red, green, blue, yellow."""
    m4 = load_map(RS, 4)
    zs = iter(m4.names)
    seats = [{"mp": 6, "genes": [], "events": [], "dinosaurs": [next(zs) for _ in range(n)]} for n in (5, 6, 5, 7)]
    st = state("initiative", seats, players=4, lab=[3, 0, 1, 2])
    out, _ = run(st, [], [], [], [])
    assert out["order"] == [0, 2, 1, 3]


def test_adrenaline_rush_puts_its_holder_where_it_chooses():
    st = state("initiative", [seat(0, 1, 3), seat(29, genes=["Adrenaline rush"])], lab=[0, 1])
    out, _ = run(st, [], [("adrenaline", 0)])
    assert out["order"] == [1, 0]


# ------------------------------------------------------------------ combat

# Section 11's table: the faces an attack wins on, by the horn difference A - D.
WINS = {-1: {"claw"}, 0: {"claw", "claw_equal"}, 1: {"claw", "claw_equal", "claw_plus"},
        2: {"claw", "claw_equal", "claw_plus", "claw_plus_plus"}}
FACES = ("cross", "claw", "claw_equal", "claw_plus", "claw_plus_plus")
ATTACK = 6      # seat 0 on Z10 (uid 9): stop, 5 steps (Z04 Z05 Z09 Z15 Z16), then the attack on Z11


def _attack(face, att_genes=(), def_genes=(), frenzy=False):
    events = ["Frenzied attack"] if frenzy else []
    st = state("movement", [seat(9, genes=att_genes, events=events), seat(10, 28, 30, genes=def_genes)],
               dice=[face])
    first = [("event", 1)] if frenzy else []
    out, _ = run(st, first + [("move", ATTACK), ("move", 0)], [("move", 0)])
    return out


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("att,dfc,frenzy,diff", [
    ((), ("Horn",), False, -1), ((), (), False, 0), (("Horn",), (), False, 1), (("Horn", "Horn"), (), False, 2),
    (("Large horn",), ("Horn",), False, 1), ((), ("Bony plates",), False, -2), (("Horn",), ("Bony plates",), False, -1),
    ((), ("Horn",), True, 1), (("Large horn",), (), True, 4)])
def test_every_face_against_every_horn_difference(face, att, dfc, frenzy, diff):
    out = _attack(face, att, dfc, frenzy)
    won = face in WINS[max(-1, min(2, diff))]
    assert zones_of(out, 0) == ([10] if won else [9])
    assert zones_of(out, 1) == ([28, 30] if won else [10, 28, 30])


def test_chameleon_skin_escapes_to_an_empty_neighbour_instead_of_dying():
    st = state("movement", [seat(9), seat(10, 28, 30, genes=["Chameleon skin"])], dice=["claw"])
    out, _ = run(st, [("move", ATTACK), ("move", 0)], [("escape", 0), ("move", 0)])
    # Z11's empty neighbours ascending: Z05 (4) first (Z10 is the attacker's)
    assert zones_of(out, 0) == [10] and zones_of(out, 1) == [4, 28, 30]


def test_a_protected_clan_cannot_be_attacked():
    st = state("movement", [seat(9), seat(10, 28)], dice=["claw"])
    out, _ = run(st, [("move", 5), ("move", 0)], [("move", 0)])   # rows 1-5 are the steps; no attack row
    assert zones_of(out, 1) == [10, 28] and zones_of(out, 0) == [15]


# ------------------------------------------------------------------ birth

def _targets(owned, rng=1, occupied=(), removed=None):
    mine = [y for y in owned if y != removed]
    return [t for t in range(len(Z)) if t != removed and t not in owned and t not in occupied
            and min(MAP2.dist[t, y] for y in mine) <= rng]


@pytest.mark.parametrize("face,takes", [("claw", True), ("claw_plus", True), ("cross", False), ("claw_plus_plus", False)])
def test_killer_babies_roll_for_an_occupied_zone(face, takes):
    st = state("birth", [seat(8, 9, genes=["Killer babies"]), seat(10, 28, 30)], dice=[face])
    options = sorted(_targets([8, 9], occupied=[10, 28, 30]) + [10])
    out, _ = run(st, [("birth", 1 + options.index(10))], [("birth", 0)])
    assert zones_of(out, 0) == ([8, 9, 10] if takes else [8, 9])
    assert zones_of(out, 1) == ([28, 30] if takes else [10, 28, 30])


def test_replace_rule_at_the_cap_removes_first_then_places_elsewhere():
    owned = list(range(8))
    st = state("birth", [seat(*owned), seat(29, 30)])
    t = _targets(owned, occupied=[29, 30], removed=0)[0]
    out, _ = run(st, [("birth", 1)], [("birth", 0)])
    assert zones_of(out, 0) == sorted(owned[1:] + [t]) and len(zones_of(out, 0)) == 8


@pytest.mark.parametrize("before,asked", [(3, True), (2, False)])
def test_egg_thief_replaces_a_newborn_when_its_owner_has_at_least_4(before, asked):
    owned = [0, 1, 4][:before]
    st = state("birth", [seat(*owned), seat(29, 30, events=["Egg thief"])])
    t = _targets(owned, occupied=[29, 30])[0]
    thief = [("event", 1)] if asked else []
    out, _ = run(st, [("birth", 1)], thief + [("birth", 0)])
    assert (t in zones_of(out, 1)) == asked and (t in zones_of(out, 0)) != asked
    assert out["event_discard"] == (["Egg thief"] if asked else [])


def test_swarm_of_rats_stops_every_birth():
    st = state("birth", [seat(0, 1), seat(29, 30, events=["Swarm of rats"])])
    out, _ = run(st, [], [("event", 1)])
    assert zones_of(out, 0) == [0, 1] and zones_of(out, 1) == [29, 30]


# ------------------------------------------------------------------ survival and climate

@pytest.mark.parametrize("dinos,left", [((0, 5, 6, 3, 4, 9), 2), ((5, 6, 3, 9), 2), ((0, 1, 5), 3)])
def test_survival_example_removals_stop_at_the_floor(dinos, left):
    """Section 11: sector 1 (plains ideal, desert hot, hills cold, mountains deadly), thermo 1."""
    st = state("survival", [seat(*dinos, mp=0, genes=["Thermoregulation layers"]), seat(29, 30, mp=0)], sector=1)
    deaths = len(dinos) - left
    out, _ = run(st, [("die", 0)] * deaths, [])
    assert len(zones_of(out, 0)) == left
    assert [x["mp"] for x in out["seats"]] == [left, 2] and out["trajectory"][-1] == [left, 2]
    assert out["round"] == st["round"] + 1 and out["phase"] == "climate"


def test_geysers_save_cold_dinosaurs():
    st = state("survival", [seat(0, 3, 4, 8, mp=0, events=["Geysers"]), seat(29, 30, mp=0)], sector=1)
    out, _ = run(st, [("event", 1)], [])
    assert zones_of(out, 0) == [0, 3, 4, 8]


@pytest.mark.parametrize("play,shift_option,sector", [(0, None, 2), (1, 0, 0), (1, 3, 3)])
def test_prescience_replaces_the_tokens_shift(play, shift_option, sector):
    st = state("climate", [seat(0, 1, events=["Prescience"]), seat(29, 30)], sector=1,
               climate_pile=["Clockwise 1", "Meteorite"])
    choices = [("event", play)] + ([("shift", shift_option)] if play else [])
    out, _ = run(st, choices, [])
    assert out["sector"] == sector and out["climate_revealed"][-1] == "Clockwise 1"


def test_the_meteorite_ends_the_game_at_once():
    st = state("climate", [seat(0, 1, mp=9), seat(29, 30, 28, mp=9)], climate_pile=["Meteorite", "Still"],
               round=6, trajectory=[[1, 1]] * 5)
    out, outcome = run(st, [], [])
    assert out["ended"] and out["end_reason"] == "meteorite" and out["rounds"] == 5
    assert out["winners"] == [1] and outcome["winner"].tolist() == [False, True]
    assert outcome["rounds"] == 5 and out["climate_pile"] == ["Still"]


def test_a_script_that_runs_out_is_a_user_error():
    st = state("movement", [seat(9), seat(29, 30)])
    with pytest.raises(UserError, match="ran out"):
        run(st, [], [])


def test_bad_states_name_the_field():
    st = state("movement", [seat(9), seat(9)])
    with pytest.raises(UserError, match="two dinosaurs") as e:
        run(st, [], [])
    assert e.value.key == "state.seats[1].dinosaurs"
    st = state("mutation", [seat(9), seat(29)], draws=["Horn", "Horn"])
    with pytest.raises(UserError) as e:
        run(st, [], [])
    assert e.value.key == "draws"
