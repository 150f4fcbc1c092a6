"""Evolversi Male, the reference engine: one game at a time, straight from the rulebook.

This is the oracle the batch engine (rules.py) is checked against, game by game, and the
source of the readable game log (`balancelab replay`). It follows the engine contract
(docs/games/evolversi.md) to the letter: every shuffle uses the contract's chance address,
every decision point is asked in the contract's order with the contract's option list.

The state is plain Python: ints and lists of card uids (components.py numbers the cards).
A `Game` holds one game; its methods are named after the rulebook's phases and steps:

    round:  play_cards -> turn_order -> actions (take_turn for each animal) -> new_market
    turn:   take_tokens -> reveal (Fury, reactions, effects) -> buy -> reserve -> pressure_step

The effects, Pressure tokens, Events and reactions are in reference_effects.py, the market
and phase 4 in reference_market.py, the state in and out in reference_state.py (parts of
the same `Game` class).

Public functions (contract section 11): `play_one` and `run_state`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from ... import rng
from ...errors import UserError
from ...ruleset import Ruleset
from . import state_io
from .components import (KIND_ANIMALS as ANIMALS_KIND, KIND_EVENTS as EVENTS_KIND, KIND_EVOLUTION as EVOLUTION_KIND,
                         KIND_OWN_DECK as OWN_DECK_KIND, KIND_PRESSURE as PRESSURE_KIND, KIND_TOTEM as TOTEM_KIND,
                         components, shuffle_by_ident)
from .reference_effects import Effects, GameOver, describe, describe_card
from .reference_market import Market
from .reference_state import Seat, StateInOut


UNTIL = ("turn", "phase", "round", "place", "end")
PHASE_TITLES = {"setup": "Setup", "play": "Playing the cards", "order": "Turn order",
                "actions": "Actions", "market": "A new market"}
# The Totem-or-Fury Pressure token prints "gain 1 Fury" (rulebook, Evolutionary Pressure).


@dataclass
class Decision:
    """One choice point put to a bot (contract section 6)."""

    kind: str            # PLACE, ORDER, OPTIONAL, TARGET, ...
    options: list        # in the contract's order; the bot answers an index into it
    seat: int            # who decides
    round: int           # 1-based (0 = setup)
    index: int           # d: the seat's decision counter in this round
    info: dict           # facts about the choice (the card, the verb, ...)
    seed: int
    game: int

    @property
    def h(self):
        """The decision hash key(seed, game, BOT, r, s, d), computed only when a bot asks."""
        return rng.key(self.seed, self.game, rng.BOT, self.round, self.seat, self.index)


class Game(Market, Effects, StateInOut):
    """One game of Evolversi Male in plain Python state.

    Build one with `Game.new` (a fresh set-up) or `Game.from_state` (a state dict), then
    `play(until)`; read `outcome()` and `to_state()`.
    """

    def __init__(self, rs: Ruleset, players: int, bots: list, seed: int, game: int, log=None):
        self.rs, self.p = rs, rs.params
        self.cards = rs.tables["cards"]
        self.events = rs.tables["events"]
        self.animals = rs.tables["animals"]
        self.players = players
        self.comps = components(rs, players)
        self.seed, self.game = seed, game
        self.bots = bots
        self.log = log
        self.active_slots = min(players + self.p["market_extra"], self.p["market_spaces"])
        self.decisions: dict[tuple[int, int], int] = {}   # (round, seat) -> next d
        # Turn-local bookkeeping (not part of a saved state: states stop between turns).
        self.actor = None        # the seat whose phase-3 turn is running
        self.discount = 0        # purchase discount gathered this turn
        self.reveals = 0         # Pressure tokens revealed this turn

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rs: Ruleset, players: int, bots, seed: int, game: int, animals=None, log=None) -> "Game":
        """A game freshly set up (contract section 3)."""
        _check_players(rs, players)
        g = cls(rs, players, _check_bots(bots, players), seed, game, log)
        g.setup(animals)
        return g

    @classmethod
    def from_state(cls, rs: Ruleset, state: dict, bots, seed: int, game: int, log=None) -> "Game":
        """A game loaded from a state dict with card names (contract section 10)."""
        seats = state.get("seats") if isinstance(state, dict) else None
        if not isinstance(seats, list):
            raise UserError("a game state needs a list of seats", key="state.seats")
        players = len(seats)
        _check_players(rs, players)
        g = cls(rs, players, _check_bots(bots, players), seed, game, log)
        g.load(state_io.resolve(rs, g.comps, state))
        return g

    def setup(self, animals) -> None:
        """Contract section 3: Pressure tokens, decks, market, animals, Totem."""
        p = self.p
        self.phase, self.round, self.turn = "setup", 0, 0
        tokens = self.shuffle(range(len(self.comps.pressure_kind)), self.comps.pressure_ident, PRESSURE_KIND)
        # zip stops at the shorter list: spare spaces stay empty, spare tokens stay in the box.
        self.pressure = [{"space": space, "token": uid, "revealed": False}
                         for space, uid in zip(p["pressure_spaces"], tokens)]
        self.shuffles = {"evolution": 0, "events": 0}
        self.event_deck = self.shuffle(range(len(self.comps.event_row)), self.comps.event_ident, EVENTS_KIND, 0)
        self.event_discard = []
        self.evolution_deck = self.shuffle(self.comps.evolution, self.comps.card_ident, EVOLUTION_KIND, 0)
        self.evolution_discard = []
        self.market = [None] * p["market_spaces"]
        for slot in range(self.active_slots):
            self.market[slot] = self.draw_evolution()
        self.supply = p["token_supply"]
        self.seats = []
        for s, animal in enumerate(self.assign_animals(animals)):
            seat = Seat(animal=animal, position=p["start_position"], bought=[0] * len(self.cards))
            seat.deck = self.shuffle(self.comps.starting[animal], self.comps.card_ident, OWN_DECK_KIND, s, 0)
            seat.tokens = min(p["starting_tokens"], self.supply)
            self.supply -= seat.tokens
            self.seats.append(seat)
        self.totem = (rng.randint(self.seed, self.game, rng.CHANCE, self.players, TOTEM_KIND)
                      if p["totem_start"] == "random" else 0)
        self.fourth_card, self.fourth_round = False, 0
        self.order = list(range(self.players))
        self.ended, self.end_reason, self.winners = False, None, []
        self.log_setup()
        self.phase, self.round = "play", 1

    def assign_animals(self, animals) -> list[int]:
        """Fixed seats keep their animal; the others take the KIND-1 order in seat order."""
        names = [a["name"] for a in self.animals]
        eligible = self.comps.eligible_animals
        wanted = [None] * self.players if animals is None else list(animals)
        if len(wanted) != self.players:
            raise UserError(f"animals lists {len(wanted)} seats; players = {self.players} "
                            "(give one animal name or None per seat)", key="animals")
        fixed: list[int | None] = []
        for s, a in enumerate(wanted):
            if a is None or a == "random":
                fixed.append(None)
                continue
            index = a if isinstance(a, int) and not isinstance(a, bool) else (names.index(a) if a in names else None)
            if index is None or not 0 <= index < len(names):
                raise UserError(f"unknown animal {a!r} for seat {s}; animals: {', '.join(names)}", key="animals")
            if index not in eligible:
                raise UserError(f"{names[index]} is not in play with {self.players} animals "
                                f"(min_players = {self.animals[index]['min_players']})", key="animals")
            if index in fixed:
                raise UserError(f"{names[index]} is fixed for two seats; each animal plays at most once",
                                key="animals")
            fixed.append(index)
        order = self.shuffle(eligible, self.comps.animal_ident, ANIMALS_KIND)
        free = iter(i for i in order if i not in fixed)
        return [a if a is not None else next(free) for a in fixed]

    # ------------------------------------------------------------------ small lookups
    def row(self, uid: int) -> int:
        """The design row (cards.csv) of a card uid."""
        return self.comps.card_row[uid]

    def card(self, uid: int) -> dict:
        return self.cards[self.comps.card_row[uid]]

    def card_row_by_name(self, name: str, where: str) -> int:
        rows = [i for i, c in enumerate(self.cards) if c["name"] == name]
        evolution = [i for i in rows if self.cards[i]["deck"] == "evolution"]
        if not rows:
            raise UserError(f"unknown card {name!r}", key=where)
        return (evolution or rows)[0]

    def cname(self, uid) -> str:
        return "(empty)" if uid is None else self.card(uid)["name"]

    def names(self, uids) -> str:
        return ", ".join(self.cname(u) for u in uids) or "nothing"

    def animal_name(self, seat: int) -> str:
        return self.animals[self.seats[seat].animal]["name"]

    def clockwise(self, start: int) -> list[int]:
        """Every seat clockwise from `start` (itself first)."""
        return [(start + i) % self.players for i in range(self.players)]

    def others(self, seat: int) -> list[int]:
        """The other seats, clockwise from seat + 1."""
        return self.clockwise(seat + 1)[:-1]

    def purchase_cost(self, slot: int) -> int:
        return max(0, self.p["market_costs"][slot] - self.discount)

    def market_pairs(self) -> list[tuple[int, int]]:
        """Pairs (i, j), i < j, of occupied market slots, lexicographic."""
        occupied = [i for i, uid in enumerate(self.market) if uid is not None]
        return list(itertools.combinations(occupied, 2))

    def hand_size(self) -> int:
        """hand_size_fourth once the 4th Card token flipped in an earlier round, else hand_size."""
        flipped_before = self.fourth_card and self.fourth_round < self.round
        return self.p["hand_size_fourth"] if flipped_before else self.p["hand_size"]

    def shuffle(self, uids, idents, kind: int, *extra) -> list[int]:
        """`uids` in the order of a shuffle at (kind, *extra), keyed by their identities."""
        return shuffle_by_ident(self.seed, self.game, uids, idents, kind, *extra)

    # ------------------------------------------------------------------ the log
    def say(self, text: str, seat: int | None = None) -> None:
        """One readable log line: 'Round 3 · Actions · Mantis: takes 2 tokens (supply 30)'.
        Callers build a formatted line only under `if self.log is not None`: most games are
        played with no log, and building its text cost about a fifth of the engine's time."""
        if self.log is None:
            return
        where = "Setup" if self.phase == "setup" else f"Round {self.round} · {PHASE_TITLES[self.phase]}"
        who = "" if seat is None else f" · {self.animal_name(seat)}"
        self.log.append(f"{where}{who}: {text}")

    def log_setup(self) -> None:
        if self.log is None:
            return
        kinds = self.comps.pressure_kind
        self.say("Pressure tokens (face down): "
                 + ", ".join(f"space {t['space']} {kinds[t['token']]}" for t in self.pressure))
        self.say(f"Market ({self.active_slots} open slots, slot 0 rightmost): "
                 + " | ".join(f"{self.cname(u)} ({self.p['market_costs'][i]})"
                              for i, u in enumerate(self.market[:self.active_slots])))
        for s, seat in enumerate(self.seats):
            self.say(f"seat {s}, deck {self.names(seat.deck)}; {seat.tokens} token(s)", s)
        self.say(f"the Totem goes to {self.animal_name(self.totem)}; supply {self.supply}")

    # ------------------------------------------------------------------ decisions
    def decide(self, kind: str, seat: int, options: list, **info):
        """Ask seat's bot one decision; count it as the seat's d-th of this round."""
        key = (self.round, seat)
        d = self.decisions.get(key, 0)
        self.decisions[key] = d + 1
        decision = Decision(kind, options, seat, self.round, d, info, self.seed, self.game)
        index = self.bots[seat].choose(decision, self)
        if not 0 <= index < len(options):
            raise ValueError(f"bot of seat {seat} answered option {index} of {len(options)} for {kind}")
        return options[index]

    # ------------------------------------------------------------------ playing on
    def play(self, until: str = "end") -> None:
        """Play on from the current state: one actor's `turn`, the current `phase`, the
        current `round`, or to the `end` of the game."""
        if until not in UNTIL:
            raise UserError(f"until must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
        try:
            if until == "end":
                while not self.ended:
                    self.step_phase()
            elif until == "round":
                start = self.round
                while not self.ended and self.round == start:
                    self.step_phase()
            elif until == "phase":
                if not self.ended:
                    self.step_phase()
            elif until == "place":
                self.play_to_place()
            else:
                while not self.ended and not self.step_turn_or_phase():
                    pass
        except GameOver:
            pass

    def step_phase(self) -> None:
        """Play the whole current phase (phase 3: every actor still to act)."""
        if self.phase == "play":
            self.play_cards()
        elif self.phase == "order":
            self.turn_order()
        elif self.phase == "actions":
            self.actions()
        else:
            self.new_market()

    def play_to_place(self) -> None:
        """Play on until a seat with cards in hand is next to PLACE (every seat has drawn,
        the seats before it have placed), having done something: drawn, placed a hand, or
        played a later phase. A seat with no card to place is asked its one-option PLACE
        on the way (play_cards asks it) and never stops the play. The batch engine's
        rules.to_place does the same."""
        moved, after = False, -1          # after: the last seat placed by this call
        while not self.ended:
            if self.phase != "play":
                self.step_phase()
                moved, after = True, -1
                continue
            size = self.hand_size()
            if all(not (x.hand or x.above or x.below) for x in self.seats):
                self.log_hands(size)                  # the round's first draws
            for s, seat in enumerate(self.seats):
                if not (seat.hand or seat.above or seat.below):
                    before = len(seat.hand)
                    self.draw_hand(s, size)
                    moved |= len(seat.hand) != before
            s = next((x for x in range(after + 1, self.players)
                      if not (self.seats[x].above or self.seats[x].below)), None)
            if s is None:
                self.phase = "order"
                moved = True
                continue
            if self.seats[s].hand and moved:
                return
            moved |= bool(self.seats[s].hand)
            self.place(s)
            after = s

    def step_turn_or_phase(self) -> bool:
        """One actor's turn if one is due, else the current phase. True if a turn ran."""
        if self.phase == "actions" and self.turn < len(self.order):
            self.take_turn()
            return True
        self.step_phase()
        return False

    # ------------------------------------------------------------------ phase 1
    def play_cards(self) -> None:
        """Phase 1: every animal draws its hand (seat order), then every animal places it."""
        size = self.hand_size()
        self.log_hands(size)
        for s, seat in enumerate(self.seats):
            if not (seat.hand or seat.above or seat.below):
                self.draw_hand(s, size)
        for s, seat in enumerate(self.seats):
            if not (seat.above or seat.below):
                self.place(s)
        self.phase = "order"

    def log_hands(self, size: int) -> None:
        if self.log is not None:
            self.say(f"hands of {size} cards; pawns "
                     + ", ".join(f"{self.animal_name(s)} {seat.position}"
                                 for s, seat in enumerate(self.seats))
                     + f"; Totem: {self.animal_name(self.totem)}")

    def draw_hand(self, s: int, size: int) -> None:
        """Draw `size` cards; an empty deck is rebuilt from the discards, then the Power fires."""
        seat = self.seats[s]
        reshuffled = False
        while len(seat.hand) < size:
            if not seat.deck:
                if not seat.discard:
                    if self.log is not None:
                        self.say(f"deck and discards are empty: plays with {len(seat.hand)} card(s)", s)
                    break
                if self.log is not None:
                    self.say(f"draws {self.names(seat.hand)} and its deck runs out", s)
                self.reshuffle_own_deck(s)
                reshuffled = True
            seat.hand.append(seat.deck.pop(0))
        if self.log is not None:
            self.say(f"hand {self.names(seat.hand)} ({len(seat.deck)} left in deck)", s)
        if reshuffled:
            self.power(s)

    def reshuffle_own_deck(self, s: int) -> None:
        seat = self.seats[s]
        seat.shuffles += 1
        seat.deck = self.shuffle(seat.discard, self.comps.card_ident, OWN_DECK_KIND, s, seat.shuffles)
        seat.discard = []
        if self.log is not None:
            self.say(f"shuffles its {len(seat.deck)} discards into a new deck (shuffle {seat.shuffles})", s)

    def power(self, s: int) -> None:
        """The animal's Power: it always fires after a reshuffle (contract section 9)."""
        animal = self.animals[self.seats[s].animal]
        if self.log is not None:
            self.say("Power: " + describe(animal["power"], animal["amount"], animal["target"]), s)
        self.resolve_effect(s, animal["power"], animal["amount"], animal["target"], animal["active"])
        self.end_check()

    def place_options(self, size: int) -> list[tuple[int, ...]]:
        """PLACE options: the sets of hand positions that go above (contract section 6)."""
        p = self.p
        k_lo = max(p["min_above"], size - p["max_below"], 0)
        k_hi = min(p["max_above"], size - p["min_below"], size)
        if k_lo > k_hi:  # too few cards for the minimums: drop them
            k_lo, k_hi = max(0, size - p["max_below"]), min(p["max_above"], size)
        return [c for k in range(k_lo, k_hi + 1) for c in itertools.combinations(range(size), k)]

    def place(self, s: int) -> None:
        seat = self.seats[s]
        chosen = self.decide("PLACE", s, self.place_options(len(seat.hand)))
        seat.above = [uid for i, uid in enumerate(seat.hand) if i in chosen]
        seat.below = [uid for i, uid in enumerate(seat.hand) if i not in chosen]
        seat.hand = []
        if self.log is not None:
            self.say(f"places above: {self.names(seat.above)}; below: {self.names(seat.below)}", s)

    # ------------------------------------------------------------------ phase 2
    def strength(self, s: int) -> int:
        return sum(self.card(uid)["strength"] for uid in self.seats[s].above)

    def turn_order(self) -> None:
        """Phase 2: Strength descending; ties from the Totem holder clockwise."""
        strength = [self.strength(s) for s in range(self.players)]
        self.order = sorted(range(self.players),
                            key=lambda s: (-strength[s], (s - self.totem) % self.players))
        if self.log is not None:
            self.say("Strength "
                     + ", ".join(f"{self.animal_name(s)} {strength[s]}" for s in range(self.players))
                     + f" (Totem: {self.animal_name(self.totem)}) -> order "
                     + ", ".join(self.animal_name(s) for s in self.order))
        self.phase, self.turn = "actions", 0

    # ------------------------------------------------------------------ phase 3
    def actions(self) -> None:
        """Phase 3: every actor still to act takes its turn, in turn order."""
        while self.turn < len(self.order):
            self.take_turn()
        self.phase = "market"

    def take_turn(self) -> None:
        """The five steps of one animal's actions."""
        a = self.order[self.turn]
        self.actor, self.discount, self.reveals = a, 0, 0
        self.take_tokens(a)
        self.reveal(a)
        self.buy(a)
        self.reserve(a)
        self.pressure_step(a)
        self.actor = None
        self.turn += 1
        if self.turn == len(self.order):
            self.phase = "market"

    def take_tokens(self, a: int) -> None:
        """Step 1: tokens shown above, as far as the supply goes."""
        seat = self.seats[a]
        shown = sum(self.card(uid)["tokens"] for uid in seat.above)
        taken = min(shown, self.supply)
        self.supply -= taken
        seat.tokens += taken
        if self.log is not None:
            self.say(f"takes {taken} token(s) (cards above show {shown}; supply {self.supply}); "
                     f"reserve {seat.tokens}", a)

    def reveal(self, a: int) -> None:
        """Step 2: reveal the cards below; Fury symbols, reactions, then the effects."""
        seat = self.seats[a]
        seat.revealed = True
        if self.log is not None:
            self.say(f"reveals below: {self.names(seat.below)}", a)
        fury = sum(self.card(uid)["fury"] for uid in seat.below)
        if fury > 0:
            if self.log is not None:
                self.say(f"{fury} Fury symbol(s)", a)
            self.gain_fury(a, fury)
            self.end_check()
            self.reactions("other_fury", a, fury)
        effects = [uid for uid in seat.below
                   if self.card(uid)["trigger"] == "own_turn" and self.card(uid)["effect"] != "none"]
        if len(effects) >= 2:
            effects = list(self.decide("ORDER", a, list(itertools.permutations(effects))))
            if self.log is not None:
                self.say(f"resolves in the order {self.names(effects)}", a)
        for uid in effects:
            self.activate_below(a, uid)

    def activate_below(self, a: int, uid: int) -> None:
        """One card below on its owner's turn (contract 5.2)."""
        seat, card = self.seats[a], self.card(uid)
        if uid not in seat.below:
            return
        if not self.condition_holds(a, card["condition"]):
            if self.log is not None:
                self.say(f"{card['name']}: condition '{card['condition']}' not met, nothing happens", a)
            return
        if card["optional"] and self.decide("OPTIONAL", a, [0, 1], card=uid) == 0:
            if self.log is not None:
                self.say(f"chooses not to activate {card['name']}", a)
            return
        if self.log is not None:
            self.say(f"activates {card['name']} ({describe_card(card)})", a)
        targets = self.resolve_effect(a, card["effect"], card["amount"], card["target"], card["active"])
        if card["more"]:
            self.take_more(a, uid, targets)
        if card["discard"]:
            seat.below.remove(uid)
            if self.p["discard_symbol_to"] == "common":
                self.evolution_discard.append(uid)
                if self.log is not None:
                    self.say(f"{card['name']} goes to the common discards", a)
            else:
                seat.discard.append(uid)
                if self.log is not None:
                    self.say(f"{card['name']} goes to its discards", a)
        self.end_check()

    def buy(self, a: int) -> None:
        """Step 3: buy at most one market card; it goes on top of the deck; slide right."""
        seat = self.seats[a]
        options = [None] + [slot for slot, uid in enumerate(self.market)
                            if uid is not None and self.purchase_cost(slot) <= seat.tokens]
        slot = self.decide("BUY", a, options)
        if slot is None:
            if self.log is not None:
                self.say(f"buys nothing (reserve {seat.tokens})", a)
            return
        uid, cost = self.market[slot], self.purchase_cost(slot)
        seat.tokens -= cost
        self.supply += cost
        seat.deck.insert(0, uid)
        self.slide_market(slot)
        seat.bought[self.row(uid)] += 1
        if self.log is not None:
            self.say(f"buys {self.cname(uid)} from slot {slot} for {cost} (reserve {seat.tokens}, "
                     f"supply {self.supply}); market now {self.market_text()}", a)
        self.reactions("other_buy", a, 0)
        self.end_check()

    def reserve(self, a: int) -> None:
        """Step 4: tokens over the reserve limit go back to the supply."""
        seat = self.seats[a]
        limit = self.animals[seat.animal]["reserve"]
        excess = max(0, seat.tokens - limit)
        if excess:
            seat.tokens -= excess
            self.supply += excess
            if self.log is not None:
                self.say(f"reserve limit {limit}: returns {excess} token(s) (supply {self.supply})", a)

    def pressure_step(self, a: int) -> None:
        """Step 5: a face-down Pressure token on the pawn's space is revealed and activated."""
        if self.reveals >= self.p["pressure_per_turn"]:
            return
        position = self.seats[a].position
        token = next((t for t in self.pressure if t["space"] == position and not t["revealed"]), None)
        if token is not None:
            self.activate_pressure(a, token)
            self.end_check()

# ---------------------------------------------------------------------- checks and API
def _check_players(rs: Ruleset, players) -> None:
    lo, hi = rs["players_min"], rs["players_max"]
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise UserError(f"players must be a whole number in {lo}..{hi}, got {players!r}", key="players")


def _check_bots(bots, players: int) -> list:
    """One policy per seat, each with choose(decision, view) (decisions.py)."""
    bots = list(bots)
    if len(bots) != players:
        raise UserError(f"needs one bot per seat ({players}), got {len(bots)}", key="bots")
    for s, b in enumerate(bots):
        if not callable(getattr(b, "choose", None)):
            raise TypeError(f"seat {s}: the reference engine needs a policy with choose(decision, view), got {b!r}")
    return bots


def play_one(ruleset: Ruleset, players: int, bots, seed: int, game: int, animals=None, log=None,
             trajectories: bool = False) -> dict:
    """Play game `game` of run `seed` from set-up to the end; return its outcome.

    `bots`: one reference policy per seat (decisions.py). `animals`: None (all random) or one
    animal name (or None for random) per seat. `log`: a list that receives readable lines.
    Outcome fields (contract section 8): position, winner, rounds, end_reason (0 track,
    1 stalled), animal, fury, tokens, bought (P lists, one count per cards.csv row),
    fourth_round; with `trajectories`, also standing: one list of track positions per round
    played (after that round, or where the game ended in it).
    """
    g = Game.new(ruleset, players, bots, seed, game, animals, log)
    if not trajectories:
        g.play("end")
        return g.outcome()
    standing = []
    while not g.ended:
        g.play("round")
        standing.append([seat.position for seat in g.seats])
    out = g.outcome()
    out["standing"] = standing
    return out


def run_state(ruleset: Ruleset, state: dict, bots, seed: int, game: int, until: str, log=None):
    """Load a game state (cards by name), play on `until` "turn", "phase", "round", "place"
    (Game.play_to_place) or "end",
    and return (the new state, cards by name; the outcome if the game has ended, else None).

    `bots`: one reference policy per seat (a scenario's choices live in its script policies).
    """
    if until not in UNTIL:
        raise UserError(f"until must be one of {', '.join(UNTIL)}, got {until!r}", key="until")
    g = Game.from_state(ruleset, state, bots, seed, game, log)
    g.play(until)
    return g.to_state(), (g.outcome() if g.ended else None)
