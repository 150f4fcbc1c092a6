"""Evolution game states as JSON-friendly dicts (scenario files), shared by both engines.

A state is read into a reference `Game` (plain data; the batch engine converts it with
state.from_games), plus where in the round it stands. Fields (docs/games/evolution.md,
"Scenario files"); every one may be left out and takes the value in brackets:

    round [0], first [0] (seat of the first player), watering_hole [0],
    phase ["deal"]: deal | cards | reveal | feeding | end  (what happens next)
    turn [first] (feeding: the seat whose turn is next), turns [0] (feeding turns so far),
    queue [null], passes [0] (a feeding under way, saved by run_state until="feed": the
    seats still in the feeding from the one to play, and the turns in a row on which a
    player passed; without a queue a feeding starts anew from the first player),
    deck [every card not placed elsewhere, lowest card id on top], discard [[]],
    final_round [null: not known], shuffles [1], bank_out [tokens out of the bank: the
    Watering Hole + food + fat + bags], end_reason [null: running],
    seats: [{bag [0], hand [[]], played [{}: trait -> cards played],
             species: [{food [0], body [1], population [1], fat [0], traits [[]]}]}]

A card is [food, "trait"] (the cs4500 SpeciesCard) or "trait" (any food value): each takes
the lowest unused card id of the ruleset's deck that matches, so both engines give a named
card the same id. An unknown card, a value out of range or an unknown field is a UserError
naming it.
"""
from __future__ import annotations

from ...errors import UserError
from . import addresses as A
from .reference_state import Game, Player, Species
from .schema import Cards, Rules
from .traits import TRAIT_ID, TRAITS

PHASES = ("deal", "cards", "reveal", "feeding", "end")
STATE_KEYS = {"round", "first", "watering_hole", "phase", "turn", "turns", "deck", "discard",
              "final_round", "shuffles", "bank_out", "end_reason", "seats", "queue", "passes"}
SEAT_KEYS = {"bag", "hand", "played", "species"}
SPECIES_KEYS = {"food", "body", "population", "fat", "traits"}
END_NAMES = {A.END_DECK_EMPTY: "deck_empty", A.END_RESHUFFLE: "reshuffle",
             A.END_MAX_ROUNDS: "stalled", A.END_DECK_SHORT: "deck_short"}
NO_FINAL = 1 << 30


def _keys(d, allowed: set, where: str) -> dict:
    if not isinstance(d, dict):
        raise UserError(f"must be a table, got {d!r}", key=where)
    bad = sorted(set(d) - allowed)
    if bad:
        raise UserError(f"unknown field {bad[0]!r}; expected some of {sorted(allowed)}",
                        key=f"{where}.{bad[0]}")
    return d


def _int(d: dict, key: str, default: int, where: str, lo: int = 0, hi: int | None = None) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise UserError(f"must be a whole number {rng}, got {v!r}", key=f"{where}.{key}")
    return v


def _list(d: dict, key: str, where: str) -> list:
    v = d.get(key, [])
    if not isinstance(v, list):
        raise UserError(f"must be a list, got {v!r}", key=f"{where}.{key}")
    return v


class _Pool:
    """Card ids not used yet; a card spec takes the lowest matching one."""

    def __init__(self, cards: Cards):
        self.cards = cards
        self.used: set = set()
        # the unused ids of each (trait, food), lowest first (a search loads many states)
        self.ids: dict = {}
        for c in range(cards.n):
            self.ids.setdefault((int(cards.kind[c]), int(cards.food[c])), []).append(c)
        self.at = dict.fromkeys(self.ids, 0)
        self.foods: dict = {}                # trait -> its (trait, food) keys
        for k in self.ids:
            self.foods.setdefault(k[0], []).append(k)

    @property
    def free(self) -> list:
        return [c for c in range(self.cards.n) if c not in self.used]

    def take(self, spec, where: str) -> int:
        if isinstance(spec, str):
            kind, food = TRAIT_ID.get(spec), None
        elif (isinstance(spec, list) and len(spec) == 2 and isinstance(spec[1], str)
              and isinstance(spec[0], int) and not isinstance(spec[0], bool)):
            kind, food = TRAIT_ID.get(spec[1]), spec[0]
        else:
            raise UserError(f'a card is [food, "trait"] or "trait", got {spec!r}', key=where)
        if kind is None:
            raise UserError(f"unknown trait in {spec!r}; traits: {', '.join(TRAITS)}", key=where)
        keys = self.foods.get(kind, ()) if food is None else ((kind, food),)
        fits = [k for k in keys if self.at.get(k, 0) < len(self.ids.get(k, ()))]
        if not fits:
            raise UserError(f"no unused card {spec!r} in this ruleset's deck (check its food value "
                            "and how many copies the deck has)", key=where)
        best = min(fits, key=lambda k: self.ids[k][self.at[k]])
        c = self.ids[best][self.at[best]]
        self.at[best] += 1
        self.used.add(c)
        return c


def _species(pool: _Pool, r: Rules, d, where: str) -> Species:
    _keys(d, SPECIES_KEYS, where)
    body = _int(d, "body", r.new_species_body, where, 0, r.max_body)
    pop = _int(d, "population", r.new_species_population, where, 0, r.max_population)
    food = _int(d, "food", 0, where, 0, pop)
    fat = _int(d, "fat", 0, where, 0, body)
    traits = [pool.take(c, f"{where}.traits[{k}]") for k, c in enumerate(_list(d, "traits", where))]
    if len(traits) > r.max_traits:
        raise UserError(f"at most {r.max_traits} traits, got {len(traits)}", key=f"{where}.traits")
    kinds = [int(pool.cards.kind[c]) for c in traits]
    if len(set(kinds)) != len(kinds):
        raise UserError("a species holds each trait at most once", key=f"{where}.traits")
    return Species(food=food, body=body, pop=pop, fat=fat, traits=traits)


def load(rules: Rules, cards: Cards, state: dict, seed: int, game: int) -> tuple[Game, dict]:
    """(the Game, {"phase", "turn", "turns"}) of a JSON state."""
    _keys(state, STATE_KEYS, "state")
    seats = _list(state, "seats", "state")
    if not rules.players_min <= len(seats) <= rules.players_max:
        raise UserError(f"this ruleset plays with {rules.players_min}..{rules.players_max} "
                        f"players, got {len(seats)} seats", key="state.seats")
    pool = _Pool(cards)
    players = []
    for k, seat in enumerate(seats):
        where = f"state.seats[{k}]"
        _keys(seat, SEAT_KEYS, where)
        species = [_species(pool, rules, d, f"{where}.species[{i}]")
                   for i, d in enumerate(_list(seat, "species", where))]
        if len(species) > rules.species_slots:
            raise UserError(f"at most {rules.species_slots} species, got {len(species)}",
                            key=f"{where}.species")
        hand = sorted(pool.take(c, f"{where}.hand[{i}]") for i, c in enumerate(_list(seat, "hand", where)))
        played = [0] * len(TRAITS)
        for name, n in _keys(seat.get("played", {}), set(TRAITS), f"{where}.played").items():
            played[TRAIT_ID[name]] = _int(seat["played"], name, 0, f"{where}.played")
        players.append(Player(pid=k + 1, species=species, bag=_int(seat, "bag", 0, where),
                              hand=hand, played=played))
    discard = [pool.take(c, f"state.discard[{i}]") for i, c in enumerate(_list(state, "discard", "state"))]
    if "deck" in state:
        deck = [pool.take(c, f"state.deck[{i}]") for i, c in enumerate(_list(state, "deck", "state"))]
    else:
        deck = pool.free
    n = len(players)
    phase = state.get("phase", "deal")
    if phase not in PHASES:
        raise UserError(f"must be one of {', '.join(PHASES)}, got {phase!r}", key="state.phase")
    final = state.get("final_round")
    end = state.get("end_reason")
    names = {v: k for k, v in END_NAMES.items()}
    if end is not None and end not in names:
        raise UserError(f"must be null or one of {', '.join(names)}, got {end!r}", key="state.end_reason")
    g = Game(rules=rules, cards=cards, players=players,
             wh=_int(state, "watering_hole", 0, "state"), deck=deck, discard=discard,
             first=_int(state, "first", 0, "state", 0, n - 1), round=_int(state, "round", 0, "state"),
             final_round=NO_FINAL if final is None else _int(state, "final_round", 0, "state"),
             end_reason=-1 if end is None else names[end],
             shuffles=_int(state, "shuffles", 1, "state"), seed=seed, game_index=game)
    tokens = g.wh + sum(sp.food + sp.fat for p in players for sp in p.species) \
        + sum(p.bag for p in players)
    g.bank_out = _int(state, "bank_out", tokens, "state")
    where = {"phase": phase, "turn": _int(state, "turn", g.first, "state", 0, n - 1),
             "turns": _int(state, "turns", 0, "state"), "queue": _queue(state, phase, n),
             "passes": _int(state, "passes", 0, "state")}
    return g, where


def _queue(state: dict, phase: str, n: int):
    """A saved feeding's queue (distinct seats, the one to play first), or None."""
    q = state.get("queue")
    if q is None:
        return None
    if phase != "feeding":
        raise UserError(f"a queue belongs to a feeding under way (phase feeding), not phase {phase!r}",
                        key="state.queue")
    if not isinstance(q, list) or not q or len(set(map(str, q))) != len(q) or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n for x in q):
        raise UserError(f"must be a list of distinct seats 0..{n - 1}, got {q!r}", key="state.queue")
    return list(q)


def _card(g: Game, c: int) -> list:
    return [int(g.cards.food[c]), TRAITS[g.kind(c)]]


def dump(g: Game, where: dict) -> dict:
    """The JSON state of a Game standing at `where` (load's second value)."""
    seats = []
    for p in g.players:
        seats.append({
            "bag": p.bag, "hand": [_card(g, c) for c in sorted(p.hand)],
            "played": {TRAITS[k]: n for k, n in enumerate(p.played) if n},
            "species": [{"food": sp.food, "body": sp.body, "population": sp.pop, "fat": sp.fat,
                         "traits": [_card(g, c) for c in sp.traits]} for sp in p.species]})
    saved = {"queue": list(where["queue"]), "passes": where["passes"]} if where.get("queue") else {}
    return {"round": g.round, "first": g.first, "watering_hole": g.wh, "phase": where["phase"],
            "turn": where["turn"], "turns": where["turns"], **saved,
            "deck": [_card(g, c) for c in g.deck], "discard": [_card(g, c) for c in sorted(g.discard)],
            "final_round": None if g.final_round >= NO_FINAL else g.final_round,
            "shuffles": g.shuffles, "bank_out": g.bank_out,
            "end_reason": END_NAMES.get(g.end_reason), "seats": seats}
