"""Shared helpers for the Evolution scenario and property tests (not a test module).

A scenario is built once as a reference-engine `Game` (plain Python objects), then run on
either engine through public functions only:

- reference: `reference_feeding.feeding_turn / feeding / feeding_options`,
  `reference.reveal_effects / add_food_cards / end_feeding`;
- batch: the same position through `state.from_games`, then `rules.feeding_turn /
  feeding / reveal_effects / add_food / end_feeding / feeding_options`, converted back
  with `state.to_game`.

Every operation returns a reference `Game`, so one set of assertions checks both engines.
"""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np

from evo_players.scripted import scripted, used
from strategies.evolution import compiled
from simcore.games.evolution import reference as ref
from simcore.games.evolution import reference_feeding as ref_feeding
from simcore.games.evolution.reference_state import Game, Player, Species
from simcore.games.evolution import rules as R
from simcore.games.evolution.schema import rules_for
from simcore.games.evolution.state import (BOARD, DECK, DISCARD, FOOD_CARD, OUT, from_games,
                                           to_game)
from simcore.games.evolution.traits import TRAIT_ID, TRAITS

ENGINES = ("reference", "batch")
_ONE = np.zeros(1, np.int64)


# ---------------------------------------------------------------- building positions

class Table:
    """One variant's rules and full card table; hands out distinct cards by trait name."""

    def __init__(self, variant: str = "default", **overrides):
        self.variant = variant
        self.rules, self.cards = rules_for(variant, **overrides)
        self.free = list(range(self.cards.n))

    def card(self, trait: str) -> int:
        kind = TRAIT_ID[trait]
        for c in self.free:
            if int(self.cards.kind[c]) == kind:
                self.free.remove(c)
                return c
        raise AssertionError(f"no {trait} card left in the {self.variant} deck")

    def sp(self, *traits, body=1, pop=1, food=0, fat=0) -> Species:
        """A species board with one card per trait name (in play order)."""
        return Species(food=food, body=body, pop=pop, fat=fat,
                       traits=[self.card(t) for t in traits])

    def game(self, boards, wh=0, first=0, hands=None, bags=None, deck=None, discard=(),
             round=0) -> Game:
        """boards: one list of Species per seat (seat 0 first). hands: {seat: [trait,...]}.
        deck: trait names (top first) or None = every card not used yet, lowest id on top.
        The bank ledger is set so that wh + food + fat + bags == tokens out of the bank."""
        hands = hands or {}
        bags = bags or [0] * len(boards)
        players = [Player(pid=k + 1, species=list(sp), bag=bags[k],
                          hand=sorted(self.card(t) for t in hands.get(k, ())))
                   for k, sp in enumerate(boards)]
        disc = [self.card(t) for t in discard]
        if deck is None:
            deck_ids, self.free = list(self.free), []
        else:
            deck_ids = [self.card(t) for t in deck]
        g = Game(rules=self.rules, cards=self.cards, players=players, wh=wh,
                 deck=deck_ids, discard=disc, first=first, round=round, seed=7)
        g.bank_out = ledger(g)
        return g


def ledger(g: Game) -> int:
    """Food tokens outside the Food Bank: Watering Hole + species food + fat + bags."""
    return g.wh + sum(sp.food + sp.fat for p in g.players for sp in p.species) \
        + sum(p.bag for p in g.players)


def traits_of(g: Game, sp: Species) -> list:
    return [TRAITS[g.kind(c)] for c in sp.traits]


def board(g: Game, seat: int) -> list:
    """(food, body, pop, fat) of each species of a seat, left to right."""
    return [(s.food, s.body, s.pop, s.fat) for s in g.players[seat].species]


def all_card_places(g: Game, food_cards=()) -> Counter:
    """Every card id counted once per place it is in (deck, hands, boards, discard, food)."""
    places = Counter(g.deck)
    places.update(g.discard)
    places.update(food_cards)
    for p in g.players:
        places.update(p.hand)
        for sp in p.species:
            places.update(sp.traits)
    return places


def position(g: Game):
    """Everything the rules decide, for comparing two engines' results."""
    return ([(p.bag, sorted(p.hand), [(s.food, s.body, s.pop, s.fat, list(s.traits))
                                      for s in p.species]) for p in g.players],
            g.wh, list(g.deck), sorted(g.discard), g.bank_out, g.first,
            min(g.final_round, 1 << 30))


# ---------------------------------------------------------------- options

def options(engine: str, g: Game, seat: int) -> list:
    """The legal feeding options of `seat`, as reference-engine tuples, in canonical order."""
    g = copy.deepcopy(g)
    if engine == "reference":
        return list(ref_feeding.feeding_options(g, seat))
    return R.feeding_options(R.Engine(g.rules, g.cards), from_games([g]), 0, seat)


def attacks(engine: str, g: Game, seat: int = 0, intelligence: bool = False) -> set:
    """(attacker, target seat, target species) of the seat's legal attacks; with
    intelligence=True, the attacks that need an Intelligence discard, as
    (attacker, seat, species, negated trait name)."""
    out = set()
    for o in options(engine, g, seat):
        if o[0] != "attack":
            continue
        if intelligence and o[4] >= 0:
            out.add((o[1], o[2], o[3], TRAITS[o[4]]))
        elif not intelligence and o[4] < 0:
            out.add(o[1:4])
    return out


# ---------------------------------------------------------------- bots

POLICY = {"greedy": compiled.GREEDY, "silly": compiled.SILLY, "random": compiled.RANDOM}


def policy_of(bot):
    """The batch face (compiled policy) of a reference-form bot (greedy, silly, random);
    a wrapper may name its inner bot's policy with `policy_name`."""
    return POLICY[getattr(bot, "policy_name", getattr(bot, "name", None))]


class ScriptBot:
    """Feeding choices from a script of option tuples (each must be legal when used); when
    the script runs out: forgo if allowed, else the first legal option. The batch engine
    plays the same script (evo_players/scripted.py), and the used options are taken off it;
    an illegal scripted option fails there too."""

    def __init__(self, script=()):
        self.script = list(script)

    def policy(self):
        return scripted([R.option_row(o) for o in self.script])

    def sync(self, policy) -> None:
        del self.script[:used(policy)]

    def _pick(self, legal: list) -> tuple:
        if self.script:
            want = self.script.pop(0)
            assert want in legal, f"scripted {want} is not legal; legal: {legal}"
            return want
        return legal[0]

    def choose_feeding(self, g, seat, opts, turn):
        return self._pick(list(opts))


class Eager:
    """Never forgoes while it has anything else to do (first non-forgo option)."""

    def policy(self):
        return scripted(None)

    def sync(self, policy) -> None:
        pass

    def choose_feeding(self, g, seat, opts, turn):
        acts = [o for o in opts if o[0] != "forgo"]
        return acts[0] if acts else opts[0]


# ---------------------------------------------------------------- operations on both engines

def on_batch(bots, call):
    """call(policies) with each kit bot's batch policy; then each bot catches up (a script
    loses the options the engine played)."""
    pols = [b.policy() for b in bots]
    try:
        return call(pols)
    finally:
        for b, pol in zip(bots, pols):
            b.sync(pol)


def _batch(g: Game, extra_slots: int = 0):
    E = R.Engine(g.rules, g.cards)
    S = max(1, max(len(p.species) for p in g.players)) + extra_slots
    return E, from_games([g], S=S)


def feeding_turn(engine: str, g: Game, seat: int, option: tuple) -> Game:
    """One feeding turn of `seat` in which the player chooses `option`."""
    g = copy.deepcopy(g)
    if engine == "reference":
        ref_feeding.feeding_turn(g, seat, ScriptBot([option]), 0)
        return g
    E, st = _batch(g)
    bots = [ScriptBot([option]) if k == seat else ScriptBot() for k in range(len(g.players))]
    on_batch(bots, lambda pols: R.feeding_turn(E, st, 0, seat, pols, 1))
    return to_game(st, 0, g)


def feeding(engine: str, g: Game, make_bot=ScriptBot) -> Game:
    """The whole feeding from g.first; make_bot(seat) builds each seat's bot."""
    g = copy.deepcopy(g)
    bots = [make_bot(k) for k in range(len(g.players))]
    if engine == "reference":
        ref_feeding.feeding(g, bots)
        return g
    E, st = _batch(g)
    on_batch(bots, lambda pols: R.feeding(E, st, 0, pols))
    return to_game(st, 0, g)


def reveal(engine: str, g: Game, foods=()) -> Game:
    """The reveal-time traits timed before the food cards (reveal_before_food), food cards
    of these values onto the Watering Hole, then the other reveal-time traits."""
    g = copy.deepcopy(g)
    if engine == "reference":
        ref.reveal_effects(g, pre_food=True)
        ref.add_food_cards(g, list(foods))
        ref.reveal_effects(g)
        return g
    E, st = _batch(g)
    R.reveal_before_food(E, st, 0)
    if foods:
        R.add_food(E, st, 0, np.array([list(foods)], np.int64))
    R.reveal_effects(E, st, 0)
    return to_game(st, 0, g)


def end_feeding(engine: str, g: Game) -> Game:
    g = copy.deepcopy(g)
    if engine == "reference":
        ref.end_feeding(g)
        return g
    E, st = _batch(g)
    R.end_feeding(E, st, 0)
    return to_game(st, 0, g)


class PassBot(Eager):
    """Round bot: its lowest card is its food card, it plays no other card, feeds eagerly
    (the batch engine's scripted player, evo_players/scripted.py)."""

    def choose_food_card(self, g, seat):
        return min(g.players[seat].hand)

    def play_cards(self, g, seat):
        return []


def play_round(engine: str, g: Game, make_bot=lambda seat: PassBot()) -> Game:
    """One whole round (deal, food cards, card play, reveal, feeding, end of feeding)."""
    g = copy.deepcopy(g)
    bots = [make_bot(k) for k in range(len(g.players))]
    if engine == "reference":
        ref.play_round(g, bots)
        return g
    E, st = _batch(g, extra_slots=1)
    on_batch(bots, lambda pols: R.play_round(E, st, 0, pols))
    return to_game(st, 0, g)


def score(engine: str, g: Game) -> list:
    if engine == "reference":
        return ref.score(g)
    return R.scores(from_games([g]))[0].tolist()


def winners(engine: str, g: Game) -> list:
    if engine == "reference":
        return ref.winners(g)
    return R.winners(R.Engine(g.rules, g.cards), from_games([g]))[0].tolist()


def batch_card_places_ok(st, b: int) -> list:
    """Problems with batch game b's card locations (empty list: every card in one place)."""
    problems = []
    loc = st.loc[b]
    if (loc == OUT).any():
        problems.append(f"cards nowhere: {np.flatnonzero(loc == OUT).tolist()}")
    live = st.deck[b, st.deck_top[b]:st.deck_len[b]].astype(np.int64)
    if sorted(live.tolist()) != np.flatnonzero(loc == DECK).tolist():
        problems.append("deck slots and DECK locations differ")
    on_board = []
    for p in range(st.P):
        for s in range(st.n_species[b, p]):
            on_board += [int(c) for c in st.traits[b, p, s, :st.n_traits[b, p, s]]]
    if sorted(on_board) != np.flatnonzero(loc == BOARD).tolist():
        problems.append("trait slots and BOARD locations differ")
    if (loc >= st.P).any() or not np.isin(loc[loc < 0], (DECK, DISCARD, BOARD, FOOD_CARD)).all():
        problems.append("a card in an unknown place")
    return problems
