"""Setup of a batch of games (contract section 3) and the checks of a play request."""
from __future__ import annotations

import numpy as np

from ... import rng
from ...errors import UserError
from ...rng import CHANCE
from ...rng_jit import add, key3
from ...ruleset import Ruleset
from . import effects
from .arrays import stable_argsort_rows
from .components import KIND_ANIMALS, KIND_TOTEM, KIND_PRESSURE, KIND_EVENTS, KIND_EVOLUTION, KIND_OWN_DECK
from .jit import kernel
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
    their identities `idents[uid]`); `extra`: scalar address parts. The keys are hashed
    compiled; numpy's sort orders them (faster than a compiled sort of the 54 Evolutions)."""
    games = run.st.games
    uids = np.asarray(uids, np.int64)
    if len(uids) == 0:
        return np.zeros((len(games), 0), np.int64)
    address, extra = idents.take(uids), np.array(extra, np.int64)
    out = np.empty((len(games), len(uids)), np.int64)
    keys = np.empty((min(len(games), SETUP_BLOCK), len(uids)), np.uint64)
    for a in range(0, len(games), SETUP_BLOCK):          # blocks of games stay in the cache
        block = games[a:a + SETUP_BLOCK]
        shuffle_keys(block, run.seed_u64, np.int64(kind), extra, address, keys)
        out[a:a + SETUP_BLOCK] = uids.take(stable_argsort_rows(keys[:len(block)]))
    return out


@kernel
def shuffle_keys(games, seed, kind, extra, address, keys):
    """keys[i, j] = rng.key(seed, games[i], CHANCE, kind, *extra, address[j])."""
    for i in range(len(games)):
        prefix = add(key3(seed, games[i], CHANCE), kind)
        for e in extra:
            prefix = add(prefix, e)
        for j in range(len(address)):
            keys[i, j] = add(prefix, address[j])


@kernel
def own_decks(games, seed, s, animal, starting, n_start, ident, deck, n_deck):
    """Seat s's starting deck in each game (a stack: top last): its animal's starting
    cards shuffled at (KIND_OWN_DECK, s, 0), as shuffled_rows does (a few cards: sorted here)."""
    W = starting.shape[1]
    keys = np.empty(W, np.uint64)
    order = np.empty(W, np.int64)
    for i in range(len(games)):
        a = animal[i, s]
        n = n_start[a]
        # own-deck shuffle number 0: the setup's (rounds.draw's reshuffles count from 1)
        prefix = add(add(add(key3(seed, games[i], CHANCE), KIND_OWN_DECK), s), 0)
        sort_by_keys(starting[a, :n], ident, prefix, keys, order)
        for j in range(n):
            deck[i, s, j] = order[n - 1 - j]
        n_deck[i, s] = n


@kernel
def sort_by_keys(uids, idents, prefix, keys, out):
    """out[:n] = uids by add(prefix, idents[uid]) ascending, ties in uids' order (an
    insertion sort: a starting deck is a few cards)."""
    for j in range(len(uids)):
        u = uids[j]
        k = add(prefix, idents[u])
        i = j - 1
        while i >= 0 and keys[i] > k:
            keys[i + 1] = keys[i]
            out[i + 1] = out[i]
            i -= 1
        keys[i + 1] = k
        out[i + 1] = u


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
    effects.refill_market(run, np.arange(B))
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
    starting = np.full((len(comps.starting), max(map(len, comps.starting))), -1, np.int64)
    for a, start in enumerate(comps.starting):
        starting[a, :len(start)] = start
    n_start = np.array([len(start) for start in comps.starting], np.int64)
    for s in range(P):
        own_decks(st.games, run.seed_u64, s, st.animal, starting, n_start, tb.ident, st.deck, st.n_deck)
        effects.gain_tokens(run, np.arange(B), np.full(B, s), np.full(B, rs["starting_tokens"]))
    # 5. Totem
    if rs["totem_start"] == "random":
        st.totem[:] = rng.below(rng.key(run.seed, st.games, rng.CHANCE, KIND_TOTEM), P)
