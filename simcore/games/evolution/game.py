"""Whole games on the batch engine: setup, rounds, scoring (`play_batch`).

Same phases and random addresses as reference.play_one, which is its oracle. The rules
run compiled (kernels.py); this module makes the batch and reads the results.
"""
from __future__ import annotations

import numpy as np

from . import rules as R
from .ruleset import Cards, Rules, compile_rules
from .state import State, empty


def _compile(ruleset_params, tables) -> tuple[Rules, Cards]:
    if isinstance(ruleset_params, Rules):
        return ruleset_params, tables
    return compile_rules(ruleset_params)          # a loaded simcore Ruleset


def new_batch(E: R.Engine, players: int, seed: int, games) -> State:
    """Setup: every game's deck shuffled by its own stream, first player drawn."""
    games = np.asarray(games, np.int64)
    st = empty(len(games), players, E.rules.species_slots, E.cards.n, seed=seed, games=games)
    R.setup(E, st, players)
    return st


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


def play_batch(ruleset_params, tables, players: int, bots, seed: int, game_indices) -> dict:
    """Play the games `game_indices` of run `seed`; one row per game.

    ruleset_params/tables: a compiled (Rules, Cards) pair or a loaded Ruleset (tables None).
    bots: one bot object per seat (with a compiled bot `code`). Returns score (B, P),
    winner (B, P) bool (shared wins all True), rounds (B,), end_reason (B,)
    (addresses.END_*), traits_played (B, P, len(TRAITS)) int16 (trait cards each seat played
    onto its species, a replacement counting for the new trait) and the final `state`.
    """
    rules, cards = _compile(ruleset_params, tables)
    E = R.Engine(rules, cards)
    game_indices = np.asarray(game_indices, np.int64)
    st = empty(len(game_indices), players, rules.species_slots, cards.n, seed=seed,
               games=game_indices)
    R.play_games(E, st, list(bots), players)
    return {"score": scores(st), "winner": winners(E, st), "rounds": st.round.copy(),
            "end_reason": st.end_reason.astype(np.int64),
            "traits_played": st.traits_played.copy(), "state": st}
