"""Evo: a game state <-> JSON (contract section 15).

A state is always between phases (the next thing is phase `phase` of round `round`) or
ended. Genes, events and climate tokens go by name, zones by name, seats by index.
`dump(game)` writes the reference engine's state; `load(game, doc)` reads a JSON state,
checking it (UserError naming the key), into the reference Game's fields. Copies of a
name are interchangeable (section 2), so nothing here needs a uid.

Dumped order: `bag` and each seat's `genes` and `dinosaurs` sorted by uid (= by name);
`events` in the order received; piles top first; discards and reveals oldest first.
"""
from __future__ import annotations

from collections import Counter

from ...errors import UserError

PHASES = ("climate", "mutation", "initiative", "movement", "birth", "survival")
END_REASONS = ("meteorite",)


def players_of(state) -> int:
    seats = state.get("seats") if isinstance(state, dict) else None
    if not isinstance(seats, list) or not seats:
        raise UserError("a game state needs a non-empty list of seats", key="state.seats")
    return len(seats)


def dump(g) -> dict:
    out = {
        "round": g.round, "phase": g.phase, "sector": g.sector,
        "climate_pile": list(g.climate_pile), "climate_revealed": list(g.climate_revealed),
        "climate_out": list(g.climate_out),
        "bag": sorted(g.bag.elements()),
        "draws": list(g.draws), "dice": list(g.dice),
        "event_deck": list(g.event_deck), "event_discard": list(g.event_discard),
        "order": list(g.order),
    }
    if g.phase == "initiative" and not g.ended:
        out["lab"] = list(g.lab or [])
    if g.cursor and not g.ended:                 # mid-auction / mid-movement (until "turn")
        out["cursor"] = g.cursor
        if g.phase == "mutation":
            out["bids"] = [None if b is None else list(b) for b in g.bids]
    out.update({
        "decisions": list(g.decisions), "rolls": g.rolls,
        "seats": [{"mp": g.mp[s], "genes": sorted(g.genes[s].elements()), "events": list(g.hands[s]),
                   "dinosaurs": [g.map.names[z] for z in g.zones_of(s)]} for s in range(g.P)],
        "trajectory": [list(r) for r in g.trajectory],
        "ended": g.ended, "end_reason": g.end_reason, "winners": list(g.winners), "rounds": g.rounds,
    })
    return out


def _int(doc, name, default, lo=None, hi=None, where="state"):
    v = doc.get(name, default)
    if v is None and default is None:
        raise UserError("missing", key=f"{where}.{name}")
    if isinstance(v, bool) or not isinstance(v, int) or (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f" in {lo}..{hi}" if hi is not None else (f" >= {lo}" if lo is not None else "")
        raise UserError(f"must be a whole number{rng}, got {v!r}", key=f"{where}.{name}")
    return v


def _names(doc, name, known, what, where="state", default=()) -> list:
    v = doc.get(name, list(default))
    if not isinstance(v, list):
        raise UserError(f"must be a list of {what} names, got {v!r}", key=f"{where}.{name}")
    for i, x in enumerate(v):
        if x not in known:
            raise UserError(f"unknown {what} {x!r}; known: {', '.join(sorted(known))}", key=f"{where}.{name}[{i}]")
    return list(v)


def _cursor(doc, phase, P, p):
    """(cursor, bids): mid-auction / mid-movement, the next seat's place on the track, and
    mid-auction the markers, column -> (seat, value) or None."""
    cursor = _int(doc, "cursor", 0, lo=0, hi=P - 1)
    if cursor and phase not in ("mutation", "movement"):
        raise UserError("a cursor is only part of a state in the middle of an auction or a movement phase",
                        key="state.cursor")
    mid_auction = bool(cursor) and phase == "mutation"
    if "bids" in doc and not mid_auction:
        raise UserError("bids are only part of a state in the middle of an auction (phase mutation, cursor > 0)",
                        key="state.bids")
    if not mid_auction:
        return cursor, None
    bids = doc.get("bids")
    ok = isinstance(bids, list) and len(bids) == P
    for b in bids if ok else []:
        ok = ok and (b is None or (isinstance(b, list) and len(b) == 2
                                   and all(isinstance(x, int) and not isinstance(x, bool) for x in b)
                                   and 0 <= b[0] < P and p["min_bid"] <= b[1] <= p["max_bid"]))
    seats = [b[0] for b in bids if b is not None] if ok else []
    if not ok or len(seats) != len(set(seats)):
        raise UserError(f"must list {P} columns, each [seat, value] (a seat at most once) or null, got {bids!r}",
                        key="state.bids")
    return cursor, [None if b is None else tuple(b) for b in bids]


def load(g, doc: dict) -> dict:
    """The fields of reference.Game from a JSON state (UserError naming the key if it is wrong)."""
    if not isinstance(doc, dict):
        raise UserError("a game state must be a table", key="state")
    P, comps, p = g.P, g.comps, g.p
    f: dict = {}
    f["round"] = _int(doc, "round", None, lo=1)
    f["phase"] = doc.get("phase", "climate")
    if f["phase"] not in PHASES:
        raise UserError(f"must be one of {', '.join(PHASES)}, got {f['phase']!r}", key="state.phase")
    f["sector"] = _int(doc, "sector", p["wheel_start"], lo=0, hi=g.S - 1)
    tokens = set(comps.token_rows)
    f["climate_pile"] = _names(doc, "climate_pile", tokens, "climate token")
    f["climate_revealed"] = _names(doc, "climate_revealed", tokens, "climate token")
    f["climate_out"] = _names(doc, "climate_out", tokens, "climate token")
    genes = set(comps.gene_rows)
    f["bag"] = Counter(_names(doc, "bag", genes, "gene"))
    draws = _names(doc, "draws", genes, "gene")
    if len(set(draws)) != len(draws) or any(Counter(draws)[n] > f["bag"][n] for n in draws) or len(draws) > P - 1:
        raise UserError(f"forced draws must be distinct gene names found in the bag, at most {P - 1}; got {draws}",
                        key="state.draws")
    f["draws"] = draws
    f["dice"] = _names(doc, "dice", set(comps.face_rows), "die face")
    events = set(comps.event_rows)
    f["event_deck"] = _names(doc, "event_deck", events, "event")
    f["event_discard"] = _names(doc, "event_discard", events, "event")
    order = doc.get("order", list(range(P)))
    if not isinstance(order, list) or sorted(order) != list(range(P)):
        raise UserError(f"must list every seat 0..{P - 1} once, got {order!r}", key="state.order")
    f["order"] = list(order)
    lab = doc.get("lab")
    if lab is not None:
        if f["phase"] != "initiative":
            raise UserError("a lab is only part of a state whose next phase is initiative", key="state.lab")
        if (not isinstance(lab, list) or len(lab) != P
                or any(x is not None and x not in range(P) for x in lab)
                or len([x for x in lab if x is not None]) != len({x for x in lab if x is not None})):
            raise UserError(f"must list {P} columns, each a seat (at most once) or null, got {lab!r}",
                            key="state.lab")
    f["lab"] = lab
    f["cursor"], f["bids"] = _cursor(doc, f["phase"], P, p)
    dec = doc.get("decisions", [0] * P)
    if not isinstance(dec, list) or len(dec) != P or any(isinstance(d, bool) or not isinstance(d, int) or d < 0
                                                         for d in dec):
        raise UserError(f"must be {P} non-negative whole numbers, got {dec!r}", key="state.decisions")
    f["decisions"] = list(dec)
    f["rolls"] = _int(doc, "rolls", 0, lo=0)
    zones = {name: z for z, name in enumerate(g.map.names)}
    f["owner"] = [-1] * g.Z
    f["mp"], f["genes"], f["hands"] = [], [], []
    for s, seat in enumerate(doc["seats"]):
        where = f"state.seats[{s}]"
        if not isinstance(seat, dict):
            raise UserError("a seat must be a table {mp, genes, events, dinosaurs}", key=where)
        f["mp"].append(_int(seat, "mp", p["start_mp"], lo=0, where=where))
        f["genes"].append(Counter(_names(seat, "genes", genes, "gene", where)))
        f["hands"].append(_names(seat, "events", events, "event", where))
        dinos = _names(seat, "dinosaurs", set(zones), "zone", where)
        if len(dinos) > p["dinosaurs_per_player"]:
            raise UserError(f"{len(dinos)} dinosaurs; a clan has {p['dinosaurs_per_player']} "
                            "(dinosaurs_per_player)", key=f"{where}.dinosaurs")
        for name in dinos:
            if f["owner"][zones[name]] != -1:
                raise UserError(f"zone {name!r} already holds a dinosaur (one per zone)", key=f"{where}.dinosaurs")
            f["owner"][zones[name]] = s
    traj = doc.get("trajectory", [])
    if not isinstance(traj, list) or any(not isinstance(r, list) or len(r) != P for r in traj):
        raise UserError(f"must be a list of rows of {P} MP", key="state.trajectory")
    f["trajectory"] = [list(r) for r in traj]
    f["ended"] = bool(doc.get("ended", False))
    reason = doc.get("end_reason")
    if reason is not None and reason not in END_REASONS:
        raise UserError(f"must be one of {', '.join(END_REASONS)} or null, got {reason!r}", key="state.end_reason")
    if f["ended"] and reason is None:
        reason = END_REASONS[0]
    f["end_reason"] = reason
    f["rounds"] = _int(doc, "rounds", f["round"] - 1, lo=0)
    f["winners"] = []
    return f
