"""Evolversi's side of the search protocol (docs/rollout.md): where a search bot
decides, its options there, and the re-deal of what it cannot see.

The searched decision is PLACE, phase 1's "the animals plan their evolution": which of
the drawn cards go above the board (Strength, so the turn order and the first pick of the
market; Evolution tokens, so what the seat can buy) and which below (their effects and
Fury, the points). It is taken every round by every seat, and its options are fixed by the
hand alone, so they can be listed at a saved state. BUY is not searched: its options
depend on the tokens and the market after the turn's own effects (step 2), so no state the
engines can save lists them (that would take a state saved inside a turn).

The saved decision point is `run_state(..., until="place")`: every seat has drawn, the
seats before the decider (seat order) have placed, and the decider has cards in hand.
Options: the engines' PLACE list for its hand size (tables place_options, contract
section 6), labelled by the card names going above and below, in hand order.

What the seat cannot see (rulebook: decks, hands and cards placed "face down"; Pressure
tokens "face down, without looking at them"): every seat's deck order (its own too), the
other seats' hands and the cards they placed this round (above until phase 2 reveals
them, below until their own turn), the order of the Evolution and Event decks, and which
face-down Pressure token lies on which space. Everything else is face up or public: the
market, every discard pile, the cards above after phase 2, pawns, Fury, tokens, the Totem,
the 4th Card, the counts of every pile. `determinize` re-deals exactly the hidden part,
each pool sorted before a shuffle from the key, so the re-deal depends only on what the
seat saw: per other seat, its deck, hand and hidden placed cards pooled and dealt back into
the same piles and sizes (a seat's cards never leave its own piles; the split above/below
stays, as the seat saw how many cards went where); its own deck reshuffled; the Evolution
and Event decks reshuffled; the face-down Pressure spaces dealt from every token not
revealed (with fewer spaces than tokens, the ones setup left out unseen are in the pool too).
Not kept (a search bot then knows less than it could): that a card bought this round lies
on top of its buyer's deck (a decision point comes after the draws, when it is in hand),
and that a seat's hand holds the card it bought last round.

Every decision point of a seat in a game has turn 0 (phase 1), so the rollout's keys
(which address the turn) repeat each round: the key is mixed with the round here and in
branch.py, so each round's determinizations and continuations have streams of their own.
"""
from __future__ import annotations

from collections import Counter

from ... import rng
from .state import tables_for

SEARCH_KINDS = ("PLACE",)
_OWN, _EVOLUTION, _EVENTS, _PRESSURE = 1, 2, 3, 4        # addresses of the determinization's shuffles


def round_key(key: int, state: dict) -> int:
    """The rollout key of a decision mixed with the state's round (module doc)."""
    return int(rng.key(int(key), 0, rng.SEARCH, int(state.get("round", 1))))


def _placed(seat: dict) -> bool:
    return bool(seat.get("above") or seat.get("below"))


def decision_point(rs, state: dict):
    """(seat, "PLACE") at a saved phase-1 state where every seat has drawn and a seat with
    cards in hand is the first (seat order) still to place; None elsewhere (and at the end)."""
    if state.get("ended") or state.get("phase", "play") != "play":
        return None
    seats = state["seats"]
    if any(not x.get("hand") and not _placed(x) and (x.get("deck") or x.get("discard")) for x in seats):
        return None                                   # the draws are still to come
    for s, x in enumerate(seats):
        if not _placed(x) and x.get("hand"):
            return s, "PLACE"
    return None


def legal_options(rs, state: dict, seat: int, kind: str) -> list:
    """The PLACE options of `seat` in the engines' order, as labels (names above, names
    below, in hand order). Equal labels are equal moves: two copies of one design in hand
    make some placements the same."""
    if kind != "PLACE":
        return []
    hand = list(state["seats"][seat].get("hand", []))
    masks = tables_for(rs, len(state["seats"])).place_options[len(hand)]
    return [(tuple(c for c, up in zip(hand, m) if up), tuple(c for c, up in zip(hand, m) if not up))
            for m in masks.tolist()]


def _unseen_pressure(rs, state: dict) -> list:
    """The kinds of every Pressure token not revealed: the face-down ones and, when the ruleset
    has fewer spaces than tokens, those setup left out unseen (rulebook, setup step 2: shuffled
    and placed face down "without looking at them"), so which kinds lie on the board is hidden."""
    every = Counter(tables_for(rs, len(state["seats"])).comps.pressure_kind)
    every -= Counter(t["token"] for t in state.get("pressure", []) if t.get("revealed"))
    return list(every.elements())


def determinize(rs, state: dict, seat: int, key: int) -> dict:
    """`state` with what `seat` cannot see re-dealt from the stream of `key` (module doc)."""
    key = round_key(key, state)
    out = dict(state)                      # shallow: every list re-dealt below is a new list
    seats = out["seats"] = [dict(x) for x in state["seats"]]
    above_hidden = state.get("phase", "play") == "play"        # phase 2 turns them face up
    for x, s in enumerate(seats):
        piles = ["deck"] if x == seat else ["deck", "hand"] + (["above"] if above_hidden else []) \
            + ([] if s.get("revealed") else ["below"])
        pool = iter(rng.sorted_shuffle(key, rng.SEARCH, [c for p in piles for c in s.get(p, [])], _OWN, x))
        for p in piles:
            s[p] = [next(pool) for _ in s.get(p, [])]
    out["evolution_deck"] = rng.sorted_shuffle(key, rng.SEARCH, state.get("evolution_deck", []), _EVOLUTION)
    out["event_deck"] = rng.sorted_shuffle(key, rng.SEARCH, state.get("event_deck", []), _EVENTS)
    pressure = [dict(t) for t in state.get("pressure", [])]
    down = [t for t in pressure if not t.get("revealed")]
    for t, kind in zip(down, rng.sorted_shuffle(key, rng.SEARCH, _unseen_pressure(rs, state), _PRESSURE)):
        t["token"] = kind
    out["pressure"] = pressure
    return out
