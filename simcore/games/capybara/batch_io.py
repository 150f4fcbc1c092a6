"""The capybara JSON game state (contract 15) <-> the batch engine's flat array `g` (the reference engine reads it with state_io.py).

Cards are named by key (`red Capybara`, `Capybaranka`, `Revolution`), strikes by name;
several copies of a key take that design's uids in order of appearance. The capybara
cards in play are the ones the state lists (a scenario may hold only a few).
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from .codes import END_REASONS
from . import state as S
from .state_io import check_in_play

REVOLUTION = "Revolution"


def players_of(state: dict) -> int:
    seats = state.get("seats") if isinstance(state, dict) else None
    if not isinstance(seats, list) or not seats:
        raise UserError("a game state needs a non-empty list of seats", key="state.seats")
    return len(seats)


class _Uids:
    """Hands out the uids of each key's copies in order of appearance."""

    def __init__(self, pairs, what):
        self.free: dict[str, list[int]] = {}
        for uid, (k, _) in enumerate(pairs):
            self.free.setdefault(k, []).append(uid)
        self.what = what

    def take(self, key, where):
        if key not in self.free:
            raise UserError(f"unknown {self.what} {key!r}; known: {', '.join(sorted(self.free))}", key=where)
        if not self.free[key]:
            raise UserError(f"more copies of {self.what} {key!r} than the data holds", key=where)
        return self.free[key].pop(0)


def _ints(v, n, where):
    if not isinstance(v, list) or len(v) != n or not all(isinstance(x, int) and x >= 0 for x in v):
        raise UserError(f"expected {n} non-negative integers, got {v!r}", key=where)
    return v


def load(rs, rk, g, state: dict, game: int) -> None:
    """Fill `g` (zeroed) from a JSON state; UserError naming the field for a bad one."""
    P, m, N, Sn, R, E = (int(rk[k]) for k in (S.R_P, S.R_M, S.R_N, S.R_S, S.R_REV, S.R_E))
    check_in_play(rs, state)
    cards, strikes = _Uids(S.card_uids(rs), "card"), _Uids(S.strike_uids(rs), "strike")
    revs = [N + i for i in range(R)]
    names = S.entity_names(rs)
    g[S.G_GAME] = game
    for k, f in (("turn", S.G_TURN), ("current", S.G_CUR), ("revolutions_played", S.G_RP),
                 ("revolutions_boxed", S.G_RB)):
        v = state.get(k, 0)
        if not isinstance(v, int) or v < 0:
            raise UserError(f"expected a non-negative integer, got {v!r}", key=f"state.{k}")
        g[f] = v
    if g[S.G_CUR] >= P:
        raise UserError(f"current must be a seat 0..{P - 1}", key="state.current")
    inplay = np.zeros(N, np.int64)

    def card(key, where, allow_rev=False):
        if key == REVOLUTION and allow_rev:
            if not revs:
                raise UserError(f"more than {R} Revolutions", key=where)
            return revs.pop()
        c = cards.take(key, where)
        inplay[c] = 1
        return c

    deck = [card(k, "state.deck", True) for k in state.get("deck", [])]
    g[rk[S.O_DECK]:rk[S.O_DECK] + len(deck)] = deck
    g[S.G_DTOP], g[S.G_DLEN] = 0, len(deck)
    disc = [card(k, "state.discard") for k in state.get("discard", [])]
    g[rk[S.O_DISC]:rk[S.O_DISC] + len(disc)] = disc
    g[S.G_DISC_N] = len(disc)
    for k in state.get("removed", []):
        inplay[cards.take(k, "state.removed")] = 2
    sd = [strikes.take(k, "state.strike_deck") for k in state.get("strike_deck", [])]
    g[rk[S.O_SDECK]:rk[S.O_SDECK] + len(sd)] = sd
    g[S.G_SDTOP], g[S.G_SDLEN] = 0, len(sd)
    fat = rk[rk[S.T_SFAT]:rk[S.T_SFAT] + Sn]
    slots = state.get("slots")
    if not isinstance(slots, list) or len(slots) != m:
        raise UserError(f"expected {m} slots (players + strikes_extra)", key="state.slots")
    tok = np.zeros((m, P), np.int64)
    for i, sl in enumerate(slots):
        where = f"state.slots[{i}]"
        name = sl.get("strike")
        g[rk[S.O_SLOT] + i] = -1 if name is None else strikes.take(name, where)
        tok[i] = _ints(sl.get("tokens", [0] * P), P, where + ".tokens")
        under = [strikes.take(k, where + ".under") for k in sl.get("under", [])]
        locks = [card(k, where + ".locks") for k in sl.get("locks", [])]
        if name is None and (tok[i].any() or under or locks):
            raise UserError("an empty slot holds no tokens, under-cards or locks", key=where)
        g[rk[S.O_UNDER] + i * Sn:rk[S.O_UNDER] + i * Sn + len(under)] = under
        g[rk[S.O_UNDER_N] + i] = len(under)
        g[rk[S.O_LOCK] + i * N:rk[S.O_LOCK] + i * N + len(locks)] = locks
        g[rk[S.O_LOCK_N] + i] = len(locks)
        g[rk[S.O_SFAT] + i] = 0 if name is None else fat[g[rk[S.O_SLOT] + i]] + fat[under].sum()
    g[rk[S.O_TOK]:rk[S.O_TOK] + m * P] = tok.ravel()
    for s, seat in enumerate(state["seats"]):
        where = f"state.seats[{s}]"
        hand = sorted(card(k, where + ".hand") for k in seat.get("hand", []))
        for j, c in enumerate(hand):
            g[rk[S.O_HAND] + s * N + c] = 1
            g[rk[S.O_HLIST] + s * N + j] = c        # the engine's list of the hand, ascending
        g[rk[S.O_HAND_N] + s] = len(hand)
        sup = seat.get("supply", rs["tokens_per_player"] - int(tok[:, s].sum()))
        if not isinstance(sup, int) or sup < 0 or sup + tok[:, s].sum() != rs["tokens_per_player"]:
            raise UserError(f"supply + tokens on strikes must be tokens_per_player = {rs['tokens_per_player']}",
                            key=where + ".supply")
        g[rk[S.O_SUP] + s] = sup
        taken = [strikes.take(k, where + ".taken") for k in seat.get("taken", [])]
        g[rk[S.O_TAKEN] + s * Sn:rk[S.O_TAKEN] + s * Sn + len(taken)] = taken
        g[rk[S.O_TAKEN_N] + s] = len(taken)
        g[rk[S.O_TFAT] + s] = fat[taken].sum() if taken else 0
        for name, n in (seat.get("played") or {}).items():
            if name not in names:
                raise UserError(f"unknown card name {name!r}; names: {', '.join(names)}", key=where + ".played")
            g[rk[S.O_PLAYED] + s * E + names.index(name)] = n
    g[rk[S.O_INPLAY]:rk[S.O_INPLAY] + N] = inplay
    if state.get("ended"):
        g[S.G_ENDED] = 1
        g[S.G_REASON] = END_REASONS.index(state.get("end_reason") or END_REASONS[0])


def dump(rs, rk, g, winners) -> dict:
    """The JSON state of `g` (contract 15)."""
    P, m, N, Sn, E = (int(rk[k]) for k in (S.R_P, S.R_M, S.R_N, S.R_S, S.R_E))
    ckey = [k for k, _ in S.card_uids(rs)]
    skey = [k for k, _ in S.strike_uids(rs)]
    names = S.entity_names(rs)

    def cname(c):
        return ckey[c] if c < N else REVOLUTION

    def seg(o, n):
        return [int(x) for x in g[rk[o]:rk[o] + n]]

    deck = [cname(c) for c in g[rk[S.O_DECK] + g[S.G_DTOP]:rk[S.O_DECK] + g[S.G_DLEN]]]
    slots = []
    for i in range(m):
        s = int(g[rk[S.O_SLOT] + i])
        slots.append({"strike": None if s < 0 else skey[s],
                      "under": [skey[x] for x in g[rk[S.O_UNDER] + i * Sn:][:g[rk[S.O_UNDER_N] + i]]],
                      "tokens": [int(x) for x in g[rk[S.O_TOK] + i * P:][:P]],
                      "locks": [cname(x) for x in g[rk[S.O_LOCK] + i * N:][:g[rk[S.O_LOCK_N] + i]]]})
    seats = []
    for s in range(P):
        hand = [ckey[c] for c in range(N) if g[rk[S.O_HAND] + s * N + c]]
        played = {names[e]: int(g[rk[S.O_PLAYED] + s * E + e]) for e in range(E) if g[rk[S.O_PLAYED] + s * E + e]}
        seats.append({"hand": hand, "supply": int(g[rk[S.O_SUP] + s]),
                      "taken": [skey[x] for x in g[rk[S.O_TAKEN] + s * Sn:][:g[rk[S.O_TAKEN_N] + s]]],
                      "played": played})
    ended = bool(g[S.G_ENDED])
    return {"turn": int(g[S.G_TURN]), "current": int(g[S.G_CUR]), "revolutions_played": int(g[S.G_RP]),
            "revolutions_boxed": int(g[S.G_RB]), "deck": deck,
            "discard": [cname(c) for c in g[rk[S.O_DISC]:rk[S.O_DISC] + g[S.G_DISC_N]]],
            "strike_deck": [skey[x] for x in g[rk[S.O_SDECK] + g[S.G_SDTOP]:rk[S.O_SDECK] + g[S.G_SDLEN]]],
            "slots": slots, "removed": [ckey[c] for c in range(N) if g[rk[S.O_INPLAY] + c] == 2],
            "seats": seats, "ended": ended,
            "end_reason": END_REASONS[int(g[S.G_REASON])] if ended else None,
            "winners": [s for s in range(P) if winners[s]] if ended else []}
