"""Evolution's greedy+favor:TRAIT / greedy+avoid:TRAIT on constructed decisions,
reference form (the compiled form makes the same choices: tests/games/test_engines_agree.py)."""
from __future__ import annotations

from types import SimpleNamespace as NS

from simcore.games.evolution.traits import TRAITS
from strategies.evolution import compiled as C
from strategies.evolution.greedy import feeding_choice, food_card, plan

T = {name: i for i, name in enumerate(TRAITS)}
FAVOR, AVOID = C.FAVOR, C.AVOID


class Game:
    """The few facts the greedy reads: players' species and hands, card kinds and food."""

    def __init__(self, hand_kinds, species):
        self.kinds = list(hand_kinds)
        self.cards = NS(food=[3] * len(self.kinds))
        self.rules = NS(species_slots=5, max_traits=3, max_body=6, max_population=6)
        me = NS(hand=list(range(len(self.kinds))), species=species)
        other = NS(hand=[], species=[NS(pop=1, food=0, body=1, fat=0, traits=[]) for _ in range(2)])
        self.players = [me, other, NS(hand=[], species=[]), NS(hand=[], species=[])]

    def kind(self, c):
        return self.kinds[c]

    def has(self, sp, trait):
        return trait in sp.traits


def _one_species():
    return [NS(pop=1, food=0, body=1, fat=0, traits=[])]


def test_favor_plays_the_trait_greedy_scores_low_and_avoid_never_plays_it():
    g = Game([T["ambush"], T["fertile"], T["intelligence"]], _one_species())
    assert plan(g, 0) == [("new", 0, 0), ("trait", 1, 0, -1)]                   # fertile scores 5
    assert plan(g, 0, (FAVOR, T["intelligence"])) == [("new", 0, 0), ("trait", 2, 0, -1)]
    # avoid: fertile is spent first (it pays for the new species) and intelligence is the trait
    assert plan(g, 0, (AVOID, T["fertile"])) == [("new", 1, 0), ("trait", 2, 0, -1)]


def test_favor_keeps_the_trait_out_of_the_food_card_and_avoid_gives_it_first():
    g = Game([T["ambush"], T["fertile"], T["intelligence"]], _one_species())
    assert food_card(g, 0) == 0
    assert food_card(g, 0, (FAVOR, T["ambush"])) == 2
    assert food_card(g, 0, (AVOID, T["fertile"])) == 1


def test_favor_carnivore_becomes_a_carnivore_when_plain_greedy_would_not():
    g = Game([T["carnivore"], T["ambush"], T["horns"]], _one_species())   # 2 prey < 4 players: no want
    assert ("trait", 0, 1, -1) not in plan(g, 0)
    assert plan(g, 0, (FAVOR, T["carnivore"]))[:2] == [("new", 1, 0), ("trait", 0, 1, -1)]


def test_feeding_favors_attacks_storing_or_intelligence_and_avoid_drops_them():
    herb = NS(pop=3, food=0, body=2, fat=0, traits=[T["fat-tissue"]])
    carn = NS(pop=2, food=0, body=3, fat=0, traits=[T["carnivore"]])
    g = Game([], [herb, carn])
    opts = [("veg", 0), ("attack", 1, 1, 0, -1), ("store", 0)]
    assert feeding_choice(g, 0, opts) == ("veg", 0)                         # hunger 3 beats 2
    assert feeding_choice(g, 0, opts, (FAVOR, T["carnivore"])) == ("attack", 1, 1, 0, -1)
    assert feeding_choice(g, 0, opts, (FAVOR, T["fat-tissue"])) == ("store", 0)
    assert feeding_choice(g, 0, opts, (FAVOR, T["horns"])) == ("veg", 0)    # no choice uses Horns
    attacks = [("attack", 1, 1, 0, -1), ("attack", 1, 1, 1, -1)]
    g.players[1].species[1].body = 4
    assert feeding_choice(g, 0, attacks, (AVOID, T["carnivore"])) == ("attack", 1, 1, 1, -1)   # every option attacks
    assert feeding_choice(g, 0, [("forgo",)] + attacks, (AVOID, T["carnivore"])) == ("forgo",)
