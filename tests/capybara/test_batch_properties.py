"""Batch engine properties, checked after setup and every turn of seeded games: tokens,
strikes and cards conserved, fatigue = the strikes taken, every game ends; rows identical
across batch sizes and orders."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games.capybara import state as S
from simcore.games.capybara.rules import play_batch

from .batch_kit import policies, ruleset, turns, view

CASES = [("default", ["greedy"] * 4), ("default", ["random"] * 3), ("additional-rules", ["greedy", "random"] * 2),
         ("additional-rules", ["random"] * 6), ("boxed-last-resolves", ["random"] * 5),
         ("revolution-bonus-card", ["greedy", "random", "greedy"])]


def check(rs, rk, g):
    P, m, N, Sn, R = (int(rk[k]) for k in (S.R_P, S.R_M, S.R_N, S.R_S, S.R_REV))
    tok = view(rk, g, S.O_TOK, (m, P))
    sup = view(rk, g, S.O_SUP, (P,))
    slot = view(rk, g, S.O_SLOT, (m,))
    # tokens: each seat's tokens are in its supply or on a strike (the 20-token limit)
    assert (sup >= 0).all() and (tok >= 0).all()
    assert (sup + tok.sum(0) == rs["tokens_per_player"]).all()
    assert (tok[slot < 0] == 0).all()
    # strikes: every strike uid exactly once in the deck, the row, under-cards or taken
    seen = list(view(rk, g, S.O_SDECK, (Sn,))[g[S.G_SDTOP]:g[S.G_SDLEN]]) + [s for s in slot if s >= 0]
    und, und_n = view(rk, g, S.O_UNDER, (m, Sn)), view(rk, g, S.O_UNDER_N, (m,))
    taken, taken_n = view(rk, g, S.O_TAKEN, (P, Sn)), view(rk, g, S.O_TAKEN_N, (P,))
    for i in range(m):
        seen += list(und[i, :und_n[i]])
    fat = rk[rk[S.T_SFAT]:rk[S.T_SFAT] + Sn]
    for x in range(P):
        seen += list(taken[x, :taken_n[x]])
        # fatigue = the fatigue of the strikes taken
        assert view(rk, g, S.O_TFAT, (P,))[x] == fat[taken[x, :taken_n[x]]].sum()
    assert sorted(seen) == list(range(Sn))
    # cards: every capybara card in play in exactly one place; Revolutions in the deck or played/boxed
    hand = view(rk, g, S.O_HAND, (P, N))
    cards = list(np.flatnonzero(hand.ravel()) % N)
    deck = list(view(rk, g, S.O_DECK, (N + R,))[g[S.G_DTOP]:g[S.G_DLEN]])
    cards += [c for c in deck if c < N] + list(view(rk, g, S.O_DISC, (N + R,))[:g[S.G_DISC_N]])
    locks, lock_n = view(rk, g, S.O_LOCK, (m, N)), view(rk, g, S.O_LOCK_N, (m,))
    for i in range(m):
        cards += list(locks[i, :lock_n[i]])
    inplay = np.flatnonzero(view(rk, g, S.O_INPLAY, (N,)) == 1)      # 2: returned to the box at setup
    assert sorted(cards) == list(inplay)
    assert sum(c >= N for c in deck) + g[S.G_RP] + g[S.G_RB] == R
    assert (view(rk, g, S.O_HAND_N, (P,)) == hand.sum(1)).all()


@pytest.mark.parametrize("variant,names", CASES)
def test_conservation_every_turn_and_games_end(variant, names):
    rs = ruleset(variant)
    for game in range(3):
        last = None
        for rk, g in turns(rs, names, seed=11, game=game):
            check(rs, rk, g)
            last = g
        assert last[S.G_ENDED] == 1
        assert last[S.G_RP] + last[S.G_RB] == rs["revolutions"]


def test_rows_identical_across_batch_sizes_and_order():
    rs = ruleset("additional-rules")
    games = np.arange(50, 90, dtype=np.int64)
    pol = policies(rs, ["greedy", "random", "greedy", "random"])
    whole = play_batch(rs, 4, pol, 5, games)
    rev = play_batch(rs, 4, pol, 5, games[::-1].copy())
    for k in ("fatigue", "winner", "played", "turns", "end_reason", "tokens_left", "strikes"):
        assert (whole[k] == rev[k][::-1]).all(), k
    for b in (0, 17, 39):
        one = play_batch(rs, 4, pol, 5, games[b:b + 1])
        assert (one["fatigue"][0] == whole["fatigue"][b]).all()
        assert (one["played"][0] == whole["played"][b]).all()


def test_outcome_tallies_and_winners():
    rs = ruleset()
    out = play_batch(rs, 4, policies(rs, ["greedy"] * 4), 2, np.arange(200, dtype=np.int64))
    # every game has a winner; winners hold the lowest (fatigue, tokens left, strikes)
    assert out["winner"].any(1).all()
    for b in range(200):
        key = list(zip(out["fatigue"][b], out["tokens_left"][b], out["strikes"][b]))
        best = min(key)
        assert [k == best for k in key] == list(out["winner"][b])
    assert (out["rounds"] == -(-out["turns"] // 4)).all()
    assert out["played"].sum() > 0
