"""Ernesto Capybara: card and strike numbering, and a game state <-> JSON (contract 1, 15).

`components(rs)` numbers the cards as contract section 1 says (uids by design key, then
copy index; Revolutions after the capybara cards; strikes in their own uid space).
`resolve(rs, comps, state)` reads a JSON state (cards by key, strikes by name) into plain
uid-level fields, checking it (UserError naming the key); `dump(comps, fields)` writes
them back. Copies of one key are interchangeable: a loaded copy takes the lowest unused
uid of its key, in the order seats, deck, discard, slots, removed (strikes: slots, strike
deck, taken).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import UserError
from ..checks import Removal
from .schema import design_key, shuffle_id

REVOLUTION = "Revolution"
END_REASONS = ("revolution", "boxed")


@dataclass(frozen=True)
class Components:
    """Every physical card of a ruleset, by uid (shapes: N capybara cards, R Revolutions, S strikes)."""

    card_key: tuple        # (N + R,) design key per card uid; "Revolution" for uids N..N+R-1
    card_name: tuple       # (N + R,) card name (the tally entity) per uid
    card_colour: tuple     # (N + R,) colour, "" for Capybaranka and Revolution
    card_effect: tuple     # (N + R,) effect word ("none" for a Revolution)
    card_amount: tuple     # (N + R,) amount
    n_capybara: int        # N
    names: tuple           # (E,) the tally entities: card names in first-appearance row order
    strike_name: tuple     # (S,) per strike uid
    strike_fatigue: tuple  # (S,)
    strike_symbol: tuple   # (S,) "none" or a symbol word
    strike_colour: tuple   # (S,) the banned colour of a banned_colour strike, else ""
    card_active: tuple     # (N + R,) the row's `active` flag (knockouts; Revolutions 1)
    strike_active: tuple   # (S,) the row's `active` flag
    card_sid: tuple        # (N + R,) shuffle address per card uid (schema.shuffle_id)
    strike_sid: tuple      # (S,) shuffle address per strike uid

    def is_revolution(self, uid: int) -> bool:
        return uid >= self.n_capybara


def components(rs) -> Components:
    """Number the cards and strikes of a ruleset (contract section 1)."""
    rows = {design_key(r): r for r in rs.tables["cards"]}
    pairs = sorted((key, c) for key, r in rows.items() for c in range(r["copies"]))
    keys = [k for k, _ in pairs]
    n = len(keys)
    rev = rs["revolutions"]
    names = []
    for r in rs.tables["cards"]:
        if r["name"] not in names:
            names.append(r["name"])
    srows = {r["name"]: r for r in rs.tables["strikes"]}
    spairs = sorted((name, c) for name, r in srows.items() for c in range(r["copies"]))
    snames = [s for s, _ in spairs]
    return Components(
        card_key=tuple(keys + [REVOLUTION] * rev),
        card_name=tuple([rows[k]["name"] for k in keys] + [REVOLUTION] * rev),
        card_colour=tuple([rows[k]["colour"] for k in keys] + [""] * rev),
        card_effect=tuple([rows[k]["effect"] for k in keys] + ["none"] * rev),
        card_amount=tuple([rows[k]["amount"] for k in keys] + [0] * rev),
        n_capybara=n, names=tuple(names),
        strike_name=tuple(snames),
        strike_fatigue=tuple(srows[s]["fatigue"] for s in snames),
        strike_symbol=tuple(srows[s]["symbol"] for s in snames),
        strike_colour=tuple(srows[s]["colour"] for s in snames),
        card_active=tuple([rows[k]["active"] for k in keys] + [1] * rev),
        strike_active=tuple(srows[s]["active"] for s in snames),
        card_sid=tuple([shuffle_id("card", k, c) for k, c in pairs]
                       + [shuffle_id("revolution", REVOLUTION, i) for i in range(rev)]),
        strike_sid=tuple(shuffle_id("strike", s, c) for s, c in spairs),
    )


class _Pool:
    """Hands out the lowest unused uid of a key; UserError for unknown or too many copies."""

    def __init__(self, keys, what: str):
        self.free: dict[str, list[int]] = {}
        for uid, k in enumerate(keys):
            self.free.setdefault(k, []).append(uid)
        self.what = what

    def take(self, key, where: str) -> int:
        if not isinstance(key, str) or key not in self.free:
            known = ", ".join(sorted(self.free))
            raise UserError(f"unknown {self.what} {key!r}; expected one of: {known}", key=where)
        if not self.free[key]:
            raise UserError(f"more copies of {key!r} than the data has", key=where)
        return self.free[key].pop(0)


def _list(doc: dict, name: str, where: str) -> list:
    v = doc.get(name, [])
    if not isinstance(v, list):
        raise UserError(f"must be a list, got {v!r}", key=f"{where}{name}")
    return v


def _int(doc: dict, name: str, default, where: str, lo=0, hi=None) -> int:
    v = doc.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise UserError(f"must be a whole number {span}, got {v!r}", key=f"{where}{name}")
    return v


def resolve(rs, comps: Components, state: dict) -> dict:
    """A JSON state (contract section 15) as uid-level fields, checked."""
    if not isinstance(state, dict):
        raise UserError("a game state must be a JSON object", key="state")
    seats = state.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise UserError("a game state needs a list of seat objects", key="state.seats")
    P = len(seats)
    if not rs["players_min"] <= P <= rs["players_max"]:
        raise UserError(f"{P} seats; this ruleset plays {rs['players_min']}..{rs['players_max']} players",
                        key="state.seats")
    m = P + rs["strikes_extra"]
    cards = _Pool(comps.card_key[:comps.n_capybara], "card")
    strikes = _Pool(comps.strike_name, "strike")
    revs = list(range(comps.n_capybara, len(comps.card_key)))
    out: dict = {"players": P}
    out["turn"] = _int(state, "turn", 0, "state.")
    out["current"] = _int(state, "current", 0, "state.", 0, P - 1)
    out["revolutions_played"] = _int(state, "revolutions_played", 0, "state.", 0, rs["revolutions"])
    out["revolutions_boxed"] = _int(state, "revolutions_boxed", 0, "state.", 0, rs["revolutions"])
    hands = []
    for s, seat in enumerate(seats):
        hands.append(sorted(cards.take(k, f"state.seats[{s}].hand") for k in _list(seat, "hand", f"state.seats[{s}].")))
    deck = []
    for k in _list(state, "deck", "state."):
        if k == REVOLUTION:
            if not revs:
                raise UserError(f"more Revolutions than the {rs['revolutions']} of the ruleset", key="state.deck")
            deck.append(revs.pop(0))
        else:
            deck.append(cards.take(k, "state.deck"))
    discard = [cards.take(k, "state.discard") for k in _list(state, "discard", "state.")]
    raw_slots = _list(state, "slots", "state.")
    if len(raw_slots) != m:
        raise UserError(f"{P} players need {m} strike slots (players + strikes_extra), got {len(raw_slots)}",
                        key="state.slots")
    slots = []
    for i, sl in enumerate(raw_slots):
        w = f"state.slots[{i}]."
        if not isinstance(sl, dict):
            raise UserError("a slot must be an object", key=w[:-1])
        tokens = sl.get("tokens", [0] * P)
        if (not isinstance(tokens, list) or len(tokens) != P
                or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in tokens)):
            raise UserError(f"must be {P} whole numbers >= 0 (one per seat), got {tokens!r}", key=w + "tokens")
        name = sl.get("strike")
        strike = None if name is None else strikes.take(name, w + "strike")
        under = [strikes.take(n, w + "under") for n in _list(sl, "under", w)]
        locks = [cards.take(k, w + "locks") for k in _list(sl, "locks", w)]
        if strike is None and (under or locks or any(tokens)):
            raise UserError("an empty slot (strike null) holds no tokens, under-cards or locks", key=w[:-1])
        slots.append({"strike": strike, "under": under, "tokens": list(tokens), "locks": locks})
    removed = [cards.take(k, "state.removed") for k in _list(state, "removed", "state.")]
    strike_deck = [strikes.take(n, "state.strike_deck") for n in _list(state, "strike_deck", "state.")]
    supply, taken, played = [], [], []
    for s, seat in enumerate(seats):
        w = f"state.seats[{s}]."
        on = sum(sl["tokens"][s] for sl in slots)
        sup = _int(seat, "supply", rs["tokens_per_player"] - on, w)
        if sup + on != rs["tokens_per_player"]:
            raise UserError(f"supply {sup} + {on} tokens on strikes must make tokens_per_player = "
                            f"{rs['tokens_per_player']}", key=w + "supply")
        supply.append(sup)
        taken.append([strikes.take(n, w + "taken") for n in _list(seat, "taken", w)])
        counts = seat.get("played", {})
        if not isinstance(counts, dict):
            raise UserError("must map card names to counts", key=w + "played")
        row = [0] * len(comps.names)
        for name, c in counts.items():
            if name not in comps.names:
                raise UserError(f"unknown card name {name!r}; expected one of: {', '.join(comps.names)}",
                                key=w + "played")
            row[comps.names.index(name)] = _int(counts, name, 0, w + "played.")
        played.append(row)
    ended = bool(state.get("ended", False))
    reason = state.get("end_reason")
    if reason is not None and reason not in END_REASONS:
        raise UserError(f"must be one of {', '.join(END_REASONS)} or null, got {reason!r}", key="state.end_reason")
    if ended != (reason is not None):
        raise UserError("an ended state names its end_reason, a live one has none (null)", key="state.end_reason")
    in_deck = sum(1 for u in deck if comps.is_revolution(u))
    if not ended and out["revolutions_played"] + out["revolutions_boxed"] + in_deck != rs["revolutions"]:
        raise UserError(f"played ({out['revolutions_played']}) + boxed ({out['revolutions_boxed']}) + in the deck "
                        f"({in_deck}) Revolutions must make revolutions = {rs['revolutions']}", key="state.deck")
    out.update(hands=hands, deck=deck, discard=discard, slots=slots, removed=removed, strike_deck=strike_deck,
               supply=supply, taken=taken, played=played, ended=ended, end_reason=reason,
               winners=[])     # recomputed from the table when ended (reference.Game.load)
    check_in_play(rs, state)
    return out


def _small_rule(rs, what: str, param: str) -> str:
    return (f"the rulebook returns {what} (small_game_{param} = {rs['small_game_' + param]}) to the box "
            f"with up to small_game_max_players = {rs['small_game_max_players']} players")


def setup_removals(rs, players: int) -> list[Removal]:
    """Setup step 3 as data: with up to small_game_max_players players, the cards of
    small_game_removed_colours colours and small_game_removed_cancels Capybarankas are out."""
    if players > rs["small_game_max_players"]:
        return []
    out = []
    if rs["small_game_removed_colours"]:
        out.append(Removal("colour", "the cards of one colour", _small_rule(rs, "the cards of a colour", "removed_colours")))
    if rs["small_game_removed_cancels"]:
        out.append(Removal("cancel", "Capybaranka", _small_rule(rs, "a Capybaranka", "removed_cancels")))
    return out


def check_in_play(rs, state: dict) -> None:
    """No state holds what setup step 3 put in the box: with up to small_game_max_players
    players, at most C - small_game_removed_colours colours and all but
    small_game_removed_cancels Capybarankas in play (hands, deck, discard pile, locks).
    Both engines' loaders call it on the JSON state (cards by key)."""
    P = len(state["seats"])
    if P > rs["small_game_max_players"]:
        return
    rows = {design_key(r): r for r in rs.tables["cards"]}
    def listed(doc, name):
        v = doc.get(name, []) if isinstance(doc, dict) else []
        return v if isinstance(v, list) else []

    keys = [k for seat in state["seats"] for k in listed(seat, "hand")] + listed(state, "deck") \
        + listed(state, "discard") + [k for sl in listed(state, "slots") for k in listed(sl, "locks")]
    capy = [rows[k] for k in keys if isinstance(k, str) and k in rows]
    colours = sorted({r["colour"] for r in capy if r["colour"]})
    n_colours = len(rs["colours"]) - rs["small_game_removed_colours"]
    if len(colours) > n_colours:
        raise UserError(f"cards of {len(colours)} colours ({', '.join(colours)}) are in play with {P} players, "
                        f"at most {n_colours}: {_small_rule(rs, 'the cards of a colour', 'removed_colours')}",
                        key="state")
    n_cancels = sum(r["copies"] for r in rows.values() if r["effect"] == "cancel") - rs["small_game_removed_cancels"]
    held = sum(1 for r in capy if r["effect"] == "cancel")
    if held > n_cancels:
        raise UserError(f"{held} Capybarankas are in play with {P} players, at most {n_cancels}: "
                        f"{_small_rule(rs, 'a Capybaranka', 'removed_cancels')}", key="state")


def dump(comps: Components, f: dict) -> dict:
    """uid-level fields (as `resolve` returns them) as the JSON state of contract section 15."""
    ck, sn = comps.card_key, comps.strike_name
    return {
        "turn": f["turn"], "current": f["current"],
        "revolutions_played": f["revolutions_played"], "revolutions_boxed": f["revolutions_boxed"],
        "deck": [ck[u] for u in f["deck"]],
        "discard": [ck[u] for u in f["discard"]],
        "strike_deck": [sn[u] for u in f["strike_deck"]],
        "slots": [{"strike": None if sl["strike"] is None else sn[sl["strike"]],
                   "under": [sn[u] for u in sl["under"]], "tokens": list(sl["tokens"]),
                   "locks": [ck[u] for u in sl["locks"]]} for sl in f["slots"]],
        "removed": [ck[u] for u in f["removed"]],
        "seats": [{"hand": [ck[u] for u in sorted(f["hands"][s])], "supply": f["supply"][s],
                   "taken": [sn[u] for u in f["taken"][s]],
                   "played": {name: c for name, c in zip(comps.names, f["played"][s]) if c}}
                  for s in range(f["players"])],
        "ended": f["ended"], "end_reason": f["end_reason"], "winners": list(f["winners"]),
    }
