"""Batch state of Evolution: a dataclass of numpy arrays, batch axis first.

Dimensions: B games, P seats, S species slots per player (param species_slots),
T = 3 trait slots, N cards (card ids, see ruleset.py).
Species lists are compact: slots 0..n_species-1 hold the boards left to right, so "the
species to its right" is slot + 1, as in the reference engine's Python list.
Cards live in exactly one place, written in `loc`; the deck's order is `deck[top:len]`.
A seat's hand is also kept in order in `hand[b, p, :hand_n[b, p]]` (the reference engine's
list: sorted by card id whenever a bot sees it; extinction draws go in front), padded with
the card count N, so the bots read hands without scanning all N card locations.

`from_games` / `to_game` convert reference `Game`s to and from a batch, so scenario
tests and the conformance harness feed both engines the same positions.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .traits import TRAITS

# card locations (values of `loc`); a card in seat p's hand has loc == p
DECK = -1
DISCARD = -2
FOOD_CARD = -3
BOARD = -4
OUT = -5

NO_FINAL = 1 << 14


@dataclass
class State:
    n_species: np.ndarray   # (B, P) int8   boards in use; slots >= n_species are empty
    food: np.ndarray        # (B, P, S) int8  food eaten this feeding
    body: np.ndarray        # (B, P, S) int8  body size
    pop: np.ndarray         # (B, P, S) int8  population
    fat: np.ndarray         # (B, P, S) int8  food stored on Fat Tissue
    traits: np.ndarray      # (B, P, S, T) int16  trait card ids in play order, -1 empty
    n_traits: np.ndarray    # (B, P, S) int8  traits in use
    tmask: np.ndarray       # (B, P, S) int32  bit k set: the species has trait k (derived)
    bag: np.ndarray         # (B, P) int32  food in the player's bag
    pid: np.ndarray         # (B, P) int32  player ids (for output)
    loc: np.ndarray         # (B, N) int8  where each card is: seat p >= 0 (hand) or DECK..OUT
    hand: np.ndarray        # (B, P, N) int16  seat p's hand in hand order, padded with N
    hand_n: np.ndarray      # (B, P) int16  cards in hand
    deck: np.ndarray        # (B, N) int16  card ids in draw order; live part deck[top:len]
    deck_top: np.ndarray    # (B,) int32
    deck_len: np.ndarray    # (B,) int32
    wh: np.ndarray          # (B,) int32  plant food on the Watering Hole
    bank_out: np.ndarray    # (B,) int32  tokens outside the Food Bank
    first: np.ndarray       # (B,) int8   seat of the first player
    round: np.ndarray       # (B,) int32  rounds played
    final_round: np.ndarray  # (B,) int32  index of the last round (NO_FINAL: not known)
    end_reason: np.ndarray  # (B,) int8   -1 running, else addresses.END_*
    shuffles: np.ndarray    # (B,) int32  deck shuffles so far (random address)
    games: np.ndarray       # (B,) int64  game indices (random stream of each game)
    traits_played: np.ndarray  # (B, P, K) int16  trait cards each seat played, per trait id
    seed: int
    full: "State | None" = None  # a narrowed view's whole state (see rules.narrow), else None

    @property
    def B(self) -> int:
        return self.food.shape[0]

    @property
    def P(self) -> int:
        return self.food.shape[1]

    @property
    def S(self) -> int:
        return self.food.shape[2]


def empty(B: int, P: int, S: int, N: int, T: int = 3, seed: int = 0, games=None) -> State:
    """A batch with no species, every card in the deck slot array empty (deck_len 0)."""
    return State(
        n_species=np.zeros((B, P), np.int8),
        food=np.zeros((B, P, S), np.int8), body=np.zeros((B, P, S), np.int8),
        pop=np.zeros((B, P, S), np.int8), fat=np.zeros((B, P, S), np.int8),
        traits=np.full((B, P, S, T), -1, np.int16), n_traits=np.zeros((B, P, S), np.int8),
        tmask=np.zeros((B, P, S), np.int32),
        bag=np.zeros((B, P), np.int32), pid=np.tile(np.arange(1, P + 1, dtype=np.int32), (B, 1)),
        loc=np.full((B, N), OUT, np.int8), hand=np.full((B, P, N), N, np.int16),
        hand_n=np.zeros((B, P), np.int16),
        deck=np.zeros((B, N), np.int16), deck_top=np.zeros(B, np.int32),
        deck_len=np.zeros(B, np.int32), wh=np.zeros(B, np.int32), bank_out=np.zeros(B, np.int32),
        first=np.zeros(B, np.int8), round=np.zeros(B, np.int32),
        final_round=np.full(B, NO_FINAL, np.int32), end_reason=np.full(B, -1, np.int8),
        shuffles=np.zeros(B, np.int32),
        games=np.arange(B, dtype=np.int64) if games is None else np.asarray(games, np.int64),
        traits_played=np.zeros((B, P, len(TRAITS)), np.int16),
        seed=seed)


def refresh_tmask(st: State, kind: np.ndarray) -> None:
    """Recompute the trait bitmask from the trait card slots (kind = Cards.kind)."""
    m = np.zeros(st.tmask.shape, np.int32)
    padded = np.append(kind, 0).astype(np.int32)     # index -1 (empty slot) reads the pad
    for t in range(st.traits.shape[3]):
        c = st.traits[..., t]
        m |= np.where(c >= 0, np.left_shift(1, padded[c]), 0)
    st.tmask = m


def from_games(games: list, S: int | None = None, T: int = 3) -> State:
    """A batch holding copies of reference `Game`s (same players and card table)."""
    g0 = games[0]
    P = len(g0.players)
    S = S or max(1, max(len(p.species) for g in games for p in g.players))
    N = g0.cards.n
    st = empty(len(games), P, S, N, T, seed=g0.seed, games=[g.game_index for g in games])
    for b, g in enumerate(games):
        for p, pl in enumerate(g.players):
            st.pid[b, p] = pl.pid
            st.bag[b, p] = pl.bag
            st.n_species[b, p] = len(pl.species)
            for s, sp in enumerate(pl.species):
                st.food[b, p, s], st.body[b, p, s] = sp.food, sp.body
                st.pop[b, p, s], st.fat[b, p, s] = sp.pop, sp.fat
                st.n_traits[b, p, s] = len(sp.traits)
                for t, c in enumerate(sp.traits):
                    st.traits[b, p, s, t] = c
                    st.loc[b, c] = BOARD
            for k, c in enumerate(pl.hand):
                st.loc[b, c] = p
                st.hand[b, p, k] = c
            st.hand_n[b, p] = len(pl.hand)
            st.traits_played[b, p] = pl.played
        for k, c in enumerate(g.deck):
            st.deck[b, k] = c
            st.loc[b, c] = DECK
        st.deck_len[b] = len(g.deck)
        for c in g.discard:
            st.loc[b, c] = DISCARD
        st.wh[b], st.bank_out[b], st.first[b] = g.wh, g.bank_out, g.first
        st.round[b], st.shuffles[b] = g.round, g.shuffles
        st.final_round[b] = min(g.final_round, NO_FINAL)
        st.end_reason[b] = g.end_reason
    refresh_tmask(st, g0.cards.kind)
    return st


def hand_of(st: State, b: int, p: int) -> list:
    """Seat p's hand in game b, in hand order."""
    return [int(c) for c in st.hand[b, p, :st.hand_n[b, p]]]


def to_game(st: State, b: int, like):
    """Game b of the batch as a reference `Game` (rules, cards and seed copied from `like`)."""
    from .reference_state import Game, Player, Species
    players = []
    for p in range(st.P):
        species = [Species(food=int(st.food[b, p, s]), body=int(st.body[b, p, s]),
                           pop=int(st.pop[b, p, s]), fat=int(st.fat[b, p, s]),
                           traits=[int(c) for c in st.traits[b, p, s, :st.n_traits[b, p, s]]])
                   for s in range(st.n_species[b, p])]
        players.append(Player(pid=int(st.pid[b, p]), species=species, bag=int(st.bag[b, p]),
                              hand=hand_of(st, b, p), played=st.traits_played[b, p].tolist()))
    deck = [int(c) for c in st.deck[b, st.deck_top[b]:st.deck_len[b]]]
    discard = [int(c) for c in np.flatnonzero(st.loc[b] == DISCARD)]
    fr = int(st.final_round[b])
    return Game(rules=like.rules, cards=like.cards, players=players, wh=int(st.wh[b]),
                deck=deck, discard=discard, bank_out=int(st.bank_out[b]), first=int(st.first[b]),
                round=int(st.round[b]), final_round=(1 << 30) if fr >= NO_FINAL else fr,
                end_reason=int(st.end_reason[b]), shuffles=int(st.shuffles[b]),
                seed=like.seed, game_index=int(st.games[b]))
