"""Setup of a batch of games (contract section 3) and the checks of a play request."""
from __future__ import annotations

import numpy as np

from ... import rng
from ...errors import UserError
from ...ruleset import Ruleset
from . import effects, market
from .arrays import stable_argsort_rows
from .components import KIND_ANIMALS, KIND_TOTEM, KIND_PRESSURE, KIND_EVENTS, KIND_EVOLUTION, KIND_OWN_DECK
from .state import Tables


SETUP_BLOCK = 2048            # games per block of the setup shuffles


def check_players(rs: Ruleset, players: int, bots) -> None:
    if not isinstance(players, int) or not rs["players_min"] <= players <= rs["players_max"]:
        raise UserError(f"Evolversi Male plays with {rs['players_min']}..{rs['players_max']} animals, "
                        f"got players = {players!r}", key="players")
    if len(bots) != players:
        raise UserError(f"needs one bot per seat ({players}), got {len(bots)}: {list(bots)}", key="bots")
    for s, b in enumerate(bots):
        if not callable(getattr(b, "choose", None)):
            raise TypeError(f"seat {s}: the batch engine needs a policy with choose(decision) "
                            f"(decisions.py), got {b!r}")


def fixed_animals(rs: Ruleset, tb: Tables, animals) -> list:
    """Per seat: the fixed animal index, or None for a random seat."""
    P = tb.players
    if animals is None:
        return [None] * P
    names = [a["name"] for a in rs.tables["animals"]]
    if len(animals) != P:
        raise UserError(f"needs one animal (or None) per seat ({P}), got {len(animals)}", key="animals")
    out = []
    for a in animals:
        if a is None:
            out.append(None)
            continue
        idx = names.index(a) if isinstance(a, str) and a in names else a
        if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx < len(names):
            raise UserError(f"unknown animal {a!r}; animals: {', '.join(names)}", key="animals")
        if idx not in tb.comps.eligible_animals:
            raise UserError(f"animal {names[idx]!r} is not in play with {P} animals", key="animals")
        if idx in out:
            raise UserError(f"animal {names[idx]!r} is fixed for two seats", key="animals")
        out.append(idx)
    return out


def shuffled_rows(run, uids, idents, kind, *extra) -> np.ndarray:
    """(B, n) the same uid set shuffled for every game, top first (rng.shuffle_order of
    their identities `idents[uid]`); `extra`: scalar address parts."""
    games = run.st.games
    uids = np.asarray(uids, np.int64)
    if len(uids) == 0:
        return np.zeros((len(games), 0), np.int64)
    address = idents.take(uids)[None, :]
    out = np.empty((len(games), len(uids)), np.int64)
    for a in range(0, len(games), SETUP_BLOCK):          # blocks of games stay in the cache
        keys = rng.key(run.seed, games[a:a + SETUP_BLOCK, None], rng.CHANCE, kind, *extra, address)
        out[a:a + SETUP_BLOCK] = uids.take(stable_argsort_rows(keys))
    return out


def setup(run, fixed: list) -> None:
    """Section 3 for every game of the batch."""
    rs, tb, st, P = run.rs, run.tb, run.st, run.P
    B = st.size
    comps = tb.comps
    # 1. Pressure tokens
    S = st.p_space.shape[1]
    if S:
        order = shuffled_rows(run, range(len(comps.pressure_kind)), tb.pressure_ident, KIND_PRESSURE)
        st.p_token[:] = order[:, :S]
        st.p_space[:] = np.array(rs["pressure_spaces"][:S], np.int16)
    # 2. Event and Evolution decks (stacks: top last)
    ev = shuffled_rows(run, range(len(comps.event_row)), tb.ev_ident, KIND_EVENTS, 0)
    st.event_deck[:, :ev.shape[1]] = ev[:, ::-1]
    st.n_event[:] = ev.shape[1]
    evo = shuffled_rows(run, comps.evolution, tb.ident, KIND_EVOLUTION, 0)
    st.evo_deck[:, :evo.shape[1]] = evo[:, ::-1]
    st.n_evo[:] = evo.shape[1]
    # 3. Market
    market.refill_market(run, np.arange(B))
    # 4. Animals, own decks, tokens
    taken = np.zeros((B, len(rs.tables["animals"])), bool)
    for s, a in enumerate(fixed):
        if a is not None:
            st.animal[:, s] = a
            taken[:, a] = True
    if any(a is None for a in fixed):
        eligible = shuffled_rows(run, comps.eligible_animals, tb.animal_ident, KIND_ANIMALS)
        for s, a in enumerate(fixed):
            if a is None:
                free = ~np.take_along_axis(taken, eligible, axis=1)
                pick = eligible[np.arange(B), free.argmax(axis=1)]
                st.animal[:, s] = pick
                taken[np.arange(B), pick] = True
    for s in range(P):
        for a in np.unique(st.animal[:, s]).tolist():
            rows = np.flatnonzero(st.animal[:, s] == a)
            start = comps.starting[a]
            keys = rng.key(run.seed, st.games[rows][:, None], rng.CHANCE, KIND_OWN_DECK, s, 0,
                           tb.ident.take(start)[None, :])
            deck = np.asarray(start, np.int16)[stable_argsort_rows(keys)]
            st.deck[rows[:, None], s, np.arange(len(start))] = deck[:, ::-1]
            st.n_deck[rows, s] = len(start)
        effects.gain_tokens(run, np.arange(B), np.full(B, s), np.full(B, rs["starting_tokens"]))
    # 5. Totem
    if rs["totem_start"] == "random":
        st.totem[:] = rng.below(rng.key(run.seed, st.games, rng.CHANCE, KIND_TOTEM), P)
