"""Rule scenarios on the batch engine through run_state (rulebook examples and edge rules)."""
import numpy as np
import pytest

from simcore.errors import UserError
from evolversi_kit import batch_policies, batch_run_state, play_batch
from simcore.games.evolversi import rules, setup, state_io
from simcore.games.evolversi.run import Run
from simcore.games.evolversi.schema import GAME_DATA
from simcore.games.evolversi.state import empty_state, tables_for

RS = GAME_DATA.load()


def _seat(animal, **kw):
    return {"animal": animal, **kw}


def _run(state, until, choices, bots=None, rs=RS):
    players = len(state["seats"])
    return batch_run_state(rs, state, bots, 1, 0, until, choices)


def test_fury_example_wraps_to_zero_and_scores_a_point():
    # Rulebook "Fury Example": Fury 0, +1 from a symbol, then +2 from Furia Cieca.
    state = {"round": 3, "phase": "actions", "turn": 0, "order": [0, 1], "totem": 1,
             "seats": [_seat("Panda", above=["Istinto"], below=["Furia Cieca", "Rapina"]),
                       _seat("Mantis", tokens=3, above=["Artigli"], below=["Preghiera", "Mimetismo"])]}
    choices = {0: [{"kind": "ORDER", "option": 0}, {"kind": "TARGET", "option": 0},
                   {"kind": "TARGET", "option": 0}, {"kind": "MORE", "option": 1}, {"kind": "BUY", "option": 0}]}
    after, outcome = _run(state, "turn", choices)
    panda, mantis = after["seats"]
    assert (panda["fury"], panda["position"]) == (0, 1)
    assert mantis["fury"] == 2                      # the other animal gains 2 as well
    assert (panda["tokens"], mantis["tokens"]) == (3, 1)   # 1 from Istinto, 2 stolen by Rapina
    assert after["turn"] == 1 and panda["revealed"] and outcome is None
    assert choices[0] == []                         # every scripted choice was used


def test_panda_turn_swap_lowers_a_cost_then_the_market_slides_right():
    # Rulebook "Turn Example": swap Pene a Stella (cost 4) with Occhi Dolci (cost 2), buy it for 2.
    state = {"round": 2, "phase": "actions", "turn": 0, "order": [0, 1, 2], "totem": 1,
             "market": ["Branchie", "Occhi Dolci", "Ali", "Pene a Stella", None, None],
             "seats": [_seat("Panda", above=["Vampirismo", "Falso Pollice"], below=["Pigrizia", "Morso"],
                             deck=["Istinto"]),
                       _seat("Mantis", above=["Artigli"], below=["Preghiera", "Mimetismo"]),
                       _seat("Orca", above=["Branco"], below=["Onda", "Ecolocazione"])]}
    choices = {0: [{"kind": "ORDER", "option": 0}, {"kind": "OPTIONAL", "option": 1},
                   {"kind": "SWAP_MARKET", "option": 4},      # pairs (0,1),(0,2),(0,3),(1,2),(1,3)
                   {"kind": "TARGET", "option": 0},
                   {"kind": "BUY", "option": 2}]}             # no purchase, slot 0, slot 1, slot 2
    after, _ = _run(state, "turn", choices)
    panda = after["seats"][0]
    assert after["market"] == ["Branchie", "Ali", "Occhi Dolci", None, None, None]
    assert panda["deck"] == ["Pene a Stella", "Istinto"]       # bought card on top of the deck
    assert panda["tokens"] == 1 and panda["fury"] == 1
    assert panda["bought"] == {"Pene a Stella": 1}
    assert after["supply"] == 36 - 1


def test_turn_order_ties_go_to_the_totem_holder_then_clockwise():
    # Rulebook "Turn Order Example": Panda 3, Sea Cucumber 3 (Totem), Mantis 4.
    state = {"round": 1, "phase": "order", "totem": 1,
             "seats": [_seat("Panda", above=["Falso Pollice", "Occhiaie"], below=["Istinto"]),
                       _seat("Sea Cucumber", above=["Zampe"], below=["Istinto", "Viscere"]),
                       _seat("Mantis", above=["Artigli"], below=["Istinto", "Preghiera"])]}
    after, _ = _run(state, "phase", {})
    assert after["order"] == [2, 1, 0]
    assert after["phase"] == "actions" and after["turn"] == 0


def test_tardigrade_power_fires_after_the_reshuffle():
    # Rulebook "Example of Power Activation": 2 cards in the deck, shuffle, draw, gain 3 tokens.
    state = {"round": 4, "phase": "play", "totem": 0,
             "seats": [_seat("Tardigrade", deck=["Corazza", "Istinto"],
                             discard=["Criptobiosi", "Sopravvivenza", "Zampette", "Istinto"]),
                       _seat("Mantis", deck=["Artigli", "Preghiera", "Istinto"])]}
    choices = {0: [{"kind": "PLACE", "option": 0}], 1: [{"kind": "PLACE", "option": 0}]}
    after, _ = _run(state, "phase", choices)
    tardigrade = after["seats"][0]
    assert tardigrade["tokens"] == 3 and tardigrade["shuffles"] == 1
    assert tardigrade["discard"] == [] and len(tardigrade["deck"]) == 3
    assert tardigrade["above"] == ["Corazza"] and tardigrade["below"][:1] == ["Istinto"]
    assert after["seats"][1]["tokens"] == 0 and after["seats"][1]["shuffles"] == 0
    assert after["phase"] == "order"


def test_two_pawns_reaching_the_star_together_share_the_win():
    state = {"round": 9, "phase": "actions", "turn": 0, "order": [0, 1], "totem": 1,
             "event_deck": ["Radiazione Adattativa"],
             "seats": [_seat("Panda", position=RS["track_length"] - 1, above=["Istinto"], below=["Meteorite"]),
                       _seat("Mantis", position=RS["track_length"] - 1, above=["Artigli"], below=["Preghiera"])]}
    choices = {1: [{"kind": "IGNORE_EVENT", "option": 0}]}
    after, outcome = _run(state, "end", choices)
    assert after["ended"] and after["end_reason"] == "track" and after["winners"] == [0, 1]
    assert outcome["winner"] == [True, True] and outcome["end_reason"] == 0 and outcome["rounds"] == 9
    assert after["event_discard"] == ["Radiazione Adattativa"]


def test_the_totem_holder_may_ignore_an_event():
    state = {"round": 2, "phase": "actions", "turn": 0, "order": [0, 1], "totem": 1,
             "event_deck": ["Extinction"],
             "seats": [_seat("Panda", position=5, above=["Istinto"], below=["Meteorite"]),
                       _seat("Mantis", position=5, above=["Artigli"], below=["Preghiera"])]}
    after, _ = _run(state, "turn", {1: [{"kind": "IGNORE_EVENT", "option": 1}],
                                    0: [{"kind": "BUY", "option": 0}]})
    assert [s["position"] for s in after["seats"]] == [4, 5]


def test_an_ignored_event_still_hits_the_targets_after_the_holder():
    # Extinction hits all clockwise from the actor: 0, 1 (the holder, ignores), 2.
    state = {"round": 2, "phase": "actions", "turn": 0, "order": [0, 1, 2], "totem": 1,
             "event_deck": ["Extinction"],
             "seats": [_seat("Panda", position=5, above=["Istinto"], below=["Meteorite"]),
                       _seat("Mantis", position=5, above=["Artigli"], below=["Preghiera"]),
                       _seat("Orca", position=5, above=["Branco"], below=["Onda"])]}
    after, _ = _run(state, "turn", {1: [{"kind": "IGNORE_EVENT", "option": 1}],
                                    0: [{"kind": "BUY", "option": 0}]})
    assert [s["position"] for s in after["seats"]] == [4, 5, 4]


@pytest.mark.parametrize("card,expected", [
    ("Parassita", [(3, 5), (2, 5), (0, 5)]),       # steal 1 from every other animal, then reserve 3
    ("Invidia", [(3, 5), (3, 5), (0, 5)]),         # steal from the animals before in turn order
    ("Disprezzo", [(3, 5), (2, 5), (1, 5)]),       # those after lose 1 token
    ("Epidemia", [(3, 5), (3, 4), (1, 4)]),        # every other animal loses 1 point
    ("Simbiosi", [(3, 5), (4, 5), (2, 5)]),        # every animal gains 1 token
])
def test_group_targets_follow_seats_and_turn_order(card, expected):
    state = {"round": 3, "phase": "actions", "turn": 1, "order": [2, 0, 1], "totem": 1,
             "seats": [_seat("Panda", tokens=2, position=5, above=["Istinto"], below=[card]),
                       _seat("Mantis", tokens=3, position=5, above=["Artigli"], below=["Preghiera"]),
                       _seat("Orca", tokens=1, position=5, above=["Branco"], below=["Onda"])]}
    after, _ = _run(state, "turn", {0: [{"kind": "BUY", "option": 0}]})
    assert [(s["tokens"], s["position"]) for s in after["seats"]] == expected


def test_fourth_card_flips_and_four_cards_are_played_from_the_next_round():
    state = {"round": 2, "phase": "actions", "turn": 0, "order": [0, 1], "totem": 0,
             "seats": [_seat("Mantis", position=RS["fourth_card_space"] - 1, above=["Istinto"],
                             below=["Primo della Classe"],
                             discard=["Artigli", "Preghiera", "Decapitazione", "Istinto"]),
                       _seat("Orca", above=["Ecolocazione"], below=["Branco"],
                             deck=["Onda", "Crudelta", "Istinto", "Istinto"])]}
    choices = {0: [{"kind": "BUY", "option": 0}, {"kind": "PLACE", "option": 0}],
               1: [{"kind": "BUY", "option": 0}, {"kind": "PLACE", "option": 0}]}
    after, _ = _run(state, "round", choices, bots=["script", "script"])
    assert after["fourth_card"] and after["fourth_round"] == 2     # Primo della Classe: first, +1 point
    assert after["round"] == 3 and after["phase"] == "play"
    after, _ = _run(after, "phase", choices)
    assert [len(s["above"]) + len(s["below"]) for s in after["seats"]] == [4, 4]


def test_a_scripted_choice_of_the_wrong_kind_is_a_user_error():
    state = {"round": 1, "phase": "play", "seats": [_seat("Panda", deck=["Istinto"] * 2 + ["Morso", "Occhiaie"]),
                                                     _seat("Orca", deck=["Branco"] * 1 + ["Onda", "Istinto"])]}
    with pytest.raises(UserError, match="PLACE"):
        _run(state, "phase", {0: [{"kind": "BUY", "option": 0}]})


def test_state_dump_and_load_continue_the_same_game():
    """A batch game dumped (uids) after setup and run on round by round through
    run_resolved ends exactly as play_batch plays it."""
    players, bots, seed = 4, ["random", "greedy", "random", "greedy"], 11
    rs = GAME_DATA.load("advanced-genetics")
    tb = tables_for(rs, players)
    whole = play_batch(rs, players, bots, seed, np.arange(12))
    for game in range(12):
        run = Run(rs, tb, empty_state(rs, tb, np.array([game])), batch_policies(rs, bots, players), seed)
        setup.setup(run, [None] * players)
        state, outcome = state_io.dump_batch_state(run), None
        while outcome is None:
            state, outcome = rules.run_resolved(rs, tb, state, batch_policies(rs, bots, players), seed, game, "round")
        for k, v in outcome.items():
            np.testing.assert_array_equal(np.asarray(v), whole[k][game], err_msg=f"game {game} {k}")
