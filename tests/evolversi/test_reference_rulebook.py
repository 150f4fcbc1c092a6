"""The rulebook's worked examples, replayed on the reference engine from small states."""
from simcore.games.evolversi.components import components, shuffle_by_ident
from evolversi_kit import ref_run_state as run_state
from simcore.games.evolversi.schema import GAME_DATA

RS = GAME_DATA.load()


def make_state(seats, **fields):
    """A phase-3 state of round 1 with turn order = seat order, unless fields say otherwise."""
    state = {"round": 1, "phase": "actions", "turn": 0, "order": list(range(len(seats))),
             "totem": 0, "pressure": [], "seats": seats}
    state.update(fields)
    return state


def test_turn_order_example_strength_then_totem_holder_wins_the_tie():
    # Panda: Falso Pollice + Occhiaie = 3; Sea Cucumber (Totem): Zampe = 3; Mantis: Artigli = 4.
    state = make_state([
        {"animal": "Panda", "above": ["Falso Pollice", "Occhiaie"], "below": ["Istinto"]},
        {"animal": "Sea Cucumber", "above": ["Zampe"], "below": ["Istinto", "Viscere"]},
        {"animal": "Mantis", "above": ["Artigli"], "below": ["Istinto", "Preghiera"]},
    ], phase="order", totem=1)
    after, outcome = run_state(RS, state, None, 1, 0, "phase")
    assert after["order"] == [2, 1, 0]          # Mantis, Sea Cucumber, Panda
    assert after["phase"] == "actions" and after["turn"] == 0 and outcome is None


def test_fury_example_symbol_then_effect_passes_the_top_and_scores_a_point():
    # Fury 0; Rapina's symbol: Fury 1; Furia Cieca +2: past space 2, back to 0, +1 point.
    state = make_state([
        {"animal": "Panda", "above": ["Occhiaie"], "below": ["Furia Cieca", "Rapina"]},
        {"animal": "Mantis", "above": ["Artigli"], "below": ["Istinto"]},
    ], totem=1)
    choices = {0: [{"kind": "ORDER", "option": 0}, {"kind": "TARGET", "option": 0},
                   {"kind": "TARGET", "option": 0}, {"kind": "MORE", "option": 1}, {"kind": "BUY", "option": 0}]}
    after, _ = run_state(RS, state, None, 1, 0, "turn", choices)
    panda, mantis = after["seats"]
    assert (panda["fury"], panda["position"]) == (0, 1)
    assert (mantis["fury"], mantis["position"]) == (2, 0)


def test_panda_turn_example_swap_steal_from_nobody_buy_cheapened_card_slide_right():
    state = make_state([
        {"animal": "Panda", "tokens": 0, "deck": ["Istinto"],
         "above": ["Pelliccia"], "below": ["Pigrizia", "Morso"]},   # Pelliccia shows 3 tokens
        {"animal": "Mantis", "tokens": 0, "above": ["Artigli"], "below": ["Istinto"]},
        {"animal": "Tardigrade", "tokens": 0, "above": ["Corazza"], "below": ["Istinto"]},
    ], totem=2, market=["Ali", "Occhi Dolci", "Coda Prensile", "Pene a Stella"])
    choices = {0: [{"kind": "ORDER", "option": 0},          # Pigrizia, then Morso
                   {"kind": "OPTIONAL", "option": 1},       # it may swap: it does
                   {"kind": "SWAP_MARKET", "option": 4},    # pairs (0,1) (0,2) (0,3) (1,2) (1,3): slots 1 and 3
                   {"kind": "TARGET", "option": 0},         # must steal 1: the Mantis has none
                   {"kind": "BUY", "option": 2}]}           # options: none, slot 0, slot 1 (cost 2), slot 2
    log = []
    after, outcome = run_state(RS, state, None, 1, 0, "turn", choices, log)
    panda = after["seats"][0]
    assert panda["tokens"] == 1                              # 3 taken, 2 paid, under the limit of 3
    assert panda["fury"] == 1                                # Pigrizia's Fury symbol
    assert panda["deck"] == ["Pene a Stella", "Istinto"]     # on top of its deck
    assert panda["bought"] == {"Pene a Stella": 1}
    assert after["market"] == ["Ali", "Coda Prensile", "Occhi Dolci", None, None, None]
    assert after["supply"] == 36 - 3 + 2
    assert after["turn"] == 1 and outcome is None
    assert any("buys Pene a Stella from slot 1 for 2" in line for line in log)


def test_tardigrade_power_example_reshuffle_draws_the_missing_card_then_gains_3_tokens():
    discards = ["Istinto", "Istinto", "Criptobiosi", "Zampette"]
    state = {"round": 2, "phase": "play", "totem": 0, "seats": [
        {"animal": "Tardigrade", "tokens": 0, "deck": ["Corazza", "Sopravvivenza"], "discard": discards},
        {"animal": "Mantis", "tokens": 0, "deck": ["Istinto", "Istinto", "Artigli", "Preghiera"]},
    ]}
    choices = {0: [{"kind": "PLACE", "option": 0}], 1: [{"kind": "PLACE", "option": 0}]}
    after, _ = run_state(RS, state, None, 5, 3, "phase", choices)
    tardigrade = after["seats"][0]
    assert tardigrade["tokens"] == 3 and after["supply"] == 36 - 3
    assert tardigrade["shuffles"] == 1 and tardigrade["discard"] == []
    hand = tardigrade["above"] + tardigrade["below"]      # PLACE option 0: first card above
    assert hand[:2] == ["Corazza", "Sopravvivenza"]
    # The missing card is the top of the new deck: the discards shuffled at (KIND 6, seat 0, n 1),
    # each keyed by its identity (components.ident: animal, name, copy).
    comps = components(RS, 2)
    names = {u: RS.tables["cards"][comps.card_row[u]]["name"] for u in comps.starting[3]}
    discard_uids = [u for u in comps.starting[3] if names[u] in ("Istinto", "Criptobiosi", "Zampette")]
    new_deck = shuffle_by_ident(5, 3, discard_uids, comps.card_ident, 6, 0, 1)
    assert hand[2] == names[new_deck[0]]
    assert tardigrade["deck"] == [names[u] for u in new_deck[1:]]


def test_fourth_card_flips_when_a_pawn_reaches_its_space_and_hands_grow_next_round():
    state = make_state([
        {"animal": "Mantis", "position": 3, "above": ["Artigli"], "below": ["Pene a Stella"],
         "deck": ["Istinto", "Istinto", "Preghiera", "Mimetismo"]},
        {"animal": "Orca", "above": ["Branco"], "below": ["Istinto"],
         "deck": ["Istinto", "Onda", "Crudelta", "Ecolocazione"]},
    ], round=2, market=["Ali", "Branchie", "Zanne"], evolution_deck=["Scaglie", "Sonar", "Collera"])
    after, _ = run_state(RS, state, ["greedy", "greedy"], 1, 0, "turn")
    assert after["seats"][0]["position"] == 4
    assert after["fourth_card"] is True and after["fourth_round"] == 2
    after, _ = run_state(RS, after, ["greedy", "greedy"], 1, 0, "round")
    assert (after["round"], after["phase"]) == (3, "play")
    after, _ = run_state(RS, after, ["greedy", "greedy"], 1, 0, "phase")
    assert [len(s["above"]) + len(s["below"]) for s in after["seats"]] == [4, 4]
    assert all(len(s["above"]) == 2 for s in after["seats"])   # 4 cards: 2 above, 2 below


def test_fourth_card_flipped_by_a_power_during_the_draw_waits_for_the_next_round():
    # The Platypus reshuffles, its Power (here +1 point) takes it to space 4: the Mantis,
    # drawing after it in the same phase 1, still draws 3 cards.
    rs = GAME_DATA.load(edits=[{"table": "animals", "where": {"name": "Platypus"},
                                "set": {"power": "gain_points", "amount": 1}}])
    state = {"round": 1, "phase": "play", "seats": [
        {"animal": "Platypus", "position": 3, "deck": [], "discard": ["Becco", "Veleno", "Uova", "Istinto"]},
        {"animal": "Mantis", "deck": ["Istinto", "Istinto", "Artigli", "Preghiera"]},
    ]}
    after, _ = run_state(rs, state, ["greedy", "greedy"], 2, 0, "phase")
    assert after["fourth_card"] is True and after["fourth_round"] == 1
    assert [len(s["above"]) + len(s["below"]) for s in after["seats"]] == [3, 3]
