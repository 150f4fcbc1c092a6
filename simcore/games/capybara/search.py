"""Ernesto Capybara's side of the search protocol (docs/rollout.md): where a
search bot decides, its options there, and the re-deal of what it cannot see.

The saved decision point is the turn start (`run_state(..., until="turn")`), where the
actor's first decision is its ACTION (contract 4 step 1): options `play u` for coloured u
in hand, then `discard u`, hands walked by uid (a JSON hand lists them in that order).

What the seat cannot see (contract 1-3): the other seats' hands, the order of the capybara
deck (where its Revolutions lie) and the order of the strike deck. Everything else is face
up or was seen by everyone (discard pile, strikes on the table, tokens, strikes taken,
cards played, counts). `determinize` re-deals exactly the hidden part: the unseen capybara
cards (the others' hands and the deck's capybara cards, pooled) shuffled and dealt back
into the same hand sizes and deck positions; each Revolution placed uniformly within what
is left of its part of the cut (setup step 5: the seat knows the cut's sizes and which
Revolutions were drawn); the strike deck reshuffled. The pool is sorted before the
shuffle, so the re-deal depends only on what the seat saw, never on the hidden order.
Not kept: what a crown_peek showed its seat (a search bot then knows less than it could).
"""
from __future__ import annotations

from ... import rng
from . import reference, state_io
from .state_io import REVOLUTION

SEARCH_KINDS = ("action",)
_POOL, _STRIKES, _REV = 1, 2, 3          # addresses of the determinization's draws


def decision_point(rs, state: dict):
    """(seat, kind) of the searchable decision at a saved turn start, or None (ended, or the
    actor's hand is empty: no ACTION, contract 4 step 1)."""
    if state.get("ended"):
        return None
    seat = int(state["current"])
    return (seat, "action") if state["seats"][seat].get("hand") else None


def legal_options(rs, state: dict, seat: int, kind: str) -> list:
    """The options of `kind` for `seat` at a saved turn start, in the engines' order, as
    labels: ("play", key) / ("discard", key). Equal labels are equal moves (copies of one
    design behave alike), so a search needs to try only the first of them. Which cards may
    be played is the reference engine's rule (`Game.playable`)."""
    if kind != "action":
        return []
    f = state_io.resolve(rs, reference.components(rs), state)
    game = reference.Game(rs, f["players"], [None] * f["players"], 0, 0)
    game.load(f)
    hand = f["hands"][seat]
    key = game.comps.card_key
    return ([("play", key[u]) for u in hand if game.playable(seat, u)]
            + [("discard", key[u]) for u in hand])


def _deck_segments(rs, state: dict, players: int):
    """Per remaining part of the cut: (first position in the deck now, length, holds its
    Revolution), or None if the state is not one a dealt game can reach (a scenario)."""
    seats = state["seats"]
    deck = state.get("deck", [])
    caps = sum(len(s.get("hand", [])) for s in seats) + sum(1 for c in deck if c != REVOLUTION)
    caps += len(state.get("discard", [])) + sum(len(sl.get("locks", [])) for sl in state["slots"])
    small = players <= rs["small_game_max_players"]
    H = rs["hand_size_small"] if small else rs["hand_size"]
    R = rs["revolutions"]
    n = caps - players * H
    if n < 0 or R < 1:
        return None
    q, r = divmod(n, R)
    drawn = n + R - len(deck)
    if drawn < 0:
        return None
    segs, start, untouched, partial = [], 0, 0, None
    for i in range(R):
        end = start + (q + 1 if i < r else q) + 1
        if end > drawn:
            lo = max(start, drawn)
            segs.append([lo - drawn, end - lo, start >= drawn])
            if start >= drawn:
                untouched += 1
            else:
                partial = len(segs) - 1
        start = end
    left = sum(1 for c in deck if c == REVOLUTION) - untouched
    if partial is not None and left in (0, 1):
        segs[partial][2] = bool(left)
    elif left != 0:
        return None
    return [tuple(s) for s in segs]


def determinize(rs, state: dict, seat: int, key: int) -> dict:
    """`state` with what `seat` cannot see re-dealt from the stream of `key` (module doc)."""
    out = dict(state)                      # shallow: every list re-dealt below is a new list
    seats = out["seats"] = [dict(x) for x in state["seats"]]
    P = len(seats)
    deck = out.get("deck", [])
    others = [x for x in range(P) if x != seat]
    pool = [c for x in others for c in seats[x].get("hand", [])] + [c for c in deck if c != REVOLUTION]
    pool = rng.sorted_shuffle(key, rng.BOT, pool, _POOL)
    n_rev = sum(1 for c in deck if c == REVOLUTION)
    segs = _deck_segments(rs, state, P)
    rev_at = set()
    if segs is None:               # not a dealt game's state: Revolutions anywhere in the deck
        rev_at = set(rng.sorted_shuffle(key, rng.BOT, range(len(deck)), _REV)[:n_rev])
    else:
        for i, (lo, length, has) in enumerate(segs):
            if has:
                rev_at.add(lo + rng.randint(int(key), 0, rng.BOT, length, _REV, i))
    it = iter(pool)
    for x in others:
        seats[x]["hand"] = sorted(next(it) for _ in seats[x].get("hand", []))   # uid order = key order
    out["deck"] = [REVOLUTION if i in rev_at else next(it) for i in range(len(deck))]
    out["strike_deck"] = rng.sorted_shuffle(key, rng.BOT, out.get("strike_deck", []), _STRIKES)
    return out

