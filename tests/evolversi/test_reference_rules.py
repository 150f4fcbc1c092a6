"""Scenario tests of the reference engine, one behaviour each, from small game states."""
import pytest

from simcore import rng
from simcore.errors import UserError
from simcore.games.evolversi.components import components
from evolversi_kit import new_game, play_one, ref_run_state as run_state
from simcore.games.evolversi.schema import GAME_DATA

RS = GAME_DATA.load()
ADVANCED = GAME_DATA.load("advanced-genetics")


def make_state(seats, **fields):
    """A phase-3 state of round 1 with turn order = seat order, unless fields say otherwise."""
    state = {"round": 1, "phase": "actions", "turn": 0, "order": list(range(len(seats))),
             "totem": 0, "pressure": [], "seats": seats}
    state.update(fields)
    return state


def mantis(**kw):
    return {"animal": "Mantis", "above": ["Artigli"], "below": ["Istinto"], **kw}


def orca(**kw):
    return {"animal": "Orca", "above": ["Branco"], "below": ["Istinto"], **kw}


# ---------------------------------------------------------------------- the end
def test_pawns_reaching_the_last_space_together_share_the_win():
    last = RS["track_length"]
    state = make_state([orca(position=last - 1, below=["Meteorite"]), mantis(position=last - 1)],
                       totem=1, event_deck=["Radiazione Adattativa", "Extinction"])
    choices = {1: [{"kind": "IGNORE_EVENT", "option": 0}]}
    after, outcome = run_state(RS, state, None, 1, 0, "end", choices)
    assert outcome["winner"] == [True, True] and outcome["end_reason"] == 0
    assert outcome["position"] == [last, last] and outcome["rounds"] == 1
    assert after["ended"] is True and after["winners"] == [0, 1] and after["end_reason"] == "track"
    # The game ends at once: no purchase, no discards; the Event went to its discards.
    assert after["seats"][0]["below"] == ["Meteorite"] and after["event_discard"] == ["Radiazione Adattativa"]


def test_the_round_cap_ends_the_game_stalled_without_winner():
    rs = GAME_DATA.load(overrides={"max_rounds": 2, "track_length": 200, "pressure_spaces": [150]})
    out = play_one(rs, 3, ["greedy"] * 3, 4, 0)
    assert out["end_reason"] == 1 and out["rounds"] == 2 and out["winner"] == [False] * 3


# ---------------------------------------------------------------------- tokens
def test_tokens_from_the_cards_above_stop_when_the_supply_runs_out():
    # The Mantis holds the other 35 tokens: 1 is left in the supply.
    state = make_state([orca(above=["Pelliccia"], below=["Scaglie"], tokens=0), mantis(tokens=35)], supply=1)
    choices = {0: [{"kind": "TARGET", "option": 0}, {"kind": "BUY", "option": 0}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    assert after["seats"][0]["tokens"] == 1 and after["supply"] == 0


def test_tokens_over_the_reserve_limit_go_back_to_the_supply():
    state = make_state([{"animal": "Panda", "tokens": 2, "above": ["Pelliccia"], "below": ["Occhiaie"]},
                        mantis()])
    after, _ = run_state(RS, state, None, 1, 0, "turn", {0: [{"kind": "BUY", "option": 0}]})
    assert after["seats"][0]["tokens"] == 3                     # 2 + 3 = 5, the Panda keeps 3
    assert after["supply"] == 36 - 2 - 3 + 2


def test_steal_up_to_takes_what_the_victim_has():
    state = make_state([orca(below=["Vampirismo"], tokens=0), mantis(tokens=1)])
    choices = {0: [{"kind": "TARGET", "option": 0}, {"kind": "BUY", "option": 0}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    assert [s["tokens"] for s in after["seats"]] == [1, 0]


# ---------------------------------------------------------------------- points
def test_losing_points_stops_at_space_zero():
    state = make_state([orca(position=0, below=["Meteorite"]), mantis(position=2)],
                       totem=1, event_deck=["Extinction"])
    choices = {0: [{"kind": "BUY", "option": 0}], 1: [{"kind": "IGNORE_EVENT", "option": 0}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    assert [s["position"] for s in after["seats"]] == [0, 1]


def test_the_totem_holder_may_ignore_an_event():
    state = make_state([orca(position=2, below=["Meteorite"]), mantis(position=2)],
                       totem=1, event_deck=["Extinction"])
    choices = {0: [{"kind": "BUY", "option": 0}], 1: [{"kind": "IGNORE_EVENT", "option": 1}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    assert [s["position"] for s in after["seats"]] == [1, 2]
    assert after["event_deck"] == [] and after["event_discard"] == ["Extinction"]


def test_an_empty_event_deck_is_rebuilt_from_its_discards():
    state = make_state([orca(below=["Meteorite"]), mantis()], totem=0, event_deck=[],
                       event_discard=["Abbondanza", "Extinction"])
    greedy = ["greedy", "greedy"]
    after, _ = run_state(RS, state, greedy, 9, 2, "turn")
    assert after["shuffles"]["events"] == 1
    assert len(after["event_deck"]) == 1 and len(after["event_discard"]) == 1


def test_a_discard_symbol_card_leaves_for_the_common_discards():
    state = make_state([orca(below=["Mutazione"]), mantis()])
    after, _ = run_state(RS, state, None, 1, 0, "turn", {0: [{"kind": "BUY", "option": 0}]})
    assert after["seats"][0]["position"] == 2 and after["seats"][0]["below"] == []
    assert after["evolution_discard"] == ["Mutazione"]
    rs_own = GAME_DATA.load(overrides={"discard_symbol_to": "own"})
    after, _ = run_state(rs_own, state, None, 1, 0, "turn", {0: [{"kind": "BUY", "option": 0}]})
    assert after["seats"][0]["discard"] == ["Mutazione"] and after["evolution_discard"] == []


def test_conditions_first_and_last_use_this_rounds_turn_order():
    state = make_state([orca(below=["Primo della Classe"]), mantis(below=["Ultimo Arrivato"])], order=[1, 0])
    after, _ = run_state(RS, state, ["greedy", "greedy"], 1, 0, "phase")
    assert [s["position"] for s in after["seats"]] == [0, 0]       # Orca is last, Mantis first
    state["order"] = [0, 1]
    after, _ = run_state(RS, state, ["greedy", "greedy"], 1, 0, "phase")
    assert [s["position"] for s in after["seats"]] == [1, 2]


# ---------------------------------------------------------------------- Pressure
def test_one_pressure_token_per_turn_a_sonar_reveal_blocks_the_one_under_the_pawn():
    # Sonar first reveals the token on space 2 (lowest ahead of the pawn on 1); Mutazione
    # then takes the pawn to space 3, whose token must stay face down this turn.
    state = make_state([orca(position=1, below=["Sonar", "Mutazione"]), mantis()], totem=1, pressure=[
        {"space": 2, "token": "totem_or_fury"}, {"space": 3, "token": "meteor"}])
    choices = {0: [{"kind": "ORDER", "option": 0}, {"kind": "TOTEM_OR_FURY", "option": 0},
                   {"kind": "BUY", "option": 0}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    assert after["seats"][0]["position"] == 3 and after["totem"] == 0
    assert [t["revealed"] for t in after["pressure"]] == [True, False]


def test_a_pawn_ending_its_turn_on_a_face_down_token_reveals_it():
    state = make_state([orca(position=5, below=["Pene a Stella"]), mantis()], totem=1,
                       pressure=[{"space": 6, "token": "totem_or_fury"}])
    choices = {0: [{"kind": "BUY", "option": 0}, {"kind": "TOTEM_OR_FURY", "option": 1}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    orca_after = after["seats"][0]
    assert orca_after["position"] == 6 and after["pressure"][0]["revealed"] is True
    assert orca_after["fury"] == 2 and after["totem"] == 1       # 1 symbol + 1 from the token


def test_the_swap_pressure_token_trades_cards_above_boards():
    state = make_state([orca(position=5, above=["Branco", "Ecolocazione"], below=["Pene a Stella"]),
                        mantis(above=["Artigli"])], pressure=[{"space": 6, "token": "swap_above"}])
    # options: (own 0, Mantis, 0), (own 1, Mantis, 0): swap Ecolocazione for Artigli
    choices = {0: [{"kind": "BUY", "option": 0}, {"kind": "SWAP_ABOVE", "option": 1}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    assert after["seats"][0]["above"] == ["Branco", "Artigli"]
    assert after["seats"][1]["above"] == ["Ecolocazione"]


# ---------------------------------------------------------------------- two players
def test_two_players_leave_out_the_sea_cucumber_and_the_3_plus_cards():
    comps = components(RS, 2)
    names = [a["name"] for a in RS.tables["animals"]]
    assert names.index("Sea Cucumber") not in comps.eligible_animals
    assert all(RS.tables["cards"][comps.card_row[u]]["min_players"] == 2 for u in comps.evolution)
    assert all(RS.tables["events"][r]["min_players"] == 2 for r in comps.event_row)
    with pytest.raises(UserError, match="Sea Cucumber is not in play with 2"):
        play_one(RS, 2, ["greedy", "greedy"], 1, 0, animals=["Sea Cucumber", None])
    three_plus = [i for i, c in enumerate(RS.tables["cards"]) if c["min_players"] > 2]
    for g in range(30):
        out = play_one(RS, 2, ["random", "greedy"], 3, g)
        assert names.index("Sea Cucumber") not in out["animal"]
        assert all(out["bought"][s][i] == 0 for s in range(2) for i in three_plus)


# ---------------------------------------------------------------------- Advanced Genetics
def test_a_reaction_fires_on_another_animals_turn_and_goes_to_its_owners_discards():
    state = make_state([
        orca(below=["Collera"]),                                    # 1 Fury symbol: F = 1
        mantis(below=["Umorismo", "Istinto"], fury=1),             # copies the Fury: +1
        {"animal": "Tardigrade", "above": ["Corazza"], "below": ["Contagio"], "revealed": True},
    ], market=["Ali", "Branchie", "Zanne", "Scaglie"])
    choices = {0: [{"kind": "BUY", "option": 0}],
               1: [{"kind": "REACT", "option": 1}],
               2: [{"kind": "REACT", "option": 0}]}   # after its own turn, it may still react
    after, _ = run_state(ADVANCED, state, None, 1, 0, "turn", choices)
    mantis_after, tardigrade = after["seats"][1], after["seats"][2]
    assert mantis_after["fury"] == 2 and mantis_after["below"] == ["Istinto"]
    assert mantis_after["discard"] == ["Umorismo"]
    assert tardigrade["below"] == ["Contagio"]                  # declined: it stays


def test_a_purchase_triggers_the_other_buy_reactions():
    state = make_state([orca(tokens=3), mantis(below=["Gelosia"], tokens=0)],
                       market=["Ali", "Branchie", "Zanne"])
    choices = {0: [{"kind": "BUY", "option": 1}], 1: [{"kind": "REACT", "option": 1}]}
    after, _ = run_state(ADVANCED, state, None, 1, 0, "turn", choices)
    assert after["seats"][1]["tokens"] == 2 and after["seats"][1]["discard"] == ["Gelosia"]
    assert after["seats"][0]["bought"] == {"Ali": 1}


def test_no_reaction_after_the_owners_turn_when_the_rule_says_so():
    rs = GAME_DATA.load("advanced-genetics", overrides={"reactions_after_own_turn": False})
    state = make_state([orca(below=["Collera"]), mantis(below=["Umorismo"], revealed=True)])
    after, _ = run_state(rs, state, None, 1, 0, "turn", {0: [{"kind": "BUY", "option": 0}]})
    assert after["seats"][1]["below"] == ["Umorismo"] and after["seats"][1]["fury"] == 0


# ---------------------------------------------------------------------- decisions and bots
def test_the_random_bot_draws_each_decision_from_its_round_seat_counter_address():
    state = {"round": 3, "phase": "play", "seats": [
        {"animal": "Orca", "hand": ["Istinto", "Onda", "Branco"]},
        {"animal": "Mantis", "hand": ["Istinto", "Artigli", "Preghiera"]}]}
    after, _ = run_state(RS, state, ["random", "random"], 77, 5, "phase")
    place = new_game(RS, 2, ["random", "random"], 77, 5).place_options(3)
    for s, seat in enumerate(state["seats"]):
        pick = place[int(rng.below(rng.key(77, 5, rng.BOT, 3, s, 0), len(place)))]
        assert after["seats"][s]["above"] == [seat["hand"][i] for i in pick]


def test_every_choice_point_is_asked_even_with_one_option():
    # Two players: the TARGET of Onda has one option, yet the script must answer it.
    state = make_state([orca(below=["Onda"]), mantis()])
    with pytest.raises(UserError, match="ran out of choices at a TARGET"):
        run_state(RS, state, None, 1, 0, "turn", {0: []})


def test_a_script_choice_of_the_wrong_kind_is_a_user_error():
    state = make_state([orca(below=["Onda"]), mantis()])
    with pytest.raises(UserError, match="gives a BUY choice, but the game asks a TARGET"):
        run_state(RS, state, None, 1, 0, "turn", {"0": [{"kind": "BUY", "option": 0}]})


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": ["greedy", "clever"]}, "unknown bot 'clever'"),
    ({"players": 6}, "players must be a whole number in 2..5"),
    ({"players": 1}, "players must be a whole number in 2..5"),
    ({"animals": ["Panda", "Koala"]}, "unknown animal 'Koala'"),
    ({"animals": ["Panda", "Panda"]}, "Panda is fixed for two seats"),
    ({"animals": ["Panda"]}, "animals lists 1 seats; players = 2"),
])
def test_bad_arguments_are_user_errors(kwargs, message):
    args = {"players": 2, "bots": ["greedy", "greedy"], **kwargs}
    if len(args["bots"]) != args["players"] and "bots" not in kwargs:
        args["bots"] = ["greedy"] * args["players"]
    with pytest.raises(UserError, match=message):
        play_one(RS, args["players"], args["bots"], 1, 0, animals=args.get("animals"))


def test_fixed_animals_are_kept_and_the_rest_are_drawn():
    out = play_one(RS, 3, ["greedy"] * 3, 1, 0, animals=[None, "Orca", None])
    names = [a["name"] for a in RS.tables["animals"]]
    assert out["animal"][1] == names.index("Orca") and len(set(out["animal"])) == 3
