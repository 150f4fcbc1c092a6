"""Whole games on the batch engine: setup, rounds, scoring (`play_batch`).

Same phases and random addresses as reference.play_one, which is its oracle.
"""
from __future__ import annotations

import numpy as np

from simcore import rng

from . import addresses as A
from . import rules as R
from .ruleset import Cards, Rules, compile_rules
from .state import DECK, DISCARD, FOOD_CARD, NO_FINAL, State, empty


def _compile(ruleset_params, tables) -> tuple[Rules, Cards]:
    if isinstance(ruleset_params, Rules):
        return ruleset_params, tables
    return compile_rules(ruleset_params)          # a loaded simcore Ruleset


def new_batch(E: R.Engine, players: int, seed: int, games) -> State:
    """Setup: every game's deck shuffled by its own stream, first player drawn."""
    r, N = E.rules, E.cards.n
    games = np.asarray(games, np.int64)
    st = empty(len(games), players, r.species_slots, N, seed=seed, games=games)
    keys = rng.key(seed, games[:, None], rng.CHANCE, A.SHUFFLE, 0,
                   np.arange(N, dtype=np.uint64)[None, :])
    st.deck[:] = np.argsort(keys, axis=1, kind="stable")
    st.deck_len[:] = N
    st.loc[:] = DECK
    st.shuffles[:] = 1
    if r.first_player_random:
        st.first[:] = rng.below(rng.key(seed, games, rng.CHANCE, A.FIRST_PLAYER), players)
    return st


def _need(E: R.Engine, st: State, g, c) -> np.ndarray:
    r = E.rules
    n = st.n_species[g, c].astype(np.int64)
    if r.free_species_when_none:
        n = np.maximum(n, 1)
    return r.hand_deal_base + r.hand_deal_per_species * n


def deal(E: R.Engine, st: State, g) -> np.ndarray:
    """Free species + deal; returns the games that go on (cs4500 may end before dealing)."""
    r = E.rules
    P, N = st.P, st.hand.shape[2]
    first = st.first[g].astype(np.int64)
    if r.deal_end_rule == "stop_unless_deck_exceeds_need":
        need = sum(_need(E, st, g, (first + k) % P) for k in range(P))
        short = (st.deck_len[g] - st.deck_top[g]) <= need
        st.end_reason[g[short]] = A.END_DECK_SHORT
        g = g[~short]
        first = first[~short]
    for k in range(P):
        c = (first + k) % P
        if r.free_species_when_none:
            none = st.n_species[g, c] == 0
            R.new_species_at(E, st, g[none], c[none], np.zeros(none.sum(), bool))
        need = _need(E, st, g, c)
        for j in range(int(need.max(initial=0))):
            gets = (j < need) & (st.deck_top[g] < st.deck_len[g])
            gg, cc = g[gets], c[gets]
            card = st.deck[gg, st.deck_top[gg]]
            st.loc[gg, card.astype(np.int64)] = cc
            at = gg * P + cc
            st.hand.reshape(-1)[at * N + st.hand_n.reshape(-1)[at]] = card
            st.hand_n.reshape(-1)[at] += 1
            st.deck_top[gg] += 1
    R.sort_hands(st, g)
    ran_out = st.deck_top[g] >= st.deck_len[g]
    R.set_final_round(st, g[ran_out], st.round[g[ran_out]], A.END_DECK_EMPTY)
    return g


def _per_bot(bots, c, call):
    """Results of `call(bot, rows)` for each bot on its rows, merged in row order."""
    out = np.full(len(c), -1, np.int64)
    for bot, rows in R.split_by_bot(bots, c):
        out[rows] = call(bot, rows)
    return out


def _actions_per_bot(bots, c, call):
    """Card actions of each bot on its rows, merged; shorter lists padded with NONE."""
    parts = [(rows, call(bot, rows)) for bot, rows in R.split_by_bot(bots, c)]
    n_steps = max((len(acts) for _, acts in parts), default=0)
    n = len(c)
    out = [(np.full(n, R.NONE, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.int64)) for _ in range(n_steps)]
    for rows, acts in parts:
        for step, act in zip(out, acts):
            for o, x in zip(step, act):
                o[rows] = x
    return out


def play_round(E: R.Engine, st: State, g, bots) -> np.ndarray:
    """One round for games g; returns the games that played it."""
    P = st.P
    g = deal(E, st, g)
    if len(g) == 0:
        return g
    first = st.first[g].astype(np.int64)
    foods = np.zeros((len(g), P), np.int64)
    food_cards = np.full((len(g), P), -1, np.int64)
    sv = R.narrow(st, R.width(st, g))         # bots read a view cut to the slots in use
    for k in range(P):
        c = (first + k) % P
        card = _per_bot(bots, c, lambda bot, rows: bot.batch_food_card(E, sv, g[rows], c[rows]))
        food_cards[:, k] = card
    for k in range(P):
        c = (first + k) % P
        card = food_cards[:, k]
        has = card >= 0
        st.loc[g[has], card[has]] = FOOD_CARD
        R.punch_from_hand(st, g[has], c[has], card[has])
        foods[has, k] = E.cards.food[card[has]]
    R.sort_hands(st, g)
    for k in range(P):
        c = (first + k) % P
        sv = R.narrow(st, R.width(st, g))
        acts = _actions_per_bot(bots, c,
                                lambda bot, rows: bot.batch_play(E, sv, g[rows], c[rows]))
        for kind, card, s, slot in acts:
            R.play_action(E, st, g, c, kind, card, s, slot, holes=True)
        R.sort_hands(st, g, c)
    R.add_food(E, st, g, foods)
    rows, k = np.nonzero(food_cards >= 0)
    st.loc[g[rows], food_cards[rows, k]] = DISCARD
    R.reveal_effects(E, st, g)
    R.feeding(E, st, g, bots)
    R.end_feeding(E, st, g)
    unsorted = g[st.hand_unsorted[g]]            # hands are sorted again after each round
    R.sort_hands(st, unsorted)
    st.hand_unsorted[unsorted] = False
    if E.rules.first_player_rotates:
        st.first[g] = (st.first[g] + 1) % P
    st.round[g] += 1
    return g


def scores(st: State) -> np.ndarray:
    """(B, P): food in the bag + population and trait cards of surviving species."""
    here = np.arange(st.S)[None, None, :] < st.n_species[:, :, None]
    on_board = np.where(here, st.pop.astype(np.int32) + st.n_traits, 0).sum(axis=2)
    return st.bag + on_board


def winners(E: R.Engine, st: State) -> np.ndarray:
    sc = scores(st)
    win = sc == sc.max(axis=1, keepdims=True)
    if E.rules.tie_break == "most_traits":
        here = np.arange(st.S)[None, None, :] < st.n_species[:, :, None]
        traits = np.where(here, st.n_traits, 0).sum(axis=2)
        traits = np.where(win, traits, -1)
        win = traits == traits.max(axis=1, keepdims=True)
    return win


def run(E: R.Engine, st: State, bots) -> State:
    """Play every game of the batch to its end."""
    live = np.arange(st.B)
    while len(live):
        played = play_round(E, st, live, bots)
        over = st.round[played] > st.final_round[played]
        capped = ~over & (st.round[played] >= E.rules.max_rounds)
        st.end_reason[played[capped]] = A.END_MAX_ROUNDS
        live = played[~over & ~capped]
    return st


def play_batch(ruleset_params, tables, players: int, bots, seed: int, game_indices) -> dict:
    """Play the games `game_indices` of run `seed`; one row per game.

    ruleset_params/tables: a compiled (Rules, Cards) pair or a loaded Ruleset (tables None).
    bots: one bot object per seat. Returns score (B, P), winner (B, P) bool (shared wins all
    True), rounds (B,), end_reason (B,) (addresses.END_*), traits_played (B, P, len(TRAITS))
    int16 (trait cards each seat played onto its species, a replacement counting for the
    new trait) and the final `state`.
    """
    rules, cards = _compile(ruleset_params, tables)
    E = R.Engine(rules, cards)
    st = run(E, new_batch(E, players, seed, game_indices), list(bots))
    return {"score": scores(st), "winner": winners(E, st), "rounds": st.round.copy(),
            "end_reason": st.end_reason.astype(np.int64),
            "traits_played": st.traits_played.copy(), "state": st}
