"""Evolution's side of the search protocol (docs/rollout.md): where a search bot
decides, its options there, and the re-deal of what it cannot see.

What a search decides: the feeding choices (kind "feed"). Feeding is where the seats
meet: which species eats from a shared Watering Hole that runs dry, which carnivore
attacks which species (and so who loses population, and whose Scavengers and Horns
act), when to store fat or to forgo. Each choice is one of a short list the engines
already enumerate in one canonical order (reference_feeding.feeding_options), and a choice
changes what every other seat can still eat this round, so continuations show its worth.
The card plays are the bots' plans (whole sets of actions, not an option list of the
engines) and are left to the base bot.

The saved decision point: run_state(..., until="feed") stops just before a feeding turn
whose bot chooses among two or more options (a turn the rules play alone, or with one
option, is no decision), with the feeding's place saved in the state (`queue`: the seats still
in, from the one to play; `passes`; `turns`). The seat to decide is queue[0].

What the seat cannot see (rulebook: the deck face down, each player's hand its own; the
discard pile face up; traits and food cards are face up by the feeding): the other
seats' hands and the order of the deck. `determinize` re-deals exactly that: the unseen
cards (the others' hands and the deck, pooled) sorted, shuffled from `key` and dealt back
into the same hand sizes and the same deck length. Everything else is kept: the seat's
own hand, every board (species, traits, food, fat), the bags (each token went in in
plain sight), the Watering Hole, the discard pile, the counts.
"""
from __future__ import annotations

import json

from ... import rng
from . import reference_feeding as ref_feeding
from . import state_io
from .branch import stream_of
from .schema import compile_rules

SEARCH_KINDS = ("feed",)
_POOL = 1                     # address of the determinization's shuffle


def _game(rs, state: dict, seed: int = 0, game: int = 0):
    rules, cards = compile_rules(rs)
    return state_io.load(rules, cards, state, seed, game)


def decision_point(rs, state: dict):
    """(seat, "feed") at a feeding turn saved by run_state(until="feed") whose bot will
    choose; None otherwise (another phase, the end, a turn the rules play alone)."""
    if state.get("phase") != "feeding" or not state.get("queue"):    # a saved feeding's turn only
        return None
    g, where = _game(rs, state)
    seat = where["queue"][0]
    return (seat, "feed") if ref_feeding.has_choice(g, seat) else None


def legal_options(rs, state: dict, seat: int, kind: str) -> list:
    """The feeding options of `seat` at the saved state, in the engines' canonical order,
    as the reference engine's tuples: ("forgo",), ("veg", s), ("store", s), ("intel", s),
    ("attack", s, q, d, negated trait). Each names its species by place, so two options
    are never the same move."""
    if kind != "feed":
        return []
    g, _ = _game(rs, state)
    return list(ref_feeding.feeding_options(g, seat))


def _card_key(card) -> str:
    return json.dumps(card)          # a card is [food, "trait"] (or "trait" in a hand-made state)


def determinize(rs, state: dict, seat: int, key: int) -> dict:
    """`state` with what `seat` cannot see re-dealt from the stream of `key` (module doc)."""
    if "deck" not in state:               # a hand-made state: its deck is every card left
        state = state_io.dump(*_game(rs, state))
    out = dict(state)                      # shallow: every list re-dealt below is a new list
    seats = out["seats"] = [dict(x) for x in state["seats"]]
    others = [x for x in range(len(seats)) if x != seat]
    deck = list(state.get("deck", []))
    pool = [c for x in others for c in seats[x].get("hand", [])] + deck
    it = iter(rng.sorted_shuffle(stream_of(key, state), rng.SEARCH, pool, _POOL, sort_key=_card_key))
    for x in others:
        seats[x]["hand"] = sorted((next(it) for _ in seats[x].get("hand", [])), key=_card_key)
    out["deck"] = [next(it) for _ in deck]
    return out
