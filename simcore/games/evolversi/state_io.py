"""Game states as JSON-friendly dicts (cards by name), shared by both engines' scenarios.

`resolve(rs, comps, state)` turns names into uids with one fixed rule, so both engines
give a named card the same uid (shuffles are keyed by uid): a card named in a seat's piles
takes the first unused uid of that name among the seat animal's starting cards, then among
the Evolution cards; any other card named (market, common piles) takes the first unused
Evolution uid of that name, then any unused starting uid of that name. Events and Pressure
tokens resolve the same way in their own numbering. An unknown name is a UserError.

The state format (docs/games/evolversi.md, section 10) lists every field.
"""
from __future__ import annotations

from copy import deepcopy
from typing import Any

import numpy as np

from ...errors import UserError
from ...ruleset import Ruleset
from ..checks import Removal
from .components import Components
from .state import END_REASONS, END_TRACK, State, Tables, empty_state

PHASES = ("play", "order", "actions", "market")
STATE_KEYS = {"round", "phase", "turn", "order", "fourth_card", "fourth_round", "totem", "supply", "market",
              "evolution_deck", "evolution_discard", "event_deck", "event_discard", "pressure", "shuffles",
              "seats", "ended", "end_reason", "winners"}
SEAT_KEYS = {"animal", "position", "fury", "tokens", "deck", "discard", "hand", "above", "below", "revealed",
             "shuffles", "bought", "decisions"}
SEAT_PILES = ("deck", "discard", "hand", "above", "below")
COMMON_PILES = ("evolution_deck", "evolution_discard")


def card_name(rs: Ruleset, comps: Components, uid: int) -> str:
    return rs.tables["cards"][comps.card_row[uid]]["name"]


def event_name(rs: Ruleset, comps: Components, uid: int) -> str:
    return rs.tables["events"][comps.event_row[uid]]["name"]


class _Pool:
    """The uids still free while one state is resolved. A name takes the first unused uid
    of that name in the seat's own starting cards, then the Evolution deck, then the other
    animals' starting cards (each in numbering order); each name's in-play check runs once."""

    def __init__(self, rs, comps):
        self.rs, self.comps = rs, comps
        self.used: set[int] = set()
        self.used_events: set[int] = set()
        self.by_name = _uids_by_name(rs, comps)
        self.checked: set[tuple[str, str]] = set()

    def _take(self, uids):
        for uid in uids:
            if uid not in self.used:
                self.used.add(uid)
                return uid
        return None

    def _check(self, table: str, name: str, where: str) -> None:
        if (table, name) not in self.checked:
            _check_in_play(self.rs, self.comps.players, table, name, where)
            self.checked.add((table, name))

    def card(self, name: str, animal: int | None, where: str) -> int:
        self._check("cards", name, where)
        for group in self.by_name["order"][animal]:
            uids = group.get(name)
            uid = self._take(uids) if uids else None
            if uid is not None:
                return uid
        raise UserError(f"no unused card named {name!r} is in play (check its name, copies, module "
                        "and min_players)", key=where)

    def event(self, name: str, where: str) -> int:
        self._check("events", name, where)
        for uid in self.by_name["events"].get(name, ()):
            if uid not in self.used_events:
                self.used_events.add(uid)
                return uid
        raise UserError(f"no unused Event named {name!r} is in play", key=where)


_BY_NAME: dict[int, tuple] = {}      # id(comps) -> (comps, rs.hash, the index): built once per table set


def _uids_by_name(rs: Ruleset, comps: Components) -> dict:
    """{"order": animal (or None) -> the card groups {name: uids} in _Pool.card's order,
    "events": {name: uids}}, each uid list in numbering order (a search resolves thousands
    of states: no scans)."""
    cached = _BY_NAME.get(id(comps))
    if cached is not None and cached[0] is comps and cached[1] == rs.hash:
        return cached[2]

    def group(uids, name_of):
        out: dict[str, list[int]] = {}
        for uid in uids:
            out.setdefault(name_of(rs, comps, uid), []).append(uid)
        return out
    starting = [group(u, card_name) for u in comps.starting]
    evolution = group(comps.evolution, card_name)
    order = {None: [evolution, *starting]}          # animal -> the groups in the order searched
    order.update({a: [starting[a], evolution, *(g for i, g in enumerate(starting) if i != a)]
                  for a in range(len(starting))})
    index = {"order": order, "events": group(range(len(comps.event_row)), event_name)}
    _BY_NAME[id(comps)] = (comps, rs.hash, index)
    return index


def plain_copy(x):
    """A deep copy of a JSON-like value (dicts, lists, scalars; a tuple becomes a list):
    copy.deepcopy's memo costs a search more than its states' resolving."""
    if type(x) is dict:
        return {k: plain_copy(v) for k, v in x.items()}
    if type(x) is list or type(x) is tuple:
        return [plain_copy(v) for v in x]
    return x


def _out_of_play(rs: Ruleset, players: int, table: str, name: str) -> list[str]:
    """Why the set-up removes every row named `name` of `table` at `players` (a '3+'
    component with fewer animals, or a module not in play); [] if one is in play."""
    why = []
    for r in rs.tables[table]:
        if r["name"] != name:
            continue
        if r["min_players"] > players:
            why.append(f"min_players {r['min_players']} in {table}.csv row {r['_row']}")
        elif "module" in r and r["module"] not in rs["modules"]:
            why.append(f"module {r['module']!r} is not in modules = {list(rs['modules'])}")
        elif table == "cards" and r["deck"] == "starting":
            animal = next(a for a in rs.tables["animals"] if a["name"] == r["animal"])
            if animal["min_players"] > players:
                why.append(f"its animal, the {r['animal']}, has min_players {animal['min_players']}")
            else:
                return []
        else:
            return []
    return why


_KIND = {"cards": "card", "events": "Event", "animals": "animal"}


def _check_in_play(rs: Ruleset, players: int, table: str, name: str, where: str) -> None:
    """A card, Event or animal the set-up removes cannot be in a game state: a UserError
    names it and why (an unknown name: the caller's own error lists what is known)."""
    why = _out_of_play(rs, players, table, name)
    if why:
        raise UserError(f"the {_KIND[table]} {name!r} is not in play with {players} animals ({'; '.join(why)})",
                        key=where)


def setup_removals(rs: Ruleset, players: int) -> list[Removal]:
    """What the set-up returns to the box at `players` and not with the most players (the
    '3+' animal, its starting cards, '3+' Evolution cards and Events), as data."""
    out = []
    for table in ("animals", "cards", "events"):
        for name in dict.fromkeys(r["name"] for r in rs.tables[table]):
            why = _out_of_play(rs, players, table, name)
            if why and not _out_of_play(rs, rs["players_max"], table, name):
                out.append(Removal(_KIND[table].lower(), name, "; ".join(why)))
    return out


def _require(state: dict, key: str, kind, where: str = "state"):
    if key not in state:
        raise UserError("missing field", key=f"{where}.{key}")
    value = state[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise UserError(f"must be a whole number, got {value!r}", key=f"{where}.{key}")
    if kind is list and not isinstance(value, list):
        raise UserError(f"must be a list, got {value!r}", key=f"{where}.{key}")
    return value


def _whole(value, key: str, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise UserError(f"must be a whole number in {rng}, got {value!r}", key=key)
    return value


def _check_shape(rs: Ruleset, players: int, state: dict) -> None:
    """Known keys only, and every number in range, so a typo never silently changes a scenario."""
    if not isinstance(state, dict):
        raise UserError("the state must be a table", key="state")
    for k in state:
        if k not in STATE_KEYS:
            raise UserError(f"unknown field; fields: {', '.join(sorted(STATE_KEYS))}", key=f"state.{k}")
    for i, seat in enumerate(state.get("seats", [])):
        if not isinstance(seat, dict):
            raise UserError("each seat must be a table", key=f"state.seats[{i}]")
        for k in seat:
            if k not in SEAT_KEYS:
                raise UserError(f"unknown seat field; fields: {', '.join(sorted(SEAT_KEYS))}",
                                key=f"state.seats[{i}].{k}")
        where = f"state.seats[{i}]"
        if "position" in seat:
            _whole(seat["position"], f"{where}.position", 0, rs["track_length"])
        if "fury" in seat:
            _whole(seat["fury"], f"{where}.fury", 0, rs["fury_max"])
        if "tokens" in seat:
            _whole(seat["tokens"], f"{where}.tokens", 0, rs["token_supply"])
        if "shuffles" in seat:
            _whole(seat["shuffles"], f"{where}.shuffles", 0)
        if "decisions" in seat:
            _whole(seat["decisions"], f"{where}.decisions", 0)
        for pile in SEAT_PILES:
            if not isinstance(seat.get(pile, []), list):
                raise UserError("must be a list of card names", key=f"{where}.{pile}")
    if "round" in state:
        _whole(state["round"], "state.round", 1)
    if "totem" in state:
        _whole(state["totem"], "state.totem", 0, players - 1)
    if "turn" in state:
        _whole(state["turn"], "state.turn", 0, players)
    if "supply" in state:
        _whole(state["supply"], "state.supply", 0, rs["token_supply"])
    if "order" in state and sorted(state["order"] if isinstance(state["order"], list) else [None]) != list(range(players)):
        raise UserError(f"must list every seat 0..{players - 1} once, got {state['order']!r}", key="state.order")
    for pile in ("market", "evolution_deck", "evolution_discard", "event_deck", "event_discard", "pressure"):
        if not isinstance(state.get(pile, []), list):
            raise UserError("must be a list", key=f"state.{pile}")
    if len(state.get("market", [])) > rs["market_spaces"]:
        raise UserError(f"has more slots than market_spaces = {rs['market_spaces']}", key="state.market")
    for j, t in enumerate(state.get("pressure", [])):
        if not isinstance(t, dict) or "space" not in t or "token" not in t:
            raise UserError('each Pressure entry needs {"space": n, "token": kind}', key=f"state.pressure[{j}]")
        _whole(t["space"], f"state.pressure[{j}].space", 1, rs["track_length"] - 1)


def resolve(rs: Ruleset, comps: Components, state: dict) -> dict[str, Any]:
    """A copy of `state` with every card, Event and Pressure token replaced by its uid,
    and animals by their index. Fields not given take the setup defaults."""
    _check_shape(rs, comps.players, state)
    s = plain_copy(state)
    animals = [a["name"] for a in rs.tables["animals"]]
    pool = _Pool(rs, comps)
    seats = _require(s, "seats", list)
    if len(seats) != comps.players:
        raise UserError(f"has {len(seats)} seats; players = {comps.players}", key="state.seats")
    for i, seat in enumerate(seats):
        where = f"state.seats[{i}]"
        name = _require(seat, "animal", str, where)
        if name not in animals:
            raise UserError(f"unknown animal {name!r}; animals: {', '.join(animals)}", key=f"{where}.animal")
        _check_in_play(rs, comps.players, "animals", name, f"{where}.animal")
        seat["animal"] = animals.index(name)
        for pile in SEAT_PILES:
            seat[pile] = [pool.card(n, seat["animal"], f"{where}.{pile}") for n in seat.get(pile, [])]
        seat.setdefault("position", rs["start_position"])
        seat.setdefault("fury", 0)
        seat.setdefault("tokens", 0)
        seat.setdefault("revealed", False)
        seat.setdefault("shuffles", 0)
        seat.setdefault("decisions", 0)       # decisions taken this round: d of its next one
        seat["bought"] = dict(seat.get("bought", {}))
    s["market"] = [None if n is None else pool.card(n, None, "state.market")
                   for n in s.get("market", [])]
    s["market"] += [None] * (rs["market_spaces"] - len(s["market"]))
    for pile in COMMON_PILES:
        s[pile] = [pool.card(n, None, f"state.{pile}") for n in s.get(pile, [])]
    s["event_deck"] = [pool.event(n, "state.event_deck") for n in s.get("event_deck", [])]
    s["event_discard"] = [pool.event(n, "state.event_discard") for n in s.get("event_discard", [])]
    kinds = list(comps.pressure_kind)
    free = list(range(len(kinds)))
    pressure = []
    for j, t in enumerate(s.get("pressure", [])):
        kind = t.get("token")
        match = [u for u in free if kinds[u] == kind]
        if not match:
            raise UserError(f"no unused Pressure token of kind {kind!r}", key=f"state.pressure[{j}]")
        free.remove(match[0])
        pressure.append({"space": t["space"], "token": match[0], "revealed": bool(t.get("revealed", False))})
    s["pressure"] = pressure
    s.setdefault("round", 1)
    s.setdefault("phase", "play")
    if s["phase"] not in PHASES:
        raise UserError(f"must be one of {list(PHASES)}", key="state.phase")
    s.setdefault("turn", 0)
    s.setdefault("order", list(range(comps.players)))
    s.setdefault("fourth_card", False)
    s.setdefault("fourth_round", 0)
    s.setdefault("totem", 0)
    s.setdefault("shuffles", {"evolution": 0, "events": 0})
    in_hands = sum(seat.get("tokens", 0) for seat in seats)
    s.setdefault("supply", rs["token_supply"] - in_hands)
    if s["supply"] < 0 or s["supply"] + in_hands != rs["token_supply"]:
        raise UserError(f"supply {s['supply']} + reserves {in_hands} must equal token_supply = "
                        f"{rs['token_supply']} (tokens are never created or lost)", key="state.supply")
    s.setdefault("ended", False)
    s.setdefault("end_reason", None)
    s.setdefault("winners", [])
    return s


def to_names(rs: Ruleset, comps: Components, s: dict) -> dict[str, Any]:
    """The inverse of resolve: uids back to names (for printing and comparing states)."""
    out = deepcopy(s)
    out["market"] = [None if u is None else card_name(rs, comps, u) for u in s["market"]]
    for pile in COMMON_PILES:
        out[pile] = [card_name(rs, comps, u) for u in s[pile]]
    out["event_deck"] = [event_name(rs, comps, u) for u in s["event_deck"]]
    out["event_discard"] = [event_name(rs, comps, u) for u in s["event_discard"]]
    out["pressure"] = [{"space": t["space"], "token": comps.pressure_kind[t["token"]], "revealed": t["revealed"]}
                       for t in s["pressure"]]
    for seat, src in zip(out["seats"], s["seats"]):
        seat["animal"] = rs.tables["animals"][src["animal"]]["name"]
        for pile in SEAT_PILES:
            seat[pile] = [card_name(rs, comps, u) for u in src[pile]]
    return out


# ---------------------------------------------------------------- the batch engine's form

def load_batch_state(rs: Ruleset, tb: Tables, s: dict, game: int) -> State:
    st = empty_state(rs, tb, np.array([game], np.int64))
    P = tb.players
    for i, seat in enumerate(s["seats"]):
        st.animal[0, i] = seat["animal"]
        st.pos[0, i] = seat["position"]
        st.fury[0, i] = seat["fury"]
        st.tokens[0, i] = seat["tokens"]
        st.revealed[0, i] = seat["revealed"]
        st.deck_shuffles[0, i] = seat["shuffles"]
        st.counter[0, i] = seat["decisions"]
        deck = seat["deck"][::-1]
        st.deck[0, i, :len(deck)] = deck
        st.n_deck[0, i] = len(deck)
        st.discard[0, i, :len(seat["discard"])] = seat["discard"]
        st.n_discard[0, i] = len(seat["discard"])
        st.hand[0, i, :len(seat["hand"])] = seat["hand"]
        st.n_hand[0, i] = len(seat["hand"])
        st.above[0, i, :len(seat["above"])] = seat["above"]
        st.below[0, i, :len(seat["below"])] = seat["below"]
        for name, count in seat["bought"].items():
            st.bought[0, i, _row_of(rs, name)] += count
    st.supply[0] = s["supply"]
    st.totem[0] = s["totem"]
    st.fourth[0] = s["fourth_card"]
    st.fourth_round[0] = s["fourth_round"]
    st.market[0] = -1
    market = [-1 if u is None else u for u in s["market"]]
    st.market[0, :len(market)] = market
    evo = s["evolution_deck"][::-1]
    st.evo_deck[0, :len(evo)] = evo
    st.n_evo[0] = len(evo)
    st.common[0, :len(s["evolution_discard"])] = s["evolution_discard"]
    st.n_common[0] = len(s["evolution_discard"])
    ev = s["event_deck"][::-1]
    st.event_deck[0, :len(ev)] = ev
    st.n_event[0] = len(ev)
    st.event_discard[0, :len(s["event_discard"])] = s["event_discard"]
    st.n_event_discard[0] = len(s["event_discard"])
    st.evo_shuffles[0] = s["shuffles"].get("evolution", 0)
    st.event_shuffles[0] = s["shuffles"].get("events", 0)
    pressure = s["pressure"]
    st.p_space = np.array([[t["space"] for t in pressure]], np.int16).reshape(1, -1)
    st.p_token = np.array([[t["token"] for t in pressure]], np.int16).reshape(1, -1)
    st.p_revealed = np.array([[t["revealed"] for t in pressure]], bool).reshape(1, -1)
    order = list(s["order"])
    st.order[0] = order
    st.order_pos[0, order] = np.arange(P)
    if s.get("ended"):
        st.alive[0] = False
        st.end_reason[0] = END_REASONS.index(s["end_reason"]) if s.get("end_reason") in END_REASONS else END_TRACK
        st.rounds[0] = s["round"]
        st.winner[0, list(s.get("winners", []))] = True
    return st


def _row_of(rs: Ruleset, name: str) -> int:
    rows = rs.tables["cards"]
    for i, r in enumerate(rows):
        if r["name"] == name and r["deck"] == "evolution":
            return i
    for i, r in enumerate(rows):
        if r["name"] == name:
            return i
    raise UserError(f"unknown card {name!r} in bought", key="state.seats.bought")


def dump_batch_state(run) -> dict:
    """The batch-of-one state as a section 10 dict with uids (state_io.to_names names it)."""
    st, rs, P = run.st, run.rs, run.P
    cards = rs.tables["cards"]

    def lst(a):
        return [int(x) for x in a if x >= 0]

    seats = []
    for i in range(P):
        bought = {}
        for row in np.flatnonzero(st.bought[0, i]).tolist():
            name = cards[row]["name"]
            bought[name] = bought.get(name, 0) + int(st.bought[0, i, row])
        seats.append({
            "animal": int(st.animal[0, i]), "position": int(st.pos[0, i]), "fury": int(st.fury[0, i]),
            "tokens": int(st.tokens[0, i]),
            "deck": lst(st.deck[0, i, :st.n_deck[0, i]][::-1]),
            "discard": lst(st.discard[0, i, :st.n_discard[0, i]]),
            "hand": lst(st.hand[0, i, :st.n_hand[0, i]]),
            "above": lst(st.above[0, i]), "below": lst(st.below[0, i]),
            "revealed": bool(st.revealed[0, i]), "shuffles": int(st.deck_shuffles[0, i]),
            "bought": bought, "decisions": int(st.counter[0, i]),
        })
    ended = not bool(st.alive[0])
    return {
        "round": int(run.rnd), "phase": run.phase, "turn": int(run.turn),
        "order": [int(x) for x in st.order[0]],
        "fourth_card": bool(st.fourth[0]), "fourth_round": int(st.fourth_round[0]),
        "totem": int(st.totem[0]), "supply": int(st.supply[0]),
        "market": [None if u < 0 else int(u) for u in st.market[0]],
        "evolution_deck": lst(st.evo_deck[0, :st.n_evo[0]][::-1]),
        "evolution_discard": lst(st.common[0, :st.n_common[0]]),
        "event_deck": lst(st.event_deck[0, :st.n_event[0]][::-1]),
        "event_discard": lst(st.event_discard[0, :st.n_event_discard[0]]),
        "pressure": [{"space": int(sp), "token": int(tk), "revealed": bool(rv)}
                     for sp, tk, rv in zip(st.p_space[0], st.p_token[0], st.p_revealed[0]) if tk >= 0],
        "shuffles": {"evolution": int(st.evo_shuffles[0]), "events": int(st.event_shuffles[0])},
        "seats": seats,
        "ended": ended,
        "end_reason": None if not ended else END_REASONS[st.end_reason[0]],
        "winners": [int(i) for i in np.flatnonzero(st.winner[0])],
    }
