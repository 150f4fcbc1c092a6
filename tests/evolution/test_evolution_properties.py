"""Hypothesis properties of the Evolution engines (both of them, on the same games).

Two generators:
- whole games: variant, player count, bots per seat, seed and game indices; the game is
  played round by round on the reference engine and on the batch engine, and checked
  after every round and at every decision a bot is asked for (food card, card play,
  feeding choice);
- feeding positions built directly (species with any trait mix, sizes, food, fat, hands,
  Watering Hole), then food cards, the reveal, the whole feeding and the end of feeding
  on both engines.

Properties: every card is in exactly one place (deck + hands + traits on boards +
discards + food cards = the deck's size); food tokens outside the Food Bank are exactly
Watering Hole + species food + fat + bags (the engines' bank ledger agrees), the
Watering Hole only shrinks and bags do not move during feeding, and at the end of feeding
each bag grows by the food its species ate (= their new populations); population and
body size stay within their caps, population >= 1 on the board (0 means extinct and
removed), food <= population, fat <= body size and only on Fat Tissue; scores equal bag
+ population + trait cards; and the two engines reach identical positions.
"""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from evolution_kit import (Table, all_card_places, batch_card_places_ok, ledger, policy_of,
                           position, traits_of)
from simcore.games.evolution import addresses as A
from simcore.games.evolution import reference as ref
from simcore.games.evolution import reference_feeding as ref_feeding
from simcore.games.evolution.reference_state import Game
from simcore.games.evolution import rules as R
from simcore.games.evolution.schema import rules_for
from simcore.games.evolution.state import FOOD_CARD, from_games, to_game
from simcore.games.evolution.traits import FAT_TISSUE, TRAITS
from strategies.evolution.random_bot import RandomBot
from strategies.evolution.silly import Silly

PLAYERS = {"default": (2, 6), "second-printing": (2, 6), "cs4500": (3, 8)}
BOT_TYPES = {"silly": Silly, "random": RandomBot}
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])


# ---------------------------------------------------------------- checks on a reference Game

def check_game(g: Game, food_cards=(), where: str = "") -> None:
    r = g.rules
    places = all_card_places(g, food_cards)
    assert places == Counter(range(g.cards.n)), f"{where}: cards not conserved " \
        f"(missing {sorted(set(range(g.cards.n)) - set(places))}, " \
        f"twice {sorted(c for c, k in places.items() if k > 1)})"
    assert g.bank_out == ledger(g), f"{where}: bank ledger {g.bank_out} != tokens out {ledger(g)}"
    assert g.wh >= 0 and g.bank_out >= 0, where
    for p in g.players:
        assert p.bag >= 0, where
        assert len(p.species) <= r.species_slots, where
        for sp in p.species:
            assert 1 <= sp.pop <= r.max_population, f"{where}: population {sp.pop}"
            assert 0 <= sp.body <= r.max_body, f"{where}: body {sp.body}"
            assert 0 <= sp.food <= sp.pop, f"{where}: food {sp.food} / pop {sp.pop}"
            assert 0 <= sp.fat <= sp.body, f"{where}: fat {sp.fat} / body {sp.body}"
            assert sp.fat == 0 or g.has(sp, FAT_TISSUE), f"{where}: fat without Fat Tissue"
            names = traits_of(g, sp)
            assert len(names) <= r.max_traits and len(set(names)) == len(names), where


def own_score(g: Game) -> list:
    """The scoring rule: food in the bag + population + trait cards of surviving species."""
    return [p.bag + sum(sp.pop + len(sp.traits) for sp in p.species) for p in g.players]


def check_round_result(before: Game, after: Game, where: str) -> None:
    """After a whole round (end of feeding): food eaten went to the bags, population = food."""
    check_game(after, where=where)
    for p0, p1 in zip(before.players, after.players):
        assert p1.bag - p0.bag == sum(sp.pop for sp in p1.species), \
            f"{where}: bag grew by {p1.bag - p0.bag}, surviving populations {[s.pop for s in p1.species]}"
        assert all(sp.food == 0 for sp in p1.species), where


# ---------------------------------------------------------------- checks on batch rows

def check_batch_rows(E: R.Engine, s, g, where: str) -> None:
    """Vectorised invariants for games g of a batch (cheap enough for every decision)."""
    r = E.rules
    here = np.arange(s.S)[None, None, :] < s.n_species[g][:, :, None]
    food = np.where(here, s.food[g], 0).astype(np.int64)
    fat = np.where(here, s.fat[g], 0).astype(np.int64)
    pop = s.pop[g].astype(np.int64)
    body = s.body[g].astype(np.int64)
    out = s.wh[g] + food.sum((1, 2)) + fat.sum((1, 2)) + s.bag[g].astype(np.int64).sum(1)
    assert (out == s.bank_out[g]).all(), f"{where}: batch bank ledger"
    assert (s.wh[g] >= 0).all(), where
    assert (~here | ((pop >= 1) & (pop <= r.max_population))).all(), f"{where}: batch population"
    assert (~here | ((body >= 0) & (body <= r.max_body))).all(), f"{where}: batch body"
    assert (~here | ((food >= 0) & (food <= pop))).all(), f"{where}: batch food"
    assert (~here | ((fat >= 0) & (fat <= body))).all(), f"{where}: batch fat"
    for b in np.asarray(g):
        problems = batch_card_places_ok(s, int(b))
        assert not problems, f"{where}: {problems}"


# ---------------------------------------------------------------- watching bots

class Monitor:
    """Shared by the watching bots of one run: the last feeding snapshot of each game."""

    def __init__(self):
        self.last = {}            # (engine, game, round) -> (wh, bags)
        self.food_cards = {}      # (game, round) -> food cards chosen (reference engine)
        self.decisions = 0

    def feeding_step(self, key, wh, bags, where):
        if key in self.last:
            wh0, bags0 = self.last[key]
            assert wh <= wh0, f"{where}: the Watering Hole grew during feeding ({wh0} -> {wh})"
            assert bags == bags0, f"{where}: a bag changed during feeding"
        self.last[key] = (wh, bags)
        self.decisions += 1


class Watch:
    """Wraps a bot: same choices, but checks the position every time it is asked."""

    def __init__(self, inner, mon: Monitor):
        self.inner, self.mon = inner, mon

    # reference form
    def choose_food_card(self, g, seat):
        card = self.inner.choose_food_card(g, seat)
        self.mon.food_cards.setdefault((g.game_index, g.round), []).append(card)
        return card

    def play_cards(self, g, seat):
        food = self.mon.food_cards.get((g.game_index, g.round), [])
        check_game(g, food_cards=food, where=f"reference card play, round {g.round}")
        self.mon.decisions += 1
        return self.inner.play_cards(g, seat)

    def choose_feeding(self, g, seat, opts, turn):
        where = f"reference feeding, round {g.round}, turn {turn}"
        check_game(g, where=where)
        self.mon.feeding_step(("reference", g.game_index, g.round), g.wh,
                              [p.bag for p in g.players], where)
        return self.inner.choose_feeding(g, seat, opts, turn)

    @property
    def policy_name(self):
        """The batch engine plays the wrapped bot's compiled form, which cannot call back
        into Python mid-round: batch positions are checked between rounds and phases."""
        return self.inner.name


def watched(bots, mon):
    """Wrap each distinct bot once, keeping which seats share a bot object."""
    wrap = {}
    return [wrap.setdefault(id(b), Watch(b, mon)) for b in bots]


# ---------------------------------------------------------------- whole games

@st.composite
def game_setups(draw):
    variant = draw(st.sampled_from(sorted(PLAYERS)))
    lo, hi = PLAYERS[variant]
    players = draw(st.integers(lo, hi))
    kinds = draw(st.lists(st.sampled_from(sorted(BOT_TYPES)), min_size=1, max_size=players))
    seed = draw(st.integers(0, 2**31 - 1))
    start = draw(st.integers(0, 10**6))
    return variant, players, kinds, seed, start


GAMES_PER_EXAMPLE = 2


@settings(max_examples=25, **SETTINGS)
@given(game_setups())
def test_whole_games_keep_every_invariant_and_both_engines_agree(setup):
    variant, players, kinds, seed, start = setup
    rules, cards = rules_for(variant)
    types = [BOT_TYPES[k]() for k in kinds]
    bots = [types[k % len(types)] for k in range(players)]
    games = np.arange(start, start + GAMES_PER_EXAMPLE, dtype=np.int64)

    # reference engine, round by round
    mon = Monitor()
    rbots = watched(bots, mon)
    ref_rounds, ref_final = [], []
    for gi in games:
        g = ref.new_game(rules, cards, players, seed, int(gi))
        check_game(g, where="setup")
        rounds = []
        while True:
            before = copy.deepcopy(g)
            if not ref.play_round(g, rbots):
                break
            check_round_result(before, g, f"reference after round {g.round}")
            if rules.first_player_rotates:
                assert g.first == (before.first + 1) % players
            rounds.append(position(g))
            if g.round > g.final_round:
                break
            if g.round >= rules.max_rounds:
                g.end_reason = A.END_MAX_ROUNDS
                break
        assert ref.score(g) == own_score(g)
        ref_rounds.append(rounds)
        ref_final.append(g)
    assert mon.decisions > 0           # the watching bots did check positions mid-round

    # batch engine, the same games round by round (as kernels.play_all plays them)
    E = R.Engine(rules, cards)
    s = R.new_batch(E, players, seed, games)
    bbots = watched(bots, mon)
    live = np.arange(len(games))
    n_rounds = [0] * len(games)
    while len(live):
        before = {int(b): to_game(s, int(b), ref_final[int(b)]) for b in live}
        played = R.play_round(E, s, live, [policy_of(b) for b in bbots])
        check_batch_rows(E, s, played, "batch after a round")
        for b in played:
            b = int(b)
            after = to_game(s, b, ref_final[b])
            assert not (s.loc[b] == FOOD_CARD).any(), "food cards left after the round"
            check_round_result(before[b], after, f"batch after round {after.round}")
            assert position(after) == ref_rounds[b][n_rounds[b]], \
                f"{variant} P{players} game {games[b]} round {after.round}: engines differ"
            n_rounds[b] += 1
        over = s.round[played] > s.final_round[played]
        capped = ~over & (s.round[played] >= rules.max_rounds)
        live = played[~over & ~capped]
    assert n_rounds == [len(r) for r in ref_rounds]

    # scores: the rule, on both engines
    batch_scores = R.scores(s)
    for b, g in enumerate(ref_final):
        assert batch_scores[b].tolist() == own_score(to_game(s, b, g)) == ref.score(g)


# ---------------------------------------------------------------- generated positions

@st.composite
def positions(draw):
    variant = draw(st.sampled_from(("default", "second-printing", "cs4500")))
    t = Table(variant)
    r = t.rules
    left = Counter(TRAITS[int(k)] for k in t.cards.kind)     # copies not handed out yet
    kinds = sorted(left)

    def take(names):
        kept = []
        for n in names:
            if left[n] > 0:
                left[n] -= 1
                kept.append(n)
        return kept
    players = draw(st.integers(2, 4))
    min_body = 0 if r.new_species_body == 0 else 1
    boards = []
    for _ in range(players):
        species = []
        for _ in range(draw(st.integers(0, 4))):
            names = take(draw(st.lists(st.sampled_from(kinds), max_size=r.max_traits,
                                       unique=True)))
            body = draw(st.integers(min_body, r.max_body))
            pop = draw(st.integers(1, r.max_population))
            food = draw(st.integers(0, pop))
            fat = draw(st.integers(0, body)) if "fat-tissue" in names else 0
            species.append(t.sp(*names, body=body, pop=pop, food=food, fat=fat))
        boards.append(species)
    hands = {k: take(draw(st.lists(st.sampled_from(kinds), max_size=3))) for k in range(players)}
    wh = draw(st.integers(0, 12))
    first = draw(st.integers(0, players - 1))
    foods = draw(st.lists(st.integers(-3, 6), max_size=players))
    seed = draw(st.integers(0, 2**20))
    n_discard = draw(st.integers(0, 5))
    g = t.game(boards, wh=wh, first=first, hands=hands, bags=[draw(st.integers(0, 9))
                                                             for _ in range(players)])
    # a few of the deck's cards start in the discards; shuffle the rest by a drawn seed
    order = np.random.default_rng(seed).permutation(len(g.deck)).tolist()
    deck = [g.deck[i] for i in order]
    g.discard, g.deck = deck[:n_discard], deck[n_discard:]
    g.seed = seed
    return g, foods


def _reference_phases(g, foods, bots):
    g = copy.deepcopy(g)
    ref.reveal_effects(g, pre_food=True)
    ref.add_food_cards(g, foods)
    ref.reveal_effects(g)
    after_reveal = copy.deepcopy(g)
    ref_feeding.feeding(g, bots)
    after_feeding = copy.deepcopy(g)
    ref.end_feeding(g)
    return after_reveal, after_feeding, g


def _batch_phases(g, foods, bots):
    E = R.Engine(g.rules, g.cards)
    s = from_games([g], S=max(1, max(len(p.species) for p in g.players)))
    one = np.zeros(1, np.int64)
    R.reveal_before_food(E, s, 0)
    if foods:
        R.add_food(E, s, 0, np.array([foods], np.int64))
    R.reveal_effects(E, s, 0)
    check_batch_rows(E, s, one, "batch after the reveal")
    after_reveal = to_game(s, 0, g)
    R.feeding(E, s, 0, [policy_of(b) for b in bots])
    after_feeding = to_game(s, 0, g)
    check_batch_rows(E, s, one, "batch after feeding")
    R.end_feeding(E, s, 0)
    check_batch_rows(E, s, one, "batch after the end of feeding")
    return after_reveal, after_feeding, to_game(s, 0, g), s


@settings(max_examples=120, **SETTINGS)
@given(positions())
def test_feeding_from_any_position_keeps_every_invariant_and_both_engines_agree(case):
    g, foods = case
    check_game(g, where="generated position")
    mon = Monitor()
    rnd = RandomBot()
    ref_out = _reference_phases(g, foods, watched([rnd] * len(g.players), mon))
    *batch_out, s = _batch_phases(g, foods, watched([rnd] * len(g.players), mon))
    for phase, a, b in zip(("reveal", "feeding", "end of feeding"), ref_out, batch_out):
        check_game(a, where=f"reference after {phase}")
        check_game(b, where=f"batch after {phase}")
        assert position(a) == position(b), f"engines differ after {phase}"
    revealed, fed, ended = ref_out
    # the reveal adds the food cards' sum (cs4500: one by one), never below 0
    expected_wh = max(0, g.wh + sum(foods))
    if g.rules.food_clamp_each_card:
        expected_wh = g.wh
        for f in foods:
            expected_wh = max(0, expected_wh + f)
    # Long Neck may take from the Watering Hole (cs4500); otherwise the reveal leaves it alone
    if g.rules.long_neck_source == "bank":
        assert revealed.wh == expected_wh
    else:
        assert revealed.wh <= expected_wh
    if g.rules.carnivores_refuse_plant:
        # a carnivore never eats plant food: at the reveal its food only comes from its fat
        for p0, p1 in zip(g.players, revealed.players):
            for a, b in zip(p0.species, p1.species):
                if "carnivore" in traits_of(g, a):
                    assert b.food - a.food == a.fat - b.fat
    assert fed.wh <= revealed.wh
    assert [p.bag for p in fed.players] == [p.bag for p in g.players]
    check_round_result(fed, ended, "end of feeding")
    assert ended.wh == fed.wh                    # leftover plant food stays
    assert ref.score(ended) == own_score(ended) == R.scores(s)[0].tolist()
