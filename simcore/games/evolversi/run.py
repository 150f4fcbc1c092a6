"""The batch being played (`Run`): the state, the engine's place in the round, the end
check and the decision interface (each seat's policy, decisions.py).

Games take different paths (different actors, effects, decisions), so every step works on
`g`, an int array of the game rows it applies to, with per-game seats aligned to it (`a` =
the actor). A game that ends (the end check) drops out of `g` at once.
"""
from __future__ import annotations

from dataclasses import fields

import numpy as np

from ... import rng
from ...ruleset import Ruleset
from .arrays import any_cols, put_rows
from .decisions import BatchDecision
from .state import END_TRACK, State, Tables


class Run:
    """One batch being played: the state plus the engine's position in the round."""

    def __init__(self, rs: Ruleset, tb: Tables, st: State, bots, seed: int):
        self.rs, self.tb, self.st, self.seed = rs, tb, st, seed
        self.seed_u64 = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)    # the kernels' seed (rng.key's)
        self.P = tb.players
        self.L = rs["track_length"]
        self.fury_mod = rs["fury_max"] + 1
        self.H = max(rs["hand_size"], rs["hand_size_fourth"])
        self.M = rs["market_spaces"]
        self.m = min(self.P + rs["market_extra"], self.M)
        self.costs = np.array(rs["market_costs"][:self.M], np.int16)
        # each seat's policy; seats sharing one policy object are asked together
        self.policies = []
        for p in bots:
            if not any(p is q for q in self.policies):
                self.policies.append(p)
        self.seat_policy = np.array([next(i for i, q in enumerate(self.policies) if q is p) for p in bots])
        self.count_decisions = any(getattr(p, "uses_keys", True) for p in self.policies)
        self.rnd = 1
        self.phase = "play"
        self.turn = 0
        self.order_known = False       # phase 2 of this round has run
        self.turn_engine = None        # whole rounds compiled (rules.compiled_turn: rounds.py, turn.py), or None: numpy
        self.pairs = np.array([(i, j) for i in range(self.M) for j in range(i + 1, self.M)],
                              np.int64).reshape(-1, 2)
        self._others = (np.arange(self.P)[:, None] + 1 + np.arange(self.P - 1)) % self.P   # (P, P-1)
        self._bot_keys = None          # (round, games array, (B*P,) uint64 BOT-stream prefixes)
        self.check_layout()
        self._pressure_spaces = None   # (p_space array, (track spaces + 1,) bool: a token space in some game)
        st.at_end[:] = any_cols(st.pos >= self.L) if st.pos.shape[1] else False

    def check_layout(self) -> None:
        """The flat-index helpers write through reshaped views: every array must be contiguous."""
        for f in fields(self.st):
            if not getattr(self.st, f.name).flags.c_contiguous:
                raise ValueError(f"state field {f.name} is not C-contiguous")

    def pressure_spaces(self) -> np.ndarray:
        """(track spaces + 1,) bool: the space holds a Pressure token in some game of the batch."""
        st = self.st
        if self._pressure_spaces is None or self._pressure_spaces[0] is not st.p_space:
            top = max(self.L, int(st.pos.max(initial=0)))     # moves never go past the last space
            table = np.zeros(top + 1, bool)
            spaces = np.unique(st.p_space)
            table[spaces[(spaces >= 0) & (spaces <= top)]] = True
            self._pressure_spaces = (st.p_space, table)
        return self._pressure_spaces[1]

    def live(self) -> np.ndarray:
        return np.flatnonzero(self.st.alive)

    def end_check(self, g: np.ndarray) -> np.ndarray:
        """Section 5.1: a pawn on the last space ends the game at once; returns live games.

        Only games flagged by move_pawn (a pawn reached the last space since the last
        check) can end, so only they are looked at.
        """
        st = self.st
        if len(g) == 0:
            return g
        flagged = st.at_end.take(g)
        if not flagged.any():
            return g
        f = np.flatnonzero(flagged)
        c = g[f]
        st.at_end[c] = False
        won = st.pos.take(c, axis=0) >= self.L
        ended = any_cols(won)
        if not ended.any():
            return g
        e = c[ended]
        st.alive[e] = False
        st.end_reason[e] = END_TRACK
        st.rounds[e] = self.rnd
        put_rows(st.winner, e, won[ended])
        gone = np.zeros(len(g), bool)
        gone[f[ended]] = True
        return g[~gone]

    def bot_keys(self) -> np.ndarray:
        """(B*P,) key(seed, game, BOT, round, seat) per game and seat, for this round: the
        random bot's key of a decision is one more hash step (the counter) from it."""
        st = self.st
        cached = self._bot_keys
        if cached is None or cached[0] != self.rnd or cached[1] is not st.games:
            with np.errstate(over="ignore"):
                base = rng.key(self.seed, st.games, rng.BOT, self.rnd)
                keys = rng._mix(base[:, None] ^ np.arange(self.P, dtype=np.uint64)).reshape(-1)
            self._bot_keys = cached = (self.rnd, st.games, keys)
        return cached[2]

    def decide(self, kind: str, g, seat, n=None, valid=None, info=None, shared=None) -> np.ndarray:
        """Ask the seats `seat` (one per game of g) a decision; returns the choice per game.

        Options are either 0..n-1 (n per game) or the True columns of `valid` (G, K), in
        order; then the returned value is a column (decisions.py). Each seat's policy is
        called once for the games where it decides. The seat's decision counter advances
        in every case, unless no policy reads the decision keys.
        """
        G = len(g)
        if G == 0:
            return np.zeros(0, np.int64)
        seat = _per_game(seat, G)
        if valid is None:
            n = _per_game(n, G)
        seat_key = d = None
        if self.count_decisions:
            gi = g * self.P + seat
            cf = self.st.counter.reshape(-1)
            d = cf.take(gi)
            cf[gi] = d + 1
            seat_key = self.bot_keys().take(gi)
        q = BatchDecision(kind, g, seat, n, valid, self, info or {}, shared or {}, seat_key, d)
        if len(self.policies) == 1:
            return np.asarray(self.policies[0].choose(q), np.int64)
        who = self.seat_policy.take(seat)
        choice = np.zeros(G, np.int64)
        for i in np.unique(who).tolist():
            sel = np.flatnonzero(who == i)
            choice[sel] = self.policies[i].choose(q.subset(sel))
        return choice


def _per_game(x, G: int) -> np.ndarray:
    """(G,) int64 from one value or G values (np.broadcast_to costs more than the rest of
    a small batch's decision)."""
    x = np.asarray(x, np.int64)
    return np.full(G, x) if x.ndim == 0 else x
