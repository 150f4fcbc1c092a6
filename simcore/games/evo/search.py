"""Evo's side of the search protocol (docs/rollout.md): where a search bot
decides, its options there, and the re-deal of what it cannot see.

Decision points are the saved states at which `run_state(..., until="turn")` stops: every
phase start, and before each seat's turn of the auction and of the movement phase (the
state's `cursor`: that seat's place on the initiative track). A state before or inside an
auction shows its lab (the genes in `draws`, the markers in `bids`), as the bidder sees it.
Searched kinds:

- `bid`: a seat's first bid of an auction (contract 4.2): which column (which gene, or the
  event card) and how much. MP are both the money of the auction and the score, so every
  bid trades points now for a trait later, and it sets the prices the others must beat:
  the game's main economic decision, which greedy plays by a fixed worth per gene, blind to
  the board, the climate ahead and the rounds left. (A displaced seat's re-bid comes inside
  another seat's turn: its base bot's.)
- `move`: the first MOVE of a seat's movement (4.4): which dinosaur goes where, or whom it
  attacks, with the climate to come; greedy judges it one step ahead. (The rest of its
  movement is its base bot's; a seat holding a Frenzied attack decides that EVENT first,
  so its movement is not searched.)
Other decisions (births, deaths, events, the climate shift) follow from these or matter
less: they are the base bot's.

What the seat cannot see (contract 1-3, 6; rulebook: the climate tokens are drawn face
down, the genes from a bag, the event cards are secret in hand): the order of the climate
pile and which tokens were set aside at setup, which unique genes went into the bag, the
other seats' event cards and the order of the event deck. Everything else is on the table
or was seen by all (board, MP, genes held, the lab, revealed tokens, the event discard,
hand sizes, pile and bag sizes). MP tokens are kept face down, but every change of them is
public (the start, the bids paid, the scoring per dinosaur): a seat that follows the game
knows them, so they are kept. `determinize` re-deals exactly the hidden part:

- the unseen events (the others' hands and the deck, pooled) dealt back into the same hand
  sizes and the deck;
- the unseen shift tokens (the pile's and the set-aside ones, pooled) dealt back into the
  set-aside slots and the pile's shift places; the meteorite placed uniformly within what
  is left of the bottom part of the pile where setup shuffled it (contract 3 step 6: the
  seat knows that part's size, p.meteorite_pile, and how many tokens were revealed); a
  state no dealt game could reach gets it anywhere in the pile. With an active Sixth sense
  the seat sees the top token: it stays;
- the unseen unique genes (every unique copy less those held and those in the lab) pooled,
  and as many as the bag holds unseen dealt into the bag, the rest out of the game.
Every pool is sorted before the shuffle, so the re-deal depends only on what the seat saw.
Not kept (a search bot knows less than it could): a unique gene drawn, seen, and returned
to the bag (a duplicate name in the lab, or a column nobody held: rare).
"""
from __future__ import annotations

from collections import Counter

from ... import rng

SEARCH_KINDS = ("bid", "move")
_EVENTS, _CLIMATE, _METEOR, _UNIQUE = 1, 2, 3, 4        # addresses of the determinization's draws


def _game(rs, state: dict):
    """The reference engine's game loaded from `state` (read only: options are its lists)."""
    from . import state_io
    from .reference import Game
    P = state_io.players_of(state)
    g = Game(rs, P, [None] * P, 0, 0)
    g.load(state_io.load(g, state))
    return g


def _lab_drawn(state: dict) -> bool:
    """True if `draws` is the whole coming lab: P - 1 genes, or every name the bag has left."""
    draws = list(state.get("draws", []))
    if len(draws) == len(state["seats"]) - 1:
        return True
    left = Counter(state.get("bag", [])) - Counter(draws)
    return not any(n not in draws for n in left)


def _point(rs, state: dict):
    """(seat, kind, the reference game loaded from the state with the decision's context set,
    its options) of the state's searchable decision, or None."""
    if state.get("ended") or state["phase"] not in ("mutation", "movement"):
        return None
    if state["phase"] == "mutation" and not _lab_drawn(state):
        return None
    g = _game(rs, state)
    s = g.order[g.cursor]
    if state["phase"] == "mutation":
        g.lab_genes = {c + 1: n for c, n in enumerate(g.draws)}
        options = g.bid_options(s, g.bids or [None] * g.P, None)
        return (s, "bid", g, options) if options else None
    frenzy = g.comps.active_event(g.hands[s], "frenzied_attack")
    if frenzy is not None and (g.p["no_effect_plays"] == "allowed" or g.frenzy_can_matter(s)):
        return None                              # its first decision is that EVENT
    points = g.traits(s).moves
    return (s, "move", g, g.move_options(s, points, 0, 0)) if points >= 1 else None


def decision_seat(rs, state: dict):
    """The seat `decision_point` names if the state has a decision point, from the state's
    fields alone (no engine loaded): the seat whose turn it is, or None where
    decision_point is None whatever the options (the rollout driver skips decision_point
    for a seat that does not search)."""
    if state.get("ended") or state["phase"] not in ("mutation", "movement"):
        return None
    if state["phase"] == "mutation" and not _lab_drawn(state):
        return None
    return state.get("order", list(range(len(state["seats"]))))[state.get("cursor", 0)]


def decision_point(rs, state: dict):
    """(seat, kind) of the searchable decision at a saved state, or None (module doc)."""
    point = _point(rs, state)
    return None if point is None else point[:2]


def legal_options(rs, state: dict, seat: int, kind: str) -> list:
    """The options of `kind` for `seat` at a decision point, in the engines' order (contract
    7, the reference engine's own lists), as labels: ("bid", gene name or "event", value);
    ("stop",) and (move kind, zone name, zone name). Every label is a different move."""
    point = _point(rs, state)
    if point is None or point[:2] != (seat, kind):
        return []
    g, options = point[2], point[3]
    if kind == "bid":
        return [("bid", g.lab_genes.get(c, "event"), v) for c, v in options]
    return [o if o[0] == "stop" else (o[0], g.zname(o[1]), g.zname(o[2])) for o in options]


_TABLES: dict = {}
_TABLES_MAX = 64            # table pairs kept (a sweep over many rulesets stays flat)


def _tables(rs) -> tuple:
    """(meteorite names, unique gene names, each unique gene's copies, Sixth sense's peek per
    active gene name) of a ruleset's tables, worked out once per pair of tables."""
    genes, climate = rs.tables["genes"], rs.tables["climate"]
    hit = _TABLES.get((id(genes), id(climate)))
    if hit is None or hit[0] is not genes or hit[1] is not climate:
        meteor = {r["name"] for r in climate if r["kind"] == "meteorite"}
        unique = {r["name"] for r in genes if r["kind"] == "unique"}
        every = Counter()
        for r in genes:
            if r["name"] in unique:
                every[r["name"]] += int(r["copies"])
        sixth = {r["name"]: int(r["amount"]) for r in genes if r["effect"] == "sixth_sense" and r["active"]}
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
        hit = _TABLES[(id(genes), id(climate))] = (genes, climate, (meteor, unique, every, sixth))
    return hit[2]


def _climate(rs, state: dict, peek: int, key: int) -> tuple[list, list]:
    """The re-dealt (climate_pile, climate_out) (module doc); the top `peek` tokens are seen."""
    meteor = _tables(rs)[0]
    pile, out = list(state.get("climate_pile", [])), list(state.get("climate_out", []))
    fixed = pile[:peek]
    rest = pile[len(fixed):]
    mets = [t for t in rest if t in meteor]
    pool = rng.sorted_shuffle(key, rng.BOT, [t for t in rest if t not in meteor] + out, _CLIMATE)
    new_out, fill = pool[:len(out)], pool[len(out):]
    if len(mets) == 1:
        revealed = len(state.get("climate_revealed", []))
        bottom = revealed + len(pile) - rs["meteorite_pile"]     # where setup's bottom part began
        lo = max(0, bottom - revealed - len(fixed))                # ... as an index into `rest`
        if lo >= len(rest):                 # not a dealt game's pile (from counts only): anywhere
            lo = 0
        at = lo + rng.randint(int(key), 0, rng.BOT, len(rest) - lo, _METEOR)
        fill.insert(at, mets[0])
    else:                                   # no meteorite (or several: a scenario) left in place
        fill = [t if t in meteor else None for t in rest]
        it = iter(pool[len(out):])
        fill = [t if t is not None else next(it) for t in fill]
    return fixed + fill, new_out


def _bag(rs, state: dict, key: int) -> list:
    """The bag with its unseen unique genes re-dealt (module doc)."""
    _, unique, every, _ = _tables(rs)
    draws = list(state.get("draws", []))
    seen = Counter(n for s in state["seats"] for n in s.get("genes", []) if n in unique)
    seen += Counter(n for n in draws if n in unique)
    bag = list(state.get("bag", []))
    hidden = sum(1 for n in bag if n in unique) - sum(1 for n in draws if n in unique)
    pool = list((every - seen).elements())
    if hidden < 0 or len(pool) < hidden:
        return bag                          # not a dealt game's bag (a scenario): left as it is
    kept = [n for n in bag if n not in unique] + [n for n in draws if n in unique]
    return sorted(kept + rng.sorted_shuffle(key, rng.BOT, pool, _UNIQUE)[:hidden])


def determinize(rs, state: dict, seat: int, key: int) -> dict:
    """`state` with what `seat` cannot see re-dealt from the stream of `key` (module doc)."""
    out = dict(state)                      # shallow: every list re-dealt below is a new list
    seats = out["seats"] = [dict(x) for x in state["seats"]]
    others = [x for x in range(len(seats)) if x != seat]
    pool = rng.sorted_shuffle(key, rng.BOT, [c for x in others for c in seats[x].get("events", [])]
                              + list(state.get("event_deck", [])), _EVENTS)
    it = iter(pool)
    for x in others:
        seats[x]["events"] = sorted(next(it) for _ in seats[x].get("events", []))
    out["event_deck"] = list(it)
    # an active Sixth sense shows its holder the next `amount` climate tokens (genes.csv)
    sixth = _tables(rs)[3]
    peek = max((sixth[n] for n in seats[seat].get("genes", []) if n in sixth), default=0)
    out["climate_pile"], out["climate_out"] = _climate(rs, state, peek, key)
    out["bag"] = _bag(rs, state, key)
    return out
