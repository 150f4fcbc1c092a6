"""Scenario tests: each of the 17 traits and the tricky interactions, on both engines.

Every scenario is built once as a reference-engine position (evolution_kit.Table) and run
on the reference engine and on the batch engine (state.from_games / to_game), and both
results are checked against values worked out by hand from the rules text in
the project's rules notes (Evolution section). Where the printings differ
(Carnivore may/must, Defensive Herding, Fertile, Foraging, Hard Shell +3/+4, Pack Hunting)
a scenario runs in `default` (first printing) and `second-printing` with each one's
expected outcome.

Seats: 0 is the player whose feeding turn it is (the attacker), 1 the other player.
board(g, seat) lists (food, body, pop, fat) per species, left to right.
"""
from __future__ import annotations

import pytest

from evolution_kit import (ENGINES, Eager, ScriptBot, Table, attacks, board, end_feeding,
                           feeding, feeding_turn, ledger, options, play_round, reveal, score,
                           winners)
from simcore.games.evolution.traits import TRAIT_ID

NORTH_STAR = ("default", "second-printing")
both_engines = pytest.mark.parametrize("engine", ENGINES)
both_printings = pytest.mark.parametrize("variant", NORTH_STAR)


def attack(a, d, q=1):
    """The plain attack option: species a of seat 0 attacks species d of seat q."""
    return ("attack", a, q, d, -1)


def on_seat(found: set, q: int = 1) -> set:
    """Only the attacks aimed at seat q (carnivores may also attack their own species)."""
    return {x for x in found if x[1] == q}


def check_ledger(g) -> None:
    """Food tokens outside the Food Bank are exactly WH + species food + fat + bags."""
    assert g.bank_out == ledger(g)


# ================================================================ Carnivore

@both_engines
@both_printings
def test_carnivore_never_takes_plant_food_from_the_watering_hole(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=2, pop=2), t.sp(pop=1)], [t.sp(body=1, pop=1)]], wh=5)
    opts = options(engine, g, 0)
    assert ("veg", 0) not in opts           # the hungry carnivore has no plant option
    assert ("veg", 1) in opts
    assert attack(0, 0) in opts


@both_engines
@both_printings
def test_carnivore_attacks_only_smaller_species_and_eats_their_body_size(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=5, pop=2)],
                [t.sp(body=4, pop=3), t.sp(body=5, pop=1), t.sp(body=6, pop=1)]], wh=2)
    assert on_seat(attacks(engine, g)) == {(0, 1, 0)}      # body 4 < 5; 5 and 6 are not
    after = feeding_turn(engine, g, 0, attack(0, 0))
    # defender loses 1 population; meat = its body 4, but the carnivore can eat only 2
    assert board(after, 0) == [(2, 5, 2, 0)]
    assert board(after, 1)[0] == (0, 4, 2, 0)
    assert after.wh == 2                    # meat comes from the Food Bank
    assert after.bank_out == g.bank_out + 2
    check_ledger(after)


@both_engines
@both_printings
def test_carnivore_gets_no_plant_food_from_long_neck_or_cooperation(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("cooperation", "long-neck", body=1, pop=2), t.sp("carnivore", body=3, pop=2)],
                [t.sp("carnivore", "long-neck", body=2, pop=2)]], wh=4)
    after = reveal(engine, g)
    # Long Neck: 1 plant food from the bank; Cooperation would pass plant food right,
    # but a carnivore never eats plant food; the Long Neck carnivore takes nothing
    assert board(after, 0) == [(1, 1, 2, 0), (0, 3, 2, 0)]
    assert board(after, 1) == [(0, 2, 2, 0)]
    assert after.wh == 4 and after.bank_out == g.bank_out + 1
    fed = feeding_turn(engine, after, 0, ("veg", 0))
    assert board(fed, 0) == [(2, 1, 2, 0), (0, 3, 2, 0)]
    assert fed.wh == 3
    check_ledger(fed)


@both_engines
@pytest.mark.parametrize("variant,may_forgo,prey_after,carnivore_food", [
    ("default", True, [(0, 1, 2, 0)], 0),      # first printing: the carnivore MAY attack
    ("second-printing", False, [], 2),          # second printing: it MUST attack while able
])
def test_carnivore_may_attack_in_first_printing_must_attack_in_second(
        engine, variant, may_forgo, prey_after, carnivore_food):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2)], [t.sp(body=1, pop=2)]], wh=0)
    assert (("forgo",) in options(engine, g, 0)) == may_forgo
    # a player who stops feeding whenever the rules let it
    after = feeding(engine, g, lambda seat: ScriptBot())
    assert board(after, 1) == prey_after        # second printing: attacked twice, extinct
    assert [s.food for s in after.players[0].species] == [carnivore_food]
    check_ledger(after)


# ================================================================ Ambush / Warning Call

@both_engines
@both_printings
def test_warning_call_protects_both_neighbours_but_not_itself(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=3)],
                [t.sp(body=1), t.sp("warning-call", body=1), t.sp(body=1), t.sp(body=1)]])
    assert on_seat(attacks(engine, g)) == {(0, 1, 1), (0, 1, 3)}


@both_engines
@both_printings
def test_ambush_attacks_through_warning_call(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "ambush", body=3, pop=3)],
                [t.sp(body=1), t.sp("warning-call", body=1), t.sp(body=1), t.sp(body=1)]])
    assert on_seat(attacks(engine, g)) == {(0, 1, 0), (0, 1, 1), (0, 1, 2), (0, 1, 3)}


# ================================================================ Burrowing, Climbing

@both_engines
@both_printings
@pytest.mark.parametrize("food,safe", [(2, True), (1, False), (0, False)])
def test_burrowing_is_safe_only_while_its_food_equals_its_population(engine, variant, food, safe):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2)], [t.sp("burrowing", body=1, pop=2, food=food)]])
    assert on_seat(attacks(engine, g)) == (set() if safe else {(0, 1, 0)})


@both_engines
@both_printings
def test_climbing_needs_a_climbing_carnivore(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2), t.sp("carnivore", "climbing", body=3, pop=2)],
                [t.sp("climbing", body=1, pop=2)]])
    assert on_seat(attacks(engine, g)) == {(1, 1, 0)}


# ================================================================ Cooperation

@both_engines
@both_printings
def test_cooperation_chain_feeds_three_species_from_the_watering_hole(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("cooperation", pop=2), t.sp("cooperation", pop=2), t.sp(pop=2)]], wh=5)
    after = feeding_turn(engine, g, 0, ("veg", 0))
    assert [s.food for s in after.players[0].species] == [1, 1, 1]
    assert after.wh == 2
    check_ledger(after)


@both_engines
@both_printings
def test_cooperation_chain_stops_when_the_watering_hole_is_empty(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("cooperation", pop=2), t.sp("cooperation", pop=2), t.sp(pop=2)]], wh=2)
    after = feeding_turn(engine, g, 0, ("veg", 0))
    assert [s.food for s in after.players[0].species] == [1, 1, 0]
    assert after.wh == 0


@both_engines
@both_printings
def test_cooperation_chain_breaks_at_a_species_that_takes_nothing(engine, variant):
    # "whenever it takes food": the fed middle species takes nothing, so passes nothing on
    t = Table(variant)
    g = t.game([[t.sp("cooperation", pop=2), t.sp("cooperation", pop=1, food=1), t.sp(pop=2)]],
               wh=5)
    after = feeding_turn(engine, g, 0, ("veg", 0))
    assert [s.food for s in after.players[0].species] == [1, 1, 0]
    assert after.wh == 4


@both_engines
@both_printings
def test_cooperation_passes_meat_from_the_bank_down_the_chain(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "cooperation", body=3, pop=2), t.sp("cooperation", pop=2),
                 t.sp(pop=2)],
                [t.sp(body=2, pop=2)]], wh=3)
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert [s.food for s in after.players[0].species] == [2, 1, 1]
    assert board(after, 1) == [(0, 2, 1, 0)]
    assert after.wh == 3                        # the same source: the Food Bank
    assert after.bank_out == g.bank_out + 4
    check_ledger(after)


# ================================================================ Defensive Herding

@both_engines
@both_printings
@pytest.mark.parametrize("att_pop,legal", [(3, False), (4, True)])
def test_defensive_herding_needs_a_larger_population(engine, variant, att_pop, legal):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=att_pop)], [t.sp("herding", body=1, pop=3)]])
    assert on_seat(attacks(engine, g)) == ({(0, 1, 0)} if legal else set())


@both_engines
@pytest.mark.parametrize("variant,legal", [("default", True), ("second-printing", False)])
def test_defensive_herding_second_printing_also_needs_a_larger_body(engine, variant, legal):
    # Pack Hunting makes the attack big enough (2+3 = 5, or pop 4 + body 2 = 6 > 2), the
    # population is larger (4 > 3), but the body is not (2 = 2): second printing forbids it.
    # (Without Pack Hunting an attacker is always larger than its prey, so the herd's
    # body clause can only have an effect against the printed body size, as read here.)
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "pack-hunting", body=2, pop=4)], [t.sp("herding", body=2, pop=3)]])
    assert on_seat(attacks(engine, g)) == ({(0, 1, 0)} if legal else set())


# ================================================================ Fat Tissue

@both_engines
@both_printings
def test_fat_tissue_stores_food_once_fed_up_to_its_body_size(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("fat-tissue", body=3, pop=2, food=2, fat=2)], [t.sp(pop=1)]], wh=4)
    assert ("veg", 0) in options(engine, g, 0)          # fed, but may store 1 more
    after = feeding_turn(engine, g, 0, ("veg", 0))
    assert board(after, 0) == [(2, 3, 2, 3)]
    assert after.wh == 3
    assert ("veg", 0) not in options(engine, after, 0)  # fat = body: full
    check_ledger(after)


@both_engines
@both_printings
def test_fat_tissue_fills_hunger_before_storing(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("fat-tissue", "foraging", body=4, pop=2, food=1)]], wh=5)
    after = feeding_turn(engine, g, 0, ("veg", 0))      # takes 2: one eaten, one stored
    assert board(after, 0) == [(2, 4, 2, 1)]
    assert after.wh == 3


@both_engines
@both_printings
def test_fat_tissue_moves_stored_food_onto_the_species_at_the_reveal(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("fat-tissue", body=5, pop=3, fat=4), t.sp("fat-tissue", body=2, pop=3, fat=2)]],
               wh=1)
    after = reveal(engine, g)
    assert board(after, 0) == [(3, 5, 3, 1), (2, 2, 3, 0)]   # up to its population
    assert after.wh == 1 and after.bank_out == g.bank_out     # no token enters or leaves
    check_ledger(after)


@both_engines
@both_printings
def test_fertile_grows_before_fat_tissue_feeds_at_the_reveal(engine, variant):
    # reveal order fertile, long-neck, fat-tissue: the new animal is fed from the fat too
    t = Table(variant)
    # (food on the Watering Hole before the reveal: the second printing's Fertile grows too)
    g = t.game([[t.sp("fertile", "fat-tissue", body=5, pop=3, fat=4)]], wh=1)
    after = reveal(engine, g, foods=[2])
    assert board(after, 0) == [(4, 5, 4, 0)]
    assert after.wh == 3


@both_engines
@both_printings
def test_fat_tissue_carnivore_stores_the_meat_it_cannot_eat(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "fat-tissue", body=5, pop=1)], [t.sp(body=4, pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == [(1, 5, 1, 3)]            # meat 4: 1 eaten, 3 stored
    assert after.bank_out == g.bank_out + 4


@both_engines
@both_printings
def test_stored_fat_does_not_score_and_stays_through_the_end_of_feeding(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("fat-tissue", body=4, pop=3, food=2, fat=2)]], wh=3, bags=[5])
    after = end_feeding(engine, g)
    assert board(after, 0) == [(0, 4, 2, 2)]
    assert after.players[0].bag == 7
    assert score(engine, after) == [7 + 2 + 1]         # bag + population + 1 trait card
    check_ledger(after)


# ================================================================ Fertile

@both_engines
@pytest.mark.parametrize("variant,wh,foods,pop_after", [
    ("default", 0, [0, 0], 3),              # first printing: +1 whenever revealed
    ("second-printing", 0, [0, 0], 2),      # second: only with food on the Watering Hole
    ("default", 0, [1, 0], 3),
    # second printing: "before the food cards are revealed ... if there is Food on the
    # Watering Hole": the food cards' food arrives after Fertile has looked
    ("second-printing", 0, [1, 0], 2),
    ("second-printing", 1, [0], 3),
    ("default", 2, [-3], 3),                # -3 takes the Watering Hole down to 0
    ("second-printing", 2, [-3], 3),        # ... after Fertile saw 2 food there
])
def test_fertile_adds_one_population_at_the_reveal(engine, variant, wh, foods, pop_after):
    t = Table(variant)
    g = t.game([[t.sp("fertile", body=1, pop=2)]], wh=wh)
    after = reveal(engine, g, foods)
    assert board(after, 0) == [(0, 1, pop_after, 0)]


@both_engines
@pytest.mark.parametrize("variant,cap", [("default", 7), ("second-printing", 6)])
def test_fertile_stops_at_the_population_cap(engine, variant, cap):
    t = Table(variant)
    g = t.game([[t.sp("fertile", body=1, pop=cap)]], wh=3)
    assert board(reveal(engine, g), 0) == [(0, 1, cap, 0)]


# ================================================================ Foraging

@both_engines
@both_printings
@pytest.mark.parametrize("pop,wh,food_after,wh_after", [
    (3, 5, 2, 3),       # two plant food instead of one
    (3, 1, 1, 0),       # only what is there
    (1, 5, 1, 4),       # only what it can eat
])
def test_foraging_takes_two_plant_food(engine, variant, pop, wh, food_after, wh_after):
    t = Table(variant)
    g = t.game([[t.sp("foraging", pop=pop)]], wh=wh)
    after = feeding_turn(engine, g, 0, ("veg", 0))
    assert board(after, 0) == [(food_after, 1, pop, 0)]
    assert after.wh == wh_after


@both_engines
@pytest.mark.parametrize("variant,meat_eaten", [
    ("default", 1),             # first printing: Foraging is about plant food only
    ("second-printing", 2),     # second: 1 extra from the same source, meat too
])
def test_foraging_carnivore_takes_extra_meat_only_in_second_printing(engine, variant, meat_eaten):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "foraging", body=3, pop=4)], [t.sp(body=1, pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == [(meat_eaten, 3, 4, 0)]
    assert after.bank_out == g.bank_out + meat_eaten


@both_engines
@both_printings
def test_foraging_long_neck_takes_two_from_the_bank_at_the_reveal(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("foraging", "long-neck", pop=3)]], wh=2)
    after = reveal(engine, g)
    assert board(after, 0) == [(2, 1, 3, 0)]
    assert after.wh == 2 and after.bank_out == g.bank_out + 2


# ================================================================ Hard Shell

@both_engines
@pytest.mark.parametrize("variant,legal_attackers", [
    # defender body 1: needs body > 1 + 3 (first printing) or > 1 + 4 (second printing)
    ("default", {1, 2}),            # body 5 = exactly the needed size, body 6; not 4
    ("second-printing", {2}),       # body 6 = exactly the needed size; not 5
])
def test_hard_shell_at_the_boundary(engine, variant, legal_attackers):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=b, pop=2) for b in (4, 5, 6)],
                [t.sp("hard-shell", body=1, pop=2)]])
    assert on_seat(attacks(engine, g)) == {(a, 1, 0) for a in legal_attackers}


@both_engines
@both_printings
def test_hard_shell_meat_is_the_printed_body_size(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=6, pop=5)], [t.sp("hard-shell", body=1, pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == [(1, 6, 5, 0)]
    assert board(after, 1) == [(0, 1, 1, 0)]


# ================================================================ Horns

@both_engines
@both_printings
def test_horns_cost_the_attacker_one_population_before_it_eats(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=4, pop=3)], [t.sp("horns", body=3, pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    # pop 3 -> 2 first, so of the 3 meat it can eat only 2
    assert board(after, 0) == [(2, 4, 2, 0)]
    assert board(after, 1) == [(0, 3, 1, 0)]
    assert after.bank_out == g.bank_out + 2


@both_engines
@both_printings
def test_horns_kill_the_attackers_last_animal(engine, variant):
    t = Table(variant)
    att = t.sp("carnivore", "climbing", body=4, pop=1)
    carn, climb = att.traits
    g = t.game([[att, t.sp(body=1, pop=2)], [t.sp("horns", body=2, pop=2)]],
               deck=["long-neck", "fertile", "burrowing"])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == [(0, 1, 2, 0)]          # the attacker is extinct, ate nothing
    assert board(after, 1) == [(0, 2, 1, 0)]          # the defender still lost one
    # extinction: its 2 trait cards are discarded, its owner draws 2 cards from the top
    assert sorted(after.players[0].hand) == sorted(g.deck[:2])
    assert after.deck == g.deck[2:]
    assert sorted(after.discard) == sorted([carn, climb])
    assert after.bank_out == g.bank_out
    check_ledger(after)


# ================================================================ Intelligence

@both_engines
@both_printings
def test_intelligence_lets_a_carnivore_negate_one_defence(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "intelligence", body=3, pop=2)], [t.sp("climbing", body=1, pop=2)]],
               hands={0: ["horns"]})
    card = g.players[0].hand[0]
    assert on_seat(attacks(engine, g)) == set()
    assert on_seat(attacks(engine, g, intelligence=True)) == {(0, 1, 0, "climbing")}
    after = feeding_turn(engine, g, 0, ("attack", 0, 1, 0, TRAIT_ID["climbing"]))
    assert board(after, 0) == [(1, 3, 2, 0)]
    assert board(after, 1) == [(0, 1, 1, 0)]
    assert after.players[0].hand == [] and card in after.discard     # the card is the cost


@both_engines
@both_printings
def test_intelligence_needs_a_card_to_discard(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "intelligence", body=3, pop=2), t.sp("intelligence", pop=2)],
                [t.sp("climbing", body=1, pop=2)]], wh=0)
    assert attacks(engine, g, intelligence=True) == set()
    assert ("intel", 1) not in options(engine, g, 0)


@both_engines
@both_printings
def test_intelligence_negates_only_one_defence(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "intelligence", body=3, pop=2)],
                [t.sp("climbing", "hard-shell", body=1, pop=2)]], hands={0: ["horns"]})
    assert on_seat(attacks(engine, g)) == set()
    assert on_seat(attacks(engine, g, intelligence=True)) == set()


@both_engines
@both_printings
def test_intelligence_negating_hard_shell_leaves_the_printed_size(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "intelligence", body=3, pop=2)],
                [t.sp("hard-shell", body=2, pop=2), t.sp("hard-shell", body=3, pop=2)]],
               hands={0: ["horns"]})
    # body 3 > 2 once the shell is ignored; body 3 is not > 3 even then
    assert on_seat(attacks(engine, g, intelligence=True)) == {(0, 1, 0, "hard-shell")}


@both_engines
@both_printings
def test_intelligence_negates_a_neighbours_warning_call(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "intelligence", body=3, pop=2)],
                [t.sp(body=1, pop=2), t.sp("warning-call", body=1, pop=2)]], hands={0: ["horns"]})
    assert on_seat(attacks(engine, g)) == {(0, 1, 1)}
    assert on_seat(attacks(engine, g, intelligence=True)) == {(0, 1, 0, "warning-call")}


@both_engines
@both_printings
def test_intelligence_feeds_a_non_carnivore_two_from_the_bank(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("intelligence", pop=3)]], wh=1, hands={0: ["horns", "climbing"]})
    after = feeding_turn(engine, g, 0, ("intel", 0))
    assert board(after, 0) == [(2, 1, 3, 0)]
    assert after.wh == 1                                    # not from the Watering Hole
    assert after.bank_out == g.bank_out + 2
    # one card of the hand is the cost
    assert len(after.players[0].hand) == 1 and len(after.discard) == 1
    assert sorted(after.players[0].hand + after.discard) == g.players[0].hand
    check_ledger(after)


# ================================================================ Long Neck

@both_engines
@both_printings
def test_long_neck_takes_one_plant_food_from_the_bank_at_the_reveal(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("long-neck", pop=2), t.sp("long-neck", pop=1, food=1)]], wh=3)
    after = reveal(engine, g)
    assert board(after, 0) == [(1, 1, 2, 0), (1, 1, 1, 0)]   # the fed one takes nothing
    assert after.wh == 3
    assert after.bank_out == g.bank_out + 1


# ================================================================ Pack Hunting

@both_engines
@pytest.mark.parametrize("variant,legal_attackers", [
    ("default", {0}),           # body + 3: species 0 attacks at 5, species 1 at 4
    ("second-printing", {1}),   # body + population: species 0 at 3, species 1 at 6
])
def test_pack_hunting_attack_size(engine, variant, legal_attackers):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "pack-hunting", body=2, pop=1),
                 t.sp("carnivore", "pack-hunting", body=1, pop=5)],
                [t.sp(body=4, pop=2)]])
    assert on_seat(attacks(engine, g)) == {(a, 1, 0) for a in legal_attackers}


@both_engines
@both_printings
def test_pack_hunting_meat_is_the_defenders_body(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "pack-hunting", body=2, pop=5)], [t.sp(body=1, pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == [(1, 2, 5, 0)]


# ================================================================ Scavenger

@both_engines
@both_printings
def test_scavenger_takes_one_meat_when_a_carnivore_attacks(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2), t.sp("scavenger", pop=3)],
                [t.sp(body=1, pop=3), t.sp("scavenger", pop=2), t.sp("scavenger", pop=1, food=1)]],
               wh=4)
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert [s.food for s in after.players[0].species] == [1, 1]
    assert [s.food for s in after.players[1].species] == [0, 1, 1]   # the fed one takes none
    assert after.wh == 4 and after.bank_out == g.bank_out + 3
    check_ledger(after)


@both_engines
@both_printings
def test_scavenger_on_an_attacked_scavenger_still_scavenges(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2)], [t.sp("scavenger", body=1, pop=3)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 1) == [(1, 1, 2, 0)]          # lost one, then took 1 meat
    assert board(after, 0) == [(1, 3, 2, 0)]


@both_engines
@both_printings
def test_attacked_scavenger_that_dies_does_not_scavenge_and_its_owner_draws(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2)], [t.sp("scavenger", body=1, pop=1)]],
               deck=["fertile", "horns"])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 1) == []
    assert after.players[1].hand == [g.deck[0]]       # one card for its one trait
    assert board(after, 0) == [(1, 3, 2, 0)]
    check_ledger(after)


@both_engines
@both_printings
def test_a_scavenging_carnivore_eats_its_prey_and_scavenges(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", "scavenger", body=3, pop=3)], [t.sp(body=1, pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == [(2, 3, 3, 0)]


@both_engines
@both_printings
def test_scavenger_eats_when_horns_kill_the_attacker(engine, variant):
    # the defender lost an animal, so the attack succeeded although the attacker died
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=4, pop=1)], [t.sp("horns", body=2, pop=2), t.sp("scavenger", pop=2)]])
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert board(after, 0) == []
    assert board(after, 1) == [(0, 2, 1, 0), (1, 1, 2, 0)]


# ================================================================ Symbiosis

@both_engines
@both_printings
@pytest.mark.parametrize("right_body,safe", [(3, True), (2, False), (1, False)])
def test_symbiosis_is_safe_while_its_right_neighbour_is_larger(engine, variant, right_body, safe):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=4, pop=2)],
                [t.sp("symbiosis", body=2, pop=2), t.sp(body=right_body, pop=2)]])
    expect = {(0, 1, 1)} | (set() if safe else {(0, 1, 0)})
    assert on_seat(attacks(engine, g)) == expect


@both_engines
@both_printings
def test_symbiosis_ignores_a_larger_left_neighbour(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=4, pop=2)],
                [t.sp(body=5, pop=2), t.sp("symbiosis", body=2, pop=2)]])
    assert on_seat(attacks(engine, g)) == {(0, 1, 1)}


# ================================================================ feeding, food cards

@both_engines
@both_printings
def test_feeding_goes_clockwise_from_the_first_player_one_species_a_turn(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp(pop=2)], [t.sp(pop=2)], [t.sp(pop=2)]], wh=2, first=1)
    after = feeding(engine, g, lambda seat: Eager())
    assert [p.species[0].food for p in after.players] == [0, 1, 1]
    assert after.wh == 0


@both_engines
@both_printings
def test_feeding_ends_when_no_species_can_eat(engine, variant):
    # both plant eaters get fed; the carnivore (body 1) can attack nobody: feeding ends
    # with food left on the Watering Hole and the carnivore still hungry
    t = Table(variant)
    g = t.game([[t.sp(pop=2), t.sp("carnivore", body=1, pop=1)], [t.sp(body=1, pop=2)]], wh=9)
    after = feeding(engine, g, lambda seat: Eager())
    assert board(after, 0) == [(2, 1, 2, 0), (0, 1, 1, 0)]
    assert board(after, 1) == [(2, 1, 2, 0)]
    assert after.wh == 5
    check_ledger(after)


@both_engines
@both_printings
@pytest.mark.parametrize("wh,foods,wh_after", [(3, [-5, 4], 2), (2, [-5], 0), (0, [3, 2, -1], 4)])
def test_food_cards_add_their_sum_to_the_watering_hole(engine, variant, wh, foods, wh_after):
    t = Table(variant)
    g = t.game([[t.sp(pop=1)], [t.sp(pop=1)]], wh=wh)
    after = reveal(engine, g, foods)
    assert after.wh == wh_after
    check_ledger(after)


# ================================================================ end of feeding

@both_engines
@both_printings
def test_population_drops_to_the_food_eaten_at_the_end_of_feeding(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("fertile", body=3, pop=5, food=3), t.sp(body=2, pop=2, food=2)],
                [t.sp(body=1, pop=4, food=1)]], wh=3, bags=[4, 0])
    after = end_feeding(engine, g)
    assert board(after, 0) == [(0, 3, 3, 0), (0, 2, 2, 0)]
    assert board(after, 1) == [(0, 1, 1, 0)]
    assert [p.bag for p in after.players] == [4 + 5, 1]
    assert after.wh == 3                                     # leftover plant food stays
    assert score(engine, after) == [9 + 3 + 1 + 2, 1 + 1]
    check_ledger(after)


@both_engines
@both_printings
def test_extinction_at_the_end_of_feeding_draws_one_card_per_trait(engine, variant):
    t = Table(variant)
    dying = t.sp("horns", "climbing", body=2, pop=2)
    bare = t.sp(body=1, pop=1)
    g = t.game([[dying, bare, t.sp(pop=2, food=1)], [t.sp("fertile", pop=1)]],
               deck=["long-neck", "fertile", "burrowing", "ambush"], hands={0: ["symbiosis"]})
    after = end_feeding(engine, g)
    assert board(after, 0) == [(0, 1, 1, 0)]
    assert sorted(after.players[0].hand) == sorted(g.players[0].hand + g.deck[:2])
    assert sorted(after.players[1].hand) == [g.deck[2]]      # one trait, one card
    assert after.deck == g.deck[3:]
    assert sorted(after.discard) == sorted(dying.traits + g.players[1].species[0].traits)
    assert [p.bag for p in after.players] == [1, 0]


@both_engines
@both_printings
def test_extinction_draw_from_an_empty_deck_reshuffles_and_makes_the_next_round_the_last(
        engine, variant):
    t = Table(variant)
    dying = t.sp("horns", "climbing", body=2, pop=2)
    g = t.game([[dying, t.sp(pop=1, food=1)], [t.sp(pop=1, food=1)]],
               deck=[], discard=["long-neck", "fertile", "burrowing"], round=4)
    pool = sorted(g.discard + dying.traits)
    after = end_feeding(engine, g)
    hand = after.players[0].hand
    assert len(hand) == 2
    assert sorted(hand + after.deck + after.discard) == pool
    assert after.discard == [] and len(after.deck) == 3
    assert after.final_round == 5                           # the next round is the last


# ================================================================ more interactions

@both_engines
def test_foraging_cooperation_passes_one_food_per_taking_in_first_printing(engine):
    # first printing: Foraging takes 2 "instead of 1", still one taking: 1 for the neighbour
    t = Table("default")
    g = t.game([[t.sp("foraging", "cooperation", pop=3), t.sp(pop=3)]], wh=6)
    after = feeding_turn(engine, g, 0, ("veg", 0))
    assert [s.food for s in after.players[0].species] == [2, 1]
    assert after.wh == 3


@both_engines
@both_printings
def test_long_neck_cooperation_passes_bank_food_at_the_reveal(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("long-neck", "cooperation", pop=2), t.sp(pop=2)]], wh=1)
    after = reveal(engine, g)
    assert [s.food for s in after.players[0].species] == [1, 1]
    assert after.wh == 1 and after.bank_out == g.bank_out + 2


@both_engines
@both_printings
def test_scavenger_cooperation_passes_meat_to_its_neighbour(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2)],
                [t.sp(body=1, pop=2), t.sp("scavenger", "cooperation", pop=2), t.sp(pop=2)]], wh=2)
    after = feeding_turn(engine, g, 0, attack(0, 0))
    assert [s.food for s in after.players[1].species] == [0, 1, 1]
    assert after.wh == 2 and after.bank_out == g.bank_out + 3


@both_engines
@both_printings
def test_a_carnivore_that_becomes_able_to_attack_later_still_feeds(engine, variant):
    # Seat 0 (first) has a carnivore (body 3, pop 2) that nothing lets it attack yet: the
    # Defensive Herding prey (pop 3) needs a larger population, the other carnivore is not
    # smaller. Seat 1's carnivore (body 3, pop 4) attacks the herd: pop 3 -> 2 -> 1. Once
    # the herd is down to 1, seat 0's carnivore (pop 2 > 1) can attack it, and "feeding
    # ends when no species can eat": seat 0 gets its turn (turns: 0 none, 1 attacks,
    # 0 none, 1 attacks, 0 attacks the last animal).
    t = Table(variant)
    g = t.game([[t.sp("carnivore", body=3, pop=2)],
                [t.sp("herding", body=1, pop=3), t.sp("carnivore", body=3, pop=4)]])
    assert attacks(engine, g, 0) == set()
    after = feeding(engine, g, lambda seat: Eager())
    assert board(after, 0) == [(1, 3, 2, 0)]
    assert board(after, 1) == [(2, 3, 4, 0)]
    check_ledger(after)


@both_engines
@both_printings
@pytest.mark.parametrize("spare,last_round", [(1, False), (0, True), (-1, True)])
def test_a_round_deals_three_plus_one_per_species_and_passes_the_first_player(
        engine, variant, spare, last_round):
    t = Table(variant)
    # seat 0 has 2 species: 3 + 2 = 5 cards; seat 1 has none: a free species, 3 + 1 = 4
    deck = (["long-neck"] * 7 + ["fertile"] * 2)[:9 + min(spare, 0)] + ["ambush"] * spare
    g = t.game([[t.sp(pop=1), t.sp(pop=1)], []], deck=deck, round=3)
    ids = g.deck
    after = play_round(engine, g)    # each player: lowest card as food card, no card play
    food = [int(g.cards.food[min(ids[:5])]), int(g.cards.food[min(ids[5:9])])]
    assert food == [3, 2]               # long neck 3 (seat 0's lowest), fertile 2 (seat 1's)
    assert sorted(after.players[0].hand) == sorted(ids[:5])[1:]
    assert sorted(after.players[1].hand) == sorted(ids[5:9])[1:]
    # 5 plant food, three species of population 1 eat 3, 2 stay on the Watering Hole
    assert after.wh == 2
    assert board(after, 0) == [(0, 1, 1, 0), (0, 1, 1, 0)] and board(after, 1) == [(0, 1, 1, 0)]
    assert [p.bag for p in after.players] == [2, 1]
    assert after.first == 1 and after.round == 4
    assert after.deck == ids[9:]
    assert (after.final_round == 3) == last_round     # the deck ran out while dealing


# ================================================================ attacks on one's own species

@both_engines
@both_printings
def test_a_carnivore_killing_its_own_left_neighbour_still_feeds_its_cooperation_chain(
        engine, variant):
    # the prey to the carnivore's left dies out, the boards shift, the chain still works
    t = Table(variant)
    g = t.game([[t.sp(body=1, pop=1), t.sp("carnivore", "cooperation", body=3, pop=2),
                 t.sp(pop=2)]])
    after = feeding_turn(engine, g, 0, ("attack", 1, 0, 0, -1))
    assert board(after, 0) == [(1, 3, 2, 0), (1, 1, 2, 0)]
    check_ledger(after)


@both_engines
@both_printings
def test_horned_own_prey_and_attacker_both_die_and_the_scavenger_eats(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("horns", body=1, pop=1), t.sp("carnivore", body=3, pop=1),
                 t.sp("scavenger", pop=2)]], deck=["fertile", "ambush", "climbing"])
    after = feeding_turn(engine, g, 0, ("attack", 1, 0, 0, -1))
    assert board(after, 0) == [(1, 1, 2, 0)]
    assert sorted(after.players[0].hand) == sorted(g.deck[:2])   # one card per lost trait
    check_ledger(after)


@both_engines
@both_printings
def test_stored_fat_does_not_save_a_species_that_ate_nothing(engine, variant):
    t = Table(variant)
    g = t.game([[t.sp("fat-tissue", body=3, pop=2, fat=3), t.sp(pop=1, food=1)]])
    after = end_feeding(engine, g)
    assert board(after, 0) == [(0, 1, 1, 0)]
    assert after.bank_out == g.bank_out - 3        # its stored food goes back to the bank
    check_ledger(after)


# ================================================================ scoring and winners

@both_engines
@pytest.mark.parametrize("variant,tie_break,win", [
    ("default", "shared", [True, True, False]),          # tied players all win
    ("default", "most_traits", [False, True, False]),    # the option: most trait cards
    ("second-printing", "shared", [True, True, False]),
])
def test_scores_are_bag_population_traits_and_ties_follow_the_option(engine, variant, tie_break,
                                                                     win):
    t = Table(variant, tie_break=tie_break)
    g = t.game([[t.sp("horns", pop=3)],                          # 6 + 3 + 1 = 10
                [t.sp("horns", "climbing", pop=2), t.sp(pop=1)],  # 5 + 3 + 2 = 10
                [t.sp("fertile", "climbing", "horns", pop=2)]],   # 2 + 2 + 3 = 7
               bags=[6, 5, 2])
    assert score(engine, g) == [10, 10, 7]
    assert winners(engine, g) == win
