"""The evo JSON game state (contract 15) <-> the batch engine's packed arrays (state.py).

Genes, events and tokens are named; copies of one name are alike, so loaded copies take
that name's uids in order of appearance (contract 15 allows any). The bag and the seats'
boards are counts per gene name. A state is between phases; the `lab` is only read and
written with phase "initiative" (the columns the seats took in the mutation phase).
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from . import state as S
from .codes import END_REASONS, PHASES
from .schema import uid_order

_FIELDS = ("round", "phase", "sector", "climate_pile", "climate_revealed", "climate_out", "bag", "draws",
           "dice", "event_deck", "event_discard", "order", "lab", "cursor", "bids",
           "decisions", "rolls", "seats", "trajectory",
           "ended", "end_reason", "winners", "rounds")


def players_of(state: dict) -> int:
    seats = state.get("seats") if isinstance(state, dict) else None
    if not isinstance(seats, list) or not seats:
        raise UserError("a game state needs a non-empty list of seats", key="state.seats")
    return len(seats)


def rounds_needed(state: dict) -> int:
    """Trajectory rows a state can reach: those it has, plus one per climate token left."""
    traj, pile = state.get("trajectory") or [], state.get("climate_pile") or []
    return (len(traj) if isinstance(traj, list) else 0) + (len(pile) if isinstance(pile, list) else 0) + 1


def trajectory_rows(pk: S.Packed) -> int:
    return int(pk.g[S.G_TRAJ_N])


class _Uids:
    """Hands out the uids of each name's copies in order of appearance."""

    _FREE: dict = {}         # id(rows) -> (rows, name -> its uids): uid_order once per table

    def __init__(self, rows, what):
        hit = _Uids._FREE.get(id(rows))
        if hit is None or hit[0] is not rows:
            free: dict[str, list[int]] = {}
            for uid, (name, _) in enumerate(uid_order(rows)):
                free.setdefault(name, []).append(uid)
            hit = _Uids._FREE[id(rows)] = (rows, free)
        self.free = {name: list(uids) for name, uids in hit[1].items()}
        self.what = what

    def take(self, name, where):
        if not isinstance(name, str) or name not in self.free:
            raise UserError(f"unknown {self.what} {name!r}; known: {', '.join(sorted(self.free))}", key=where)
        if not self.free[name]:
            raise UserError(f"more copies of {self.what} {name!r} than the data holds", key=where)
        return self.free[name].pop(0)


def _int(state, k, default=None, lo=0, hi=None, where="state"):
    v = state.get(k, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise UserError(f"expected an integer {rng}, got {v!r}", key=f"{where}.{k}")
    return v


def _list(v, where, n=None):
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise UserError(f"expected a list{'' if n is None else f' of {n}'}, got {v!r}", key=where)
    return v


def _gene(names, name, where):
    if not isinstance(name, str) or name not in names:
        raise UserError(f"unknown gene {name!r}; known: {', '.join(names)}", key=where)
    return names.index(name)


def load(rs, pk: S.Packed, state: dict, game: int) -> None:
    """Fill pk.g (its scripts kept) from a JSON state; UserError naming the field."""
    from .decisions import set_traits
    rk, g = pk.rk, pk.g
    unknown = sorted(set(state) - set(_FIELDS))
    if unknown:
        raise UserError(f"unknown field(s) {', '.join(unknown)}; fields: {', '.join(_FIELDS)}", key="state")
    P, Z, E = int(rk[S.R_P]), int(rk[S.R_Z]), int(rk[S.R_E])
    NEV, R = int(rk[S.R_NEV]), int(rk[S.R_TRAJ])
    g[:rk[S.O_SCRIPT]] = 0
    g[rk[S.O_SPOS]:] = 0
    g[S.G_GAME] = game
    g[S.G_ROUND] = _int(state, "round", lo=1)
    phase = state.get("phase")
    if phase not in PHASES:
        raise UserError(f"expected one of {', '.join(PHASES)}, got {phase!r}", key="state.phase")
    g[S.G_PHASE] = PHASES.index(phase)
    g[S.G_SECTOR] = _int(state, "sector", hi=int(rk[S.R_S]) - 1)
    tokens = _Uids(rs.tables["climate"], "climate token")
    for field, at, count in (("climate_pile", S.O_PILE, S.G_PILE_N), ("climate_revealed", S.O_REV, S.G_REV_N),
                             ("climate_out", S.O_OUT, S.G_OUT_N)):
        names = _list(state.get(field, []), f"state.{field}")
        for k, name in enumerate(names):
            g[rk[at] + k] = tokens.take(name, f"state.{field}")
        g[count] = len(names)
    genes = S.gene_names(rs)
    for name in _list(state.get("bag", []), "state.bag"):
        g[rk[S.O_BAG] + _gene(genes, name, "state.bag")] += 1
    draws = _list(state.get("draws", []), "state.draws")
    if len(draws) > P - 1 or len(set(map(str, draws))) != len(draws):
        raise UserError(f"at most {P - 1} distinct gene names (one per gene column), got {draws!r}",
                        key="draws")
    for k, name in enumerate(draws):
        e = _gene(genes, name, "draws")
        if g[rk[S.O_BAG] + e] < 1:
            raise UserError(f"forced draw {name!r} is not in the bag", key="draws")
        g[rk[S.O_DRAWS] + k] = e
    g[S.G_DRAWS_N] = len(draws)
    faces = _uid_names(rs.tables["die"])
    dice = _list(state.get("dice", []), "state.dice")
    if len(dice) > int(rk[S.R_DICE]):
        raise UserError(f"at most {int(rk[S.R_DICE])} forced die faces", key="state.dice")
    for k, name in enumerate(dice):
        if name not in faces:
            raise UserError(f"unknown die face {name!r}; faces: {', '.join(sorted(set(faces)))}", key="state.dice")
        g[rk[S.O_DICE] + k] = faces.index(name)
    g[S.G_DICE_N] = len(dice)
    events = _Uids(rs.tables["events"], "event card")
    deck = _list(state.get("event_deck", []), "state.event_deck")
    for k, name in enumerate(deck):
        g[rk[S.O_DECK] + k] = events.take(name, "state.event_deck")
    g[S.G_DECK_N] = len(deck)
    disc = _list(state.get("event_discard", []), "state.event_discard")
    for k, name in enumerate(disc):
        g[rk[S.O_DISC] + k] = events.take(name, "state.event_discard")
    g[S.G_DISC_N] = len(disc)
    # the per-game tallies are not in a state: `events` is the discard pile (every card played
    # goes there); attacks, kills, births and climate deaths count from the loaded state on
    g[S.G_EVENTS] = len(disc)
    order = _list(state.get("order"), "state.order", P)
    if sorted(order) != list(range(P)):
        raise UserError(f"expected the seats 0..{P - 1} in some order, got {order!r}", key="state.order")
    g[rk[S.O_ORDER]:rk[S.O_ORDER] + P] = order
    g[rk[S.O_LAB_SEAT]:rk[S.O_LAB_SEAT] + P] = -1
    g[rk[S.O_LAB_GENE]:rk[S.O_LAB_GENE] + P] = -1
    g[rk[S.O_COL]:rk[S.O_COL] + P] = -1
    if phase == "initiative":
        lab = _list(state.get("lab"), "state.lab", P)
        for c, s in enumerate(lab):
            if s is None:
                continue
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < P or lab.count(s) > 1:
                raise UserError(f"column {c}: expected a seat 0..{P - 1} (each at most once) or null, got {s!r}",
                                key="state.lab")
            g[rk[S.O_LAB_SEAT] + c] = s
            g[rk[S.O_COL] + s] = c
    _load_cursor(rk, g, state, phase, P)
    dec = _list(state.get("decisions", [0] * P), "state.decisions", P)
    for s, d in enumerate(dec):
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise UserError(f"expected non-negative integers, got {dec!r}", key="state.decisions")
        g[rk[S.O_DCNT] + s] = d
    g[S.G_ROLLS] = _int(state, "rolls", 0)
    zones = S.map_of(rs, P).names
    g[rk[S.O_OWNER]:rk[S.O_OWNER] + Z] = -1
    for s, seat in enumerate(state["seats"]):
        where = f"state.seats[{s}]"
        if not isinstance(seat, dict):
            raise UserError(f"expected an object with mp, genes, events, dinosaurs, got {seat!r}", key=where)
        g[rk[S.O_MP] + s] = _int(seat, "mp", where=where)
        for name in _list(seat.get("genes", []), f"{where}.genes"):
            g[rk[S.O_HELD] + s * E + _gene(genes, name, f"{where}.genes")] += 1
        # the tally `won` is not in a state: genes never leave a board, so a game from setup
        # has won == its board; a continued game starts its tally from the board (section 12)
        g[rk[S.O_WON] + s * E:rk[S.O_WON] + (s + 1) * E] = g[rk[S.O_HELD] + s * E:rk[S.O_HELD] + (s + 1) * E]
        hand = _list(seat.get("events", []), f"{where}.events")
        for k, name in enumerate(hand):
            g[rk[S.O_HAND] + s * NEV + k] = events.take(name, f"{where}.events")
        g[rk[S.O_HAND_N] + s] = len(hand)
        dinos = _list(seat.get("dinosaurs", []), f"{where}.dinosaurs")
        if len(dinos) > rk[S.R_CAP]:
            raise UserError(f"at most dinosaurs_per_player = {int(rk[S.R_CAP])} dinosaurs, got {len(dinos)}",
                            key=f"{where}.dinosaurs")
        for name in dinos:
            if name not in zones:
                raise UserError(f"unknown zone {name!r} on the {P}-player map", key=f"{where}.dinosaurs")
            z = zones.index(name)
            if g[rk[S.O_OWNER] + z] >= 0:
                raise UserError(f"zone {name!r} holds two dinosaurs (one per zone)", key=f"{where}.dinosaurs")
            g[rk[S.O_OWNER] + z] = s
            g[rk[S.O_COUNT] + s] += 1
            g[rk[S.O_ZSETS] + s * S.zone_words(Z) + z // S.ZBITS] |= 1 << (z % S.ZBITS)
    traj = _list(state.get("trajectory", []), "state.trajectory")
    if len(traj) > R:
        raise UserError(f"at most {R} rows", key="state.trajectory")
    for r, row in enumerate(traj):
        _list(row, f"state.trajectory[{r}]", P)
        g[rk[S.O_TRAJ] + r * P:rk[S.O_TRAJ] + (r + 1) * P] = row
    g[S.G_TRAJ_N] = len(traj)
    g[S.G_ENDED] = bool(state.get("ended", False))
    if g[S.G_ENDED]:
        if state.get("end_reason") not in END_REASONS:
            raise UserError(f"an ended state needs end_reason {END_REASONS[0]!r}", key="state.end_reason")
        g[S.G_REASON] = END_REASONS.index(state["end_reason"])
        g[S.G_ROUNDS] = _int(state, "rounds", len(traj))
    for s in range(P):
        set_traits(g, rk, s)


# The fields `determinize` re-deals (search.py): a determinization differs from the state it
# came from only in these, so `branch` loads one state fully and writes only these for the rest.
HIDDEN = ("climate_pile", "climate_revealed", "climate_out", "bag", "event_deck", "event_discard")


def same_public(a: dict, b: dict) -> bool:
    """True if states a and b differ at most in what `load_hidden` writes (HIDDEN and the
    seats' events)."""
    if a.keys() != b.keys() or len(a["seats"]) != len(b["seats"]):
        return False
    if any(a[k] != b[k] for k in a if k not in HIDDEN and k != "seats"):
        return False
    for x, y in zip(a["seats"], b["seats"]):
        if x.keys() != y.keys() or any(x[k] != y[k] for k in x if k != "events"):
            return False
    return True


def load_hidden(rs, rk, g, state: dict) -> None:
    """Write into g (a full `load` of a state with the same public part, `same_public`) the
    climate tokens, the bag, the event cards and the hands of `state`: afterwards g is what
    `load(state)` writes (tests/evo/test_search.py checks it word for word). A name `load`
    would reject is left to `load` (its error message)."""
    P, E, NEV, NCL = int(rk[S.R_P]), int(rk[S.R_E]), int(rk[S.R_NEV]), int(rk[S.R_NCL])
    try:
        tokens = _Uids(rs.tables["climate"], "climate token").free
        tokens = {name: iter(uids) for name, uids in tokens.items()}
        for field, at, count in (("climate_pile", S.O_PILE, S.G_PILE_N), ("climate_revealed", S.O_REV, S.G_REV_N),
                                 ("climate_out", S.O_OUT, S.G_OUT_N)):
            names = state.get(field, [])
            o = int(rk[at])
            g[o:o + NCL] = 0
            g[o:o + len(names)] = [next(tokens[name]) for name in names]
            g[count] = len(names)
        genes = _gene_index(rs)
        bag = [0] * E
        for name in state.get("bag", []):
            bag[genes[name]] += 1
        if any(bag[genes[name]] < 1 for name in state.get("draws", [])):
            raise KeyError("draws")
        events = _Uids(rs.tables["events"], "event card").free
        events = {name: iter(uids) for name, uids in events.items()}
        cards = []
        for field, at, count in (("event_deck", S.O_DECK, S.G_DECK_N), ("event_discard", S.O_DISC, S.G_DISC_N)):
            names = state.get(field, [])
            cards.append((int(rk[at]), [next(events[name]) for name in names]))
            g[count] = len(names)
        hands = [[next(events[name]) for name in seat.get("events", [])] for seat in state["seats"]]
    except (KeyError, StopIteration, TypeError):
        load(rs, S.Packed(rk, g, np.zeros(1, np.uint64)), state, 0)       # raises the user error
        raise RuntimeError("load_hidden: a state load accepts") from None
    o = int(rk[S.O_BAG])
    g[o:o + E] = bag
    for o, uids in cards:
        g[o:o + NEV] = 0
        g[o:o + len(uids)] = uids
    g[S.G_EVENTS] = g[S.G_DISC_N]
    o, on = int(rk[S.O_HAND]), int(rk[S.O_HAND_N])
    g[o:o + P * NEV] = 0
    for s, hand in enumerate(hands):
        g[o + s * NEV:o + s * NEV + len(hand)] = hand
        g[on + s] = len(hand)


_GENES: dict = {}


def _uid_names(rows) -> list[str]:
    """The name of each uid of a table (uid_order), once per table (not to be changed)."""
    hit = _NAMES.get(id(rows))
    if hit is None or hit[0] is not rows:
        hit = _NAMES[id(rows)] = (rows, [n for n, _ in uid_order(rows)])
    return hit[1]


_NAMES: dict = {}


def _gene_index(rs) -> dict:
    """Gene name -> its index in gene_names(rs), once per genes table."""
    rows = rs.tables["genes"]
    hit = _GENES.get(id(rows))
    if hit is None or hit[0] is not rows:
        hit = _GENES[id(rows)] = (rows, {n: e for e, n in enumerate(S.gene_names(rs))})
    return hit[1]


def _winners(mp, count) -> list[int]:
    best = max(zip(mp, count))
    return [s for s in range(len(mp)) if (mp[s], count[s]) == best]


def _load_cursor(rk, g, state, phase, P) -> None:
    """Mid-auction / mid-movement (contract 15, `cursor`): the next seat's place on the track,
    and mid-auction the markers `bids` (column -> [seat, value] or null)."""
    cursor = _int(state, "cursor", 0, hi=P - 1)
    if cursor and phase not in ("mutation", "movement"):
        raise UserError("a cursor is only part of a state in the middle of an auction or a movement phase",
                        key="state.cursor")
    g[S.G_CURSOR] = cursor
    g[rk[S.O_LAB_BID]:rk[S.O_LAB_BID] + P] = 0
    if "bids" in state and not (cursor and phase == "mutation"):
        raise UserError("bids are only part of a state in the middle of an auction (phase mutation, cursor > 0)",
                        key="state.bids")
    if not (cursor and phase == "mutation"):
        return
    bids = _list(state.get("bids"), "state.bids", P)
    for c, b in enumerate(bids):
        if b is None:
            continue
        if (not isinstance(b, list) or len(b) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in b)
                or not 0 <= b[0] < P or not rk[S.R_MIN_BID] <= b[1] <= rk[S.R_MAX_BID]):
            raise UserError(f"column {c}: expected [seat, value] or null, got {b!r}", key="state.bids")
        if [x for x in bids if x is not None and x[0] == b[0]] != [b]:
            raise UserError(f"seat {b[0]} holds two columns (a seat at most once)", key="state.bids")
        g[rk[S.O_LAB_SEAT] + c] = b[0]
        g[rk[S.O_LAB_BID] + c] = b[1]


def dump(rs, pk: S.Packed) -> dict:
    """The JSON state (contract 15) of pk.g."""
    rk, g = pk.rk, pk.g
    P, Z, E, NEV = int(rk[S.R_P]), int(rk[S.R_Z]), int(rk[S.R_E]), int(rk[S.R_NEV])
    genes = list(_gene_index(rs))
    tok = _uid_names(rs.tables["climate"])
    evn = _uid_names(rs.tables["events"])
    faces = _uid_names(rs.tables["die"])
    zones = S.map_of(rs, P).names

    def seg(at, a, b, names):
        return [names[int(x)] for x in g[rk[at] + a:rk[at] + b]]

    def bag_names(counts):       # by uid: name order, copies together
        return sorted(n for e, n in enumerate(genes) for _ in range(int(counts[e])))

    phase = PHASES[int(g[S.G_PHASE])]
    mp = [int(x) for x in g[rk[S.O_MP]:rk[S.O_MP] + P]]
    count = [int(x) for x in g[rk[S.O_COUNT]:rk[S.O_COUNT] + P]]
    owner = g[rk[S.O_OWNER]:rk[S.O_OWNER] + Z]
    seats = []
    for s in range(P):
        held = g[rk[S.O_HELD] + s * E:rk[S.O_HELD] + (s + 1) * E]
        seats.append({"mp": mp[s], "genes": bag_names(held),
                      "events": [evn[int(c)] for c in g[rk[S.O_HAND] + s * NEV:rk[S.O_HAND] + s * NEV
                                                        + g[rk[S.O_HAND_N] + s]]],
                      "dinosaurs": [zones[z] for z in range(Z) if owner[z] == s]})
    ended = bool(g[S.G_ENDED])
    out = {
        "round": int(g[S.G_ROUND]), "phase": phase, "sector": int(g[S.G_SECTOR]),
        "climate_pile": seg(S.O_PILE, g[S.G_PILE_TOP], g[S.G_PILE_N], tok),
        "climate_revealed": seg(S.O_REV, 0, g[S.G_REV_N], tok),
        "climate_out": seg(S.O_OUT, 0, g[S.G_OUT_N], tok),
        "bag": bag_names(g[rk[S.O_BAG]:rk[S.O_BAG] + E]),
        "draws": [genes[int(e)] for e in g[rk[S.O_DRAWS]:rk[S.O_DRAWS] + g[S.G_DRAWS_N]]],
        "dice": seg(S.O_DICE, g[S.G_DICE_POS], g[S.G_DICE_N], faces),
        "event_deck": seg(S.O_DECK, g[S.G_DECK_TOP], g[S.G_DECK_N], evn),
        "event_discard": seg(S.O_DISC, 0, g[S.G_DISC_N], evn),
        "order": [int(x) for x in g[rk[S.O_ORDER]:rk[S.O_ORDER] + P]],
        "decisions": [int(x) for x in g[rk[S.O_DCNT]:rk[S.O_DCNT] + P]],
        "rolls": int(g[S.G_ROLLS]),
        "seats": seats,
        "trajectory": [[int(x) for x in g[rk[S.O_TRAJ] + r * P:rk[S.O_TRAJ] + (r + 1) * P]]
                       for r in range(int(g[S.G_TRAJ_N]))],
        "ended": ended,
        "end_reason": END_REASONS[int(g[S.G_REASON])] if ended else None,
        "winners": _winners(mp, count) if ended else [],
        "rounds": int(g[S.G_ROUNDS]) if ended else int(g[S.G_TRAJ_N]),
    }
    if phase == "initiative":
        out["lab"] = [None if x < 0 else int(x) for x in g[rk[S.O_LAB_SEAT]:rk[S.O_LAB_SEAT] + P]]
    if g[S.G_CURSOR] and not ended:
        out["cursor"] = int(g[S.G_CURSOR])
        if phase == "mutation":
            out["bids"] = [None if g[rk[S.O_LAB_SEAT] + c] < 0
                           else [int(g[rk[S.O_LAB_SEAT] + c]), int(g[rk[S.O_LAB_BID] + c])] for c in range(P)]
    return out

