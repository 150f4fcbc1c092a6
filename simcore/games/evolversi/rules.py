"""Evolversi Male, the batch engine: B games at once as numpy arrays (docs/games/evolversi.md).

One function per rulebook phase and step, over the whole batch. Games take different
paths (different actors, effects, decisions), so every step works on `g`, an int array of
the game rows it applies to, with per-game seats aligned to it (`a` = the actor). Rare
branches gather their subset with `flatnonzero`. A game that ends (the end check) drops
out of `g` at once and nothing touches it again; the batch is compacted between rounds.

Random draws and decisions follow the contract's addresses exactly, so game k of seed s is
the same game in any batch and agrees with the one-game reference engine.
"""
from __future__ import annotations

import math
from dataclasses import fields

import numpy as np

from ... import rng
from ...errors import UserError
from ...ruleset import Ruleset
from . import state_io
from .decisions import BatchDecision
from .state import COND, PKIND, TARGET, TRIGGER, VERB, State, Tables, empty_state, tables_for

KIND_ANIMALS, KIND_TOTEM, KIND_PRESSURE, KIND_EVENTS, KIND_EVOLUTION, KIND_OWN_DECK = 1, 2, 3, 4, 5, 6
DECISIONS = ("PLACE", "ORDER", "OPTIONAL", "TARGET", "SWAP_MARKET", "BUY", "IGNORE_EVENT",
             "TOTEM_OR_FURY", "SWAP_ABOVE", "REACT")
BATCH_SIZE = 32768            # games per chunk in play_batch (memory stays flat)
SETUP_BLOCK = 2048            # games per block of the setup shuffles
COMPACT_BELOW = 0.5           # compact the batch when fewer than this share of games live
_MAX64 = np.uint64(0xFFFFFFFFFFFFFFFF)

# Verbs applied to each target in turn; the others act on the actor alone.
_PER_TARGET = ("gain_points", "lose_points", "gain_tokens", "lose_tokens", "steal_tokens",
               "gain_fury", "lose_fury", "copy_fury")


def _verb_mask(*names) -> np.ndarray:
    """Lookup table verb code -> bool, for arithmetic on mixed verbs."""
    mask = np.zeros(len(VERB), bool)
    for name in names:
        mask[VERB[name]] = True
    return mask


_PER_TARGET_VERB = _verb_mask(*_PER_TARGET)
_VERB_GAIN_TOKENS = _verb_mask("gain_tokens")
_VERB_LOSE_TOKENS = _verb_mask("lose_tokens")
_VERB_STEAL = _verb_mask("steal_tokens")
_VERB_GAIN_FURY = _verb_mask("gain_fury", "copy_fury")
_VERB_LOSE_FURY = _verb_mask("lose_fury")
_VERB_GAIN_POINTS = _verb_mask("gain_points")
_VERB_LOSE_POINTS = _verb_mask("lose_points")
_TOKEN_VERBS = _verb_mask("gain_tokens", "lose_tokens", "steal_tokens")
_FURY_VERBS = _verb_mask("gain_fury", "copy_fury", "lose_fury")
_POINT_VERBS = _verb_mask("gain_points", "lose_points")
_WIDE_TARGETS = [TARGET[t] for t in ("all", "all_others", "before", "after")]


# --------------------------------------------------------------------------- array helpers
#
# Measured habits (../shared/design/PERFORMANCE.md): per-(game, seat) fields are read and
# written through flat indices `g * P + seat` on the raveled array (`x.reshape(-1)`), whole
# rows are gathered with `take(..., axis=0)` and written through a one-element-per-row view
# (`_row_view`); reductions over the tiny seat and hand axes are unrolled. Every state
# array is C-contiguous (checked when a run starts), so these reshapes are views.

_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _row_view(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous array (N, ...) as N single elements, one per row."""
    n = arr.shape[0]
    k = math.prod(arr.shape[1:])
    width = arr.dtype.itemsize * k
    return arr.reshape(n, k).view(_UINT.get(width) or np.dtype((np.void, width))).reshape(n)


def _put_rows(arr: np.ndarray, idx: np.ndarray, rows) -> None:
    """arr[idx] = rows for a C-contiguous arr (N, ...) (several times faster for small rows)."""
    if len(idx):
        _row_view(arr)[idx] = _row_view(np.ascontiguousarray(rows, dtype=arr.dtype))


def _fill_rows(arr: np.ndarray, idx: np.ndarray, value) -> None:
    """arr[idx] = value, row by row through the row view."""
    if len(idx):
        one = np.full((1,) + arr.shape[1:], value, arr.dtype)
        _row_view(arr)[idx] = _row_view(one)[0]


def _any_cols(mask: np.ndarray) -> np.ndarray:
    """mask.any(axis=1) for a (G, K) bool array with a small K, unrolled."""
    out = mask[:, 0].copy()
    for k in range(1, mask.shape[1]):
        out |= mask[:, k]
    return out


def _sum_cols(x: np.ndarray) -> np.ndarray:
    """x.sum(axis=-1) over a small trailing axis, unrolled (int64)."""
    out = x[..., 0].astype(np.int64)
    for k in range(1, x.shape[-1]):
        out += x[..., k]
    return out


def _stable_argsort_rows(keys: np.ndarray, n: np.ndarray | None = None) -> np.ndarray:
    """np.argsort(keys, axis=1, kind="stable") for uint64 keys (G, w).

    One np.sort of the keys with each column index packed into their low bits (several
    times faster than argsort). Two keys that agree on all but those low bits would be
    ordered by column instead of by key: rows with such a pair (a chance of about 2**-56
    per pair) are redone with argsort, so the result is always exactly argsort's. With
    `n` (G,), columns >= n hold equal keys that sort last (padding): ties among them are
    ties by column.
    """
    G, w = keys.shape
    if w <= 1 or G == 0:
        return np.zeros((G, w), np.int64)
    bits = (w - 1).bit_length()
    low = np.uint64((1 << bits) - 1)
    packed = keys & ~low
    packed |= np.arange(w, dtype=np.uint64)
    packed.sort(axis=1)
    order = (packed & low).astype(np.int64)
    packed >>= np.uint64(bits)
    same = packed[:, 1:] == packed[:, :-1]
    if n is not None:
        same &= order[:, :-1] < n[:, None]
    if same.any():
        bad = np.flatnonzero(same.any(axis=1))
        order[bad] = np.argsort(keys[bad], axis=1, kind="stable")
    return order


def _bitmask(mask: np.ndarray) -> np.ndarray:
    """(G,) bit j set iff mask[:, j], for a (G, K) bool mask (uint8 for K <= 8)."""
    if mask.shape[1] <= 8:
        m = mask.view(np.uint8)
        code = m[:, 0].copy()
        for j in range(1, mask.shape[1]):
            code |= m[:, j] << np.uint8(j)
        return code
    code = mask[:, 0].astype(np.int64)
    for j in range(1, mask.shape[1]):
        code |= mask[:, j].astype(np.int64) << j
    return code


def _effects_first(H: int) -> np.ndarray:
    """(2**H, H): for each bitmask of hand positions, those positions in order, then H (pad)."""
    table = np.full((1 << H, H), H, np.int64)
    for mask in range(1 << H):
        on = [j for j in range(H) if mask >> j & 1]
        table[mask, :len(on)] = on
    return table


# --------------------------------------------------------------------------- the run


class _Run:
    """One batch being played: the state plus the engine's position in the round."""

    def __init__(self, rs: Ruleset, tb: Tables, st: State, bots, seed: int):
        self.rs, self.tb, self.st, self.seed = rs, tb, st, seed
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
        self.pairs = np.array([(i, j) for i in range(self.M) for j in range(i + 1, self.M)],
                              np.int64).reshape(-1, 2)
        self._place_cols = [_place_columns(o, self.H) for o in tb.place_options]
        self._effects_first = _effects_first(self.H)
        self._others = (np.arange(self.P)[:, None] + 1 + np.arange(self.P - 1)) % self.P   # (P, P-1)
        self._popcount = (self._effects_first < self.H).sum(axis=1)   # (2**H,) bits set
        j = np.arange(self.M)
        self._slide = j + (j >= j[:, None])      # (M, M) after buying slot i: slot j takes slot _slide[i, j]
        self._bot_keys = None          # (round, games array, (B*P,) uint64 BOT-stream prefixes)
        self.check_layout()
        self._pressure_spaces = None   # (p_space array, (track spaces + 1,) bool: a token space in some game)
        st.at_end[:] = _any_cols(st.pos >= self.L) if st.pos.shape[1] else False

    def check_layout(self) -> None:
        """The flat-index helpers write through reshaped views: every array must be contiguous."""
        for f in fields(self.st):
            if not getattr(self.st, f.name).flags.c_contiguous:
                raise ValueError(f"state field {f.name} is not C-contiguous")

    # ----------------------------------------------------------------- bookkeeping

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

        Only games flagged by move_pawns (a pawn reached the last space since the last
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
        ended = _any_cols(won)
        if not ended.any():
            return g
        e = c[ended]
        st.alive[e] = False
        st.end_reason[e] = 0
        st.rounds[e] = self.rnd
        _put_rows(st.winner, e, won[ended])
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
        seat = np.broadcast_to(np.asarray(seat, np.int64), (G,))
        if valid is not None:
            n = valid.sum(axis=1)
        n = np.broadcast_to(np.asarray(n, np.int64), (G,))
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

    # ----------------------------------------------------------------- piles

    def shuffled(self, g, pile, n, kind, *extra) -> np.ndarray:
        """The first n uids of each row of `pile` (G, W) shuffled at address (kind, *extra):
        a stack with the top (smallest key) last, -1 beyond n."""
        w = int(n.max()) if len(n) else 0
        cards = pile[:, :w]
        inside = np.arange(w) < n[:, None]
        keys = rng.key(self.seed, self.st.games.take(g)[:, None], rng.CHANCE, kind,
                       *[np.asarray(x)[:, None] if np.ndim(x) else x for x in extra],
                       np.maximum(cards, 0))
        keys = np.where(inside, ~keys, _MAX64)
        order = _stable_argsort_rows(keys, n)
        order += (np.arange(len(cards)) * w)[:, None]
        return np.ascontiguousarray(cards).reshape(-1).take(order)

    def _reshuffle(self, g, row, pile, n_pile, stack, n_stack, shuffles, kind, *extra):
        """Shuffle the pile rows `row` (flat row indices) into their (empty) stacks."""
        nf = n_pile.reshape(-1)
        n = nf.take(row)
        sf = shuffles.reshape(-1)
        shuffle_no = sf.take(row) + 1
        w = np.arange(int(n.max()) if len(n) else 0)
        idx = (row * pile.shape[-1])[:, None] + w
        new = self.shuffled(g, pile.reshape(-1).take(idx), n, kind, *extra, shuffle_no)
        stack.reshape(-1)[(row * stack.shape[-1])[:, None] + w] = new
        n_stack.reshape(-1)[row] = n
        sf[row] = shuffle_no
        pile.reshape(-1)[idx] = -1
        nf[row] = 0

    def reshuffle_own(self, g, s):
        """Section 4 phase 1: the seat's discard pile becomes its new deck (KIND 6)."""
        st = self.st
        self._reshuffle(g, g * self.P + s, st.discard, st.n_discard, st.deck, st.n_deck,
                        st.deck_shuffles, KIND_OWN_DECK, s)

    def reshuffle_evolution(self, g):
        st = self.st
        self._reshuffle(g, g, st.common, st.n_common, st.evo_deck, st.n_evo, st.evo_shuffles,
                        KIND_EVOLUTION)

    def reshuffle_events(self, g):
        st = self.st
        self._reshuffle(g, g, st.event_discard, st.n_event_discard, st.event_deck, st.n_event,
                        st.event_shuffles, KIND_EVENTS)

    def to_own_discard(self, g, s, cards):
        st = self.st
        gi = g * self.P + s
        nf = st.n_discard.reshape(-1)
        k = nf.take(gi)
        st.discard.reshape(-1)[gi * st.discard.shape[2] + k] = cards
        nf[gi] = k + 1

    def to_common(self, g, cards):
        st = self.st
        k = st.n_common.take(g)
        st.common.reshape(-1)[g * st.common.shape[1] + k] = cards
        st.n_common[g] = k + 1

    # ----------------------------------------------------------------- pawns, tokens, Fury

    def move_pawns(self, g, t, delta):
        """Pawn t of each game moves by delta, inside 0..track_length; 4th Card check."""
        st = self.st
        gi = g * self.P + t
        pf = st.pos.reshape(-1)
        old = pf.take(gi)
        new = np.minimum(np.maximum(old + delta, 0), self.L).astype(np.int16)
        pf[gi] = new
        top = new >= self.L
        if top.any():
            st.at_end[g[top]] = True
        moved = (new != old) & ~st.fourth.take(g)
        if moved.any():
            gm = g[moved]
            flips = _any_cols(st.pos.take(gm, axis=0) >= self.rs["fourth_card_space"])
            st.fourth[gm[flips]] = True
            st.fourth_round[gm[flips]] = self.rnd

    def gain_tokens(self, g, t, n):
        st = self.st
        sup = st.supply.take(g)
        take = np.minimum(n, sup)
        gi = g * self.P + t
        tf = st.tokens.reshape(-1)
        tf[gi] = tf.take(gi) + take
        st.supply[g] = sup - take

    def gain_fury(self, g, t, n):
        """Section 5.1: Fury wraps past fury_max; each wrap is fury_overflow_points points."""
        st = self.st
        gi = g * self.P + t
        ff = st.fury.reshape(-1)
        total = ff.take(gi) + np.asarray(n, np.int16)
        ff[gi] = total % self.fury_mod
        points = (total // self.fury_mod) * self.rs["fury_overflow_points"]
        up = points > 0
        if up.any():
            self.move_pawns(g[up], t[up], points[up])

    def cond_holds(self, g, a, cond) -> np.ndarray:
        st = self.st
        holds = np.ones(len(g), bool)
        if (cond == COND["always"]).all():
            return holds
        totem_here = st.totem.take(g) == a
        of = st.order.reshape(-1)
        first = self.order_known & (of.take(g * self.P) == a)
        last = self.order_known & (of.take(g * self.P + self.P - 1) == a)
        for code, value in ((COND["has_totem"], totem_here), (COND["no_totem"], ~totem_here),
                            (COND["first"], first), (COND["last"], last)):
            holds &= (cond != code) | value
        return holds

    def resolve(self, g, a, verb, amount, target, cond, F, event=False):
        """Resolve an effect for actor a: condition, targets, decisions, verb (5.1, 5.3)."""
        ok = self.cond_holds(g, a, cond)
        if not ok.all():
            g, a, verb, amount, target, F = g[ok], a[ok], verb[ok], amount[ok], target[ok], F[ok]
        self.apply_effect(g, a, verb, amount, target, F, event)

    def apply_effect(self, g, a, verb, amount, target, F, event=False):
        """The effect's targets and verb, the condition already checked."""
        if len(g) == 0:
            return
        per_target = _PER_TARGET_VERB[verb]
        if not event:
            # the common case first: a point, token or Fury verb on the actor alone
            on_self = per_target & (target == TARGET["self"])
            if on_self.all():
                self.apply_to_target(g, a, verb, amount, F, a)
                return
            if on_self.any():
                i = np.flatnonzero(on_self)
                self.apply_to_target(g[i], a[i], verb[i], amount[i], F[i], a[i])
                i = np.flatnonzero(~on_self)
                g, a, verb, amount, target, F, per_target = (
                    g[i], a[i], verb[i], amount[i], target[i], F[i], per_target[i])
        T = self.targets(g, a, verb, target)
        if event:
            T = self.ignore_event(g, verb, T)
        one_target = T.shape[1] == 1 or not (T[:, 1:] >= 0).any()
        if one_target:
            sel = per_target & (T[:, 0] >= 0)
            if sel.all():
                self.apply_to_target(g, a, verb, amount, F, T[:, 0])
            elif sel.any():
                i = np.flatnonzero(sel)
                self.apply_to_target(g[i], a[i], verb[i], amount[i], F[i], T[i, 0])
        else:
            # token verbs share the supply and the actor's reserve: one target after another;
            # the point and Fury verbs touch only their target: all (game, target) pairs at once
            tokens = _TOKEN_VERBS[verb]
            has_target = T >= 0
            k = np.flatnonzero(tokens & per_target)
            if len(k):
                self.tokens_in_turn(g[k], a[k], verb[k], amount[k], T[k])
            pawn_fury = per_target & ~tokens
            r = np.flatnonzero(pawn_fury & has_target[:, 0])         # first targets
            w = np.flatnonzero(pawn_fury & _any_cols(has_target[:, 1:]))
            rw, cw = np.nonzero(has_target[w, 1:])                      # further targets
            r, c = np.concatenate([r, w[rw]]), np.concatenate([np.zeros(len(r), np.int64), cw + 1])
            if len(r):
                self.apply_to_target(g[r], a[r], verb[r], amount[r], F[r], T[r, c])
        if not per_target.all():
            i = np.flatnonzero(~per_target)
            self.actor_only_verbs(g[i], a[i], verb[i], amount[i])

    def apply_to_target(self, g, a, verb, n, F, t):
        """The point, token and Fury verbs on one target per game, as arithmetic masks
        (each family only if some game of g uses it)."""
        st = self.st
        n = n.astype(np.int16)
        used = np.bincount(verb, minlength=len(VERB)).astype(bool)
        gt = g * self.P + t
        points = None
        if (used & _TOKEN_VERBS).any():
            tf = st.tokens.reshape(-1)
            sup = st.supply.take(g)
            tok_t = tf.take(gt)
            gains = _VERB_GAIN_TOKENS[verb]
            loses = _VERB_LOSE_TOKENS[verb]
            steals = _VERB_STEAL[verb]
            got = np.minimum(n, sup) * gains
            lost = np.minimum(n, tok_t) * (loses | steals)
            tf[gt] = tok_t + got - lost
            st.supply[g] = sup - got + lost * loses
            if used[VERB["steal_tokens"]]:
                ga = g * self.P + a
                tf[ga] = tf.take(ga) + lost * steals
        if (used & _FURY_VERBS).any():
            ff = st.fury.reshape(-1)
            fury_t = ff.take(gt).astype(np.int16)
            gain = (np.where(verb == VERB["copy_fury"], F, n) if used[VERB["copy_fury"]] else n) \
                * _VERB_GAIN_FURY[verb]
            total = fury_t + gain
            wrapped = total % self.fury_mod
            if used[VERB["lose_fury"]]:
                wrapped = np.where(_VERB_LOSE_FURY[verb], np.maximum(fury_t - n, 0), wrapped)
            ff[gt] = wrapped
            points = (total // self.fury_mod) * self.rs["fury_overflow_points"]
        if (used & _POINT_VERBS).any():
            step = n * _VERB_GAIN_POINTS[verb] - n * _VERB_LOSE_POINTS[verb]
            points = step if points is None else points + step
        if points is not None:
            moves = points != 0
            if moves.all():
                self.move_pawns(g, t, points)
            elif moves.any():
                self.move_pawns(g[moves], t[moves], points[moves])

    def tokens_in_turn(self, g, a, verb, n, T):
        """The token verbs (gain, lose, steal) on each game's targets T (G, K), one target
        after another: they share the supply and the actor's reserve (apply_to_target's
        arithmetic, on the games' (G, P) token rows)."""
        st = self.st
        n = n.astype(np.int64)
        tokens = st.tokens.take(g, axis=0).astype(np.int64)          # (G, P)
        flat = tokens.reshape(-1)
        row = np.arange(len(g)) * self.P
        supply = st.supply.take(g).astype(np.int64)
        gains, loses, steals = _VERB_GAIN_TOKENS[verb], _VERB_LOSE_TOKENS[verb], _VERB_STEAL[verb]
        takes = loses | steals
        for j in range(T.shape[1]):
            t = T[:, j]
            on = t >= 0
            if not on.any():
                continue
            at = row + t * on                                          # seat 0 where no target
            held = flat.take(at)
            got = np.minimum(n, supply) * (gains & on)
            lost = np.minimum(n, held) * (takes & on)
            flat[at] = held + got - lost
            supply += lost * loses - got
            if steals.any():
                flat[row + a] += lost * steals
        _put_rows(st.tokens, g, tokens)
        st.supply[g] = supply

    def actor_only_verbs(self, g, a, verb, amount):
        st = self.st
        counts = np.bincount(verb, minlength=len(VERB))
        for name in ("swap_market", "discount", "reveal_pressure", "draw_event", "take_totem"):
            if counts[VERB[name]] == 0:
                continue
            if counts[VERB[name]] == len(g):
                gs, as_, sel = g, a, slice(None)
            else:
                sel = verb == VERB[name]
                gs, as_ = g[sel], a[sel]
            if name == "swap_market":
                self.swap_market(gs, as_)
            elif name == "discount":
                st.discount[gs] += amount[sel]
            elif name == "reveal_pressure":
                self.reveal_pressure(gs, as_)
            elif name == "draw_event":
                self.draw_event(gs, as_)
            else:
                st.totem[gs] = as_

    def targets(self, g, a, verb, target) -> np.ndarray:
        """(G, P) (or (G, 2) if no effect has more targets) seats the verb applies to,
        in order, -1 padded (section 5.1)."""
        st, P = self.st, self.P
        G = len(g)
        counts = np.bincount(target, minlength=len(TARGET))
        wide = counts[_WIDE_TARGETS].sum() > 0
        T = np.full((G, P if wide else 2), -1, np.int64)
        if counts[TARGET["self"]] == G:
            T[:, 0] = a
            return T
        is_self = target == TARGET["self"]
        T[:, 0] = np.where(is_self, a, -1)
        if counts[TARGET["other"]] or counts[TARGET["self_and_other"]]:
            c = np.flatnonzero((target == TARGET["other"]) | (target == TARGET["self_and_other"]))
            other = self.choose_target(g[c], a[c], verb[c])
            pair = target[c] == TARGET["self_and_other"]
            T[c, 0] = np.where(pair, a[c], other)
            T[c[pair], 1] = other[pair]
        for name, start, count in (("all", 0, P), ("all_others", 1, P - 1)):
            if counts[TARGET[name]]:
                sel = np.flatnonzero(target == TARGET[name])
                asel = a[sel]
                for j in range(count):
                    T[sel, j] = (asel + start + j) % P
        for name in ("before", "after"):
            if counts[TARGET[name]]:
                sel = np.flatnonzero(target == TARGET[name])
                gsel = g[sel]
                where = st.order_pos.reshape(-1).take(gsel * P + a[sel]).astype(np.int64)
                order = st.order.take(gsel, axis=0)
                for j in range(P):
                    if name == "before":
                        ok = j < where
                        src = np.full(len(sel), j)
                    else:
                        src = where + 1 + j
                        ok = src < P
                    T[sel[ok], j] = order[ok, src[ok]]
        return T

    def others(self, a) -> np.ndarray:
        """(G, P-1) the other seats clockwise from a + 1 (the TARGET option order)."""
        return self._others.take(a, axis=0)

    def choose_target(self, g, a, verb) -> np.ndarray:
        opts = self.others(a)
        pick = self.decide("TARGET", g, a, n=self.P - 1, info={"verb": verb, "options": opts})
        return opts[np.arange(len(g)), pick]

    def ignore_event(self, g, verb, T) -> np.ndarray:
        """Section 5.3: the Totem holder among the targets may ignore the Event."""
        st = self.st
        holder = st.totem.take(g).astype(np.int64)
        hit = _any_cols(T == holder[:, None])
        if hit.any():
            h = np.flatnonzero(hit)
            ignore = self.decide("IGNORE_EVENT", g[h], holder[h], n=2, info={"verb": verb[h]}) == 1
            rows = h[ignore]
            T[rows] = np.where(T[rows] == holder[rows, None], -1, T[rows])
        return T

    def market_pairs(self, g):
        market = self.st.market.take(g, axis=0)
        occupied = market >= 0
        valid = occupied[:, self.pairs[:, 0]] & occupied[:, self.pairs[:, 1]]
        return valid, market

    def swap_market(self, g, a):
        st = self.st
        valid, market = self.market_pairs(g)
        can = _any_cols(valid) if valid.shape[1] else np.zeros(len(g), bool)
        if not can.any():
            return
        g, a, valid, market = g[can], a[can], valid[can], market[can]
        col = self.decide("SWAP_MARKET", g, a, valid=valid, info={"market": market},
                          shared={"pairs": self.pairs})
        mf = st.market.reshape(-1)
        i, j = g * self.M + self.pairs[col, 0], g * self.M + self.pairs[col, 1]
        ci, cj = mf.take(i), mf.take(j)
        mf[i] = cj
        mf[j] = ci

    def draw_event(self, g, a):
        """draw_event: the top Event (reshuffle the Event discards if needed), resolve, discard."""
        st, tb = self.st, self.tb
        empty = (st.n_event.take(g) == 0) & (st.n_event_discard.take(g) > 0)
        if empty.any():
            self.reshuffle_events(g[empty])
        has = st.n_event.take(g) > 0
        if not has.all():
            g, a = g[has], a[has]
        if len(g) == 0:
            return
        V = st.event_deck.shape[1]
        k = st.n_event.take(g) - 1
        ef = st.event_deck.reshape(-1)
        ev = ef.take(g * V + k)
        ef[g * V + k] = -1
        st.n_event[g] = k
        self.resolve(g, a, tb.ev_verb[ev], tb.ev_amount[ev], tb.ev_target[ev], tb.ev_cond[ev],
                     np.zeros(len(g), np.int16), event=True)
        k = st.n_event_discard.take(g)
        st.event_discard.reshape(-1)[g * V + k] = ev
        st.n_event_discard[g] = k + 1

    def reveal_pressure(self, g, a):
        """reveal_pressure: own turn only, within pressure_per_turn; lowest space >= pawn,
        else the lowest face-down token."""
        st = self.st
        own = (st.actor.take(g) == a) & (st.reveals.take(g) < self.rs["pressure_per_turn"])
        if not own.all():
            g, a = g[own], a[own]
        if len(g) == 0 or st.p_space.shape[1] == 0:   # no Pressure tokens in this game
            return
        space = st.p_space.take(g, axis=0).astype(np.int64)
        face_down = (st.p_token.take(g, axis=0) >= 0) & ~st.p_revealed.take(g, axis=0)
        ahead = space >= st.pos.reshape(-1).take(g * self.P + a)[:, None]
        big = 1 << 20
        rank = np.where(face_down, np.where(ahead, space, space + big), 4 * big)
        slot = rank.argmin(axis=1)
        found = face_down[np.arange(len(g)), slot]
        if found.any():
            self.activate_pressure(g[found], a[found], slot[found])

    def activate_pressure(self, g, a, slot):
        """Section 5.3: reveal the token (it stays face up) and do what it says."""
        st, tb = self.st, self.tb
        gs = g * st.p_token.shape[1] + slot
        st.p_revealed.reshape(-1)[gs] = True
        st.reveals[g] += 1
        token = st.p_token.reshape(-1).take(gs)
        kind = tb.pressure_kind[token]
        meteor = kind == PKIND["meteor"]
        if meteor.any():
            self.draw_event(g[meteor], a[meteor])
        tof = np.flatnonzero(kind == PKIND["totem_or_fury"])
        if len(tof):
            gt, at = g[tof], a[tof]
            holds = st.totem.take(gt) == at
            fury = self.decide("TOTEM_OR_FURY", gt, at, n=2, info={"holds_totem": holds}) == 1
            st.totem[gt[~fury]] = at[~fury]
            if fury.any():
                self.gain_fury(gt[fury], at[fury], tb.pressure_fury[token[tof][fury]])
        swap = kind == PKIND["swap_above"]
        if swap.any():
            self.swap_above(g[swap], a[swap])

    def swap_above(self, g, a):
        """SWAP_ABOVE: (own above index, other seat, its above index), lexicographic."""
        st, H, P = self.st, self.H, self.P
        G = len(g)
        others = self.others(a)
        rows = st.above.reshape(-1, H)
        own = rows.take(g * P + a, axis=0)                                    # (G, H)
        theirs = rows.take(((g * P)[:, None] + others).reshape(-1), axis=0).reshape(G, P - 1, H)
        own_b = np.broadcast_to(own[:, :, None, None], (G, H, P - 1, H))
        their_b = np.broadcast_to(theirs[:, None, :, :], (G, H, P - 1, H))
        valid = ((own_b >= 0) & (their_b >= 0)).reshape(G, -1)
        can = valid.any(axis=1)
        if not can.any():
            return
        g, a, others, valid = g[can], a[can], others[can], valid[can]
        own_c = own_b[can].reshape(len(g), -1)
        their_c = their_b[can].reshape(len(g), -1)
        col = self.decide("SWAP_ABOVE", g, a, valid=valid, info={"own": own_c, "theirs": their_c})
        q, k, r = col // ((P - 1) * H), (col // H) % (P - 1), col % H
        o = others[np.arange(len(g)), k]
        af = st.above.reshape(-1)
        mi, ti = (g * P + a) * H + q, (g * P + o) * H + r
        mine, their = af.take(mi), af.take(ti)
        af[mi] = their
        af[ti] = mine

    def reactions(self, g, x, trigger, F):
        """Section 5.4: the other seats' reaction cards, clockwise from x + 1."""
        if not self.tb.has_reactions or len(g) == 0:
            return
        st, tb, H = self.st, self.tb, self.H
        after_own = self.rs["reactions_after_own_turn"]
        bf = st.below.reshape(-1)
        for k in range(1, self.P):
            s = (x + k) % self.P
            gi = g * self.P + s
            for q in range(H):
                card = bf.take(gi * H + q)
                can = (tb.trigger[card] == trigger) & st.alive.take(g)
                if not after_own:
                    can &= ~st.revealed.reshape(-1).take(gi)
                if not can.any():
                    continue
                c = np.flatnonzero(can)
                gc, sc, cc, Fc = g[c], s[c], card[c], F[c]
                fire = ~tb.optional[cc]
                opt = np.flatnonzero(tb.optional[cc])
                if len(opt):
                    yes = self.decide("REACT", gc[opt], sc[opt], n=2, info={"card": cc[opt]}) == 1
                    fire[opt] = yes
                gc, sc, cc, Fc = gc[fire], sc[fire], cc[fire], Fc[fire]
                if len(gc) == 0:
                    continue
                self.resolve(gc, sc, tb.verb[cc], tb.amount[cc], tb.target[cc], tb.cond[cc], Fc)
                bf[(gc * self.P + sc) * H + q] = -1
                self.to_own_discard(gc, sc, cc)
                self.end_check(gc)

    # ----------------------------------------------------------------- phase 1

    def phase_play(self, g, fresh=False):
        """Phase 1: every seat draws (seat order), then every seat places (seat order).

        `fresh`: every game of g starts the round with no cards drawn or placed (the case
        in play_round), so the checks for a state resumed mid-phase are skipped.
        """
        st, P, H = self.st, self.P, self.H
        self.order_known = False
        for s in range(P):
            g = g[st.alive.take(g)]
            if fresh:
                self.draw(g, s)
                continue
            gi = g * P + s
            nothing_yet = ((st.n_hand.reshape(-1).take(gi) == 0)
                           & ~_any_cols(st.above.reshape(-1, H).take(gi, axis=0) >= 0)
                           & ~_any_cols(st.below.reshape(-1, H).take(gi, axis=0) >= 0))
            self.draw(g[nothing_yet], s)
        g = g[st.alive.take(g)]
        if fresh:                                  # every seat of every game places
            self.place(np.repeat(g, P), np.tile(np.arange(P), len(g)))
            return
        for s in range(P):
            gi = g * P + s
            placed = (_any_cols(st.above.reshape(-1, H).take(gi, axis=0) >= 0)
                      | _any_cols(st.below.reshape(-1, H).take(gi, axis=0) >= 0))
            self.place(g[~placed], s)

    def draw(self, g, s):
        """Draw h cards; when the deck runs out, reshuffle the discards once, then the Power."""
        st, rs, P = self.st, self.rs, self.P
        if len(g) == 0:
            return
        # the 4th Card counts from the round after it flipped (a Power may flip it now)
        flipped_before = st.fourth.take(g) & (st.fourth_round.take(g) < self.rnd)
        h = np.where(flipped_before, rs["hand_size_fourth"], rs["hand_size"])
        ndf = st.n_deck.reshape(-1)
        n = ndf.take(g * P + s)
        enough = n >= h
        if enough.all():
            self.draw_from_deck(g, s, h, n)
            return
        if enough.any():
            self.draw_from_deck(g[enough], s, h[enough], n[enough])
            g, h, n = g[~enough], h[~enough], n[~enough]
        # the deck runs out: its last cards, then (once) the discards become the new deck,
        # the missing cards come from it (as many as there are), and the Power fires
        self.draw_from_deck(g, s, n, n)
        out = st.n_discard.reshape(-1).take(g * P + s) > 0
        if out.any():
            g, h, n = g[out], h[out], n[out]
            self.reshuffle_own(g, s)
            new = ndf.take(g * P + s)
            self.draw_from_deck(g, s, np.minimum(h - n, new), new, start=n)
            self.power(g, s)

    def draw_from_deck(self, g, s, h, n, start=0):
        """h cards (per game) off the top of the deck (n cards) into the hand, from hand
        position `start` on."""
        st, P, H, C = self.st, self.P, self.H, self.st.deck.shape[2]
        if len(g) == 0:
            return
        gi = g * P + s
        start = np.broadcast_to(np.asarray(start, np.int64), gi.shape)
        deckf, handf = st.deck.reshape(-1), st.hand.reshape(-1)
        h_lo, h_hi = int(h.min()), int(h.max())
        for j in range(h_hi):
            if j < h_lo:
                rows, top, at = gi, n - 1 - j, start + j
            else:
                sel = j < h
                rows, top, at = gi[sel], n[sel] - 1 - j, start[sel] + j
            idx = rows * C + top
            handf[rows * H + at] = deckf.take(idx)
            deckf[idx] = -1
        st.n_deck.reshape(-1)[gi] = n - h
        st.n_hand.reshape(-1)[gi] = start + h

    def power(self, g, s):
        """The animal's Power (no OPTIONAL decision), then the end check."""
        st, tb = self.st, self.tb
        animal = st.animal.reshape(-1).take(g * self.P + s)
        a = np.full(len(g), s, np.int64)
        self.apply_effect(g, a, tb.power_verb[animal], tb.power_amount[animal], tb.power_target[animal],
                          np.zeros(len(g), np.int16))
        self.end_check(g)

    def place(self, g, s):
        """PLACE: choose which hand positions go above (contract section 6). `s`: the seat,
        or one seat per game of g (the seats' decisions do not depend on each other)."""
        st, tb, P, H = self.st, self.tb, self.P, self.H
        if len(g) == 0:
            return
        s = np.broadcast_to(np.asarray(s, np.int64), g.shape)
        gi = g * P + s
        n_hand = st.n_hand.reshape(-1).take(gi)
        lo, hi = int(n_hand.min()), int(n_hand.max())
        for h in ([lo] if lo == hi else np.unique(n_hand).tolist()):
            if lo == hi:
                gh, gih, seat = g, gi, s
            else:
                sel = n_hand == h
                gh, gih, seat = g[sel], gi[sel], s[sel]
            G = len(gh)
            options = tb.place_options[h]
            ext = np.full((G, h + 1), -1, np.int16)          # the hand, then an empty card
            ext[:, :h] = st.hand.reshape(-1, H).take(gih, axis=0)[:, :h]
            hand = ext[:, :h]
            pick = self.decide("PLACE", gh, seat, n=len(options), info={"hand": hand},
                               shared={"options": options})
            above_cols, below_cols = self._place_cols[h]
            base = (np.arange(G) * (h + 1))[:, None]
            flat = ext.reshape(-1)
            for target, cols in ((st.above, above_cols), (st.below, below_cols)):
                _put_rows(target.reshape(-1, H), gih, flat.take(base + cols.take(pick, axis=0)))
            _fill_rows(st.hand.reshape(-1, H), gih, -1)
            st.n_hand.reshape(-1)[gih] = 0

    # ----------------------------------------------------------------- phase 2

    def phase_order(self, g):
        """Phase 2: Strength descending, ties from the Totem holder clockwise."""
        st, P = self.st, self.P
        G = len(g)
        strength = _sum_cols(self.tb.strength[st.above.take(g, axis=0)])        # (G, P)
        totem = st.totem.take(g).astype(np.int64)
        # one distinct key per seat: (seat - totem) mod P breaks the Strength ties
        key = -strength * P + (np.arange(P) - totem[:, None]) % P
        col = [key[:, p].copy() for p in range(P)]
        for r in range(P):                       # odd-even transposition sort, unrolled
            for i in range(r % 2, P - 1, 2):
                lo = np.minimum(col[i], col[i + 1])
                np.maximum(col[i], col[i + 1], out=col[i + 1])
                col[i] = lo
        order = np.empty((G, P), np.int8)
        for p in range(P):
            order[:, p] = (col[p] % P + totem) % P
        _put_rows(st.order, g, order)
        st.order_pos.reshape(-1)[(g * P)[:, None] + order] = np.arange(P, dtype=np.int8)
        self.order_known = True

    # ----------------------------------------------------------------- phase 3

    def take_turn(self, g, k):
        """Phase 3 for the k-th seat of the turn order in every game of g."""
        st, tb, rs, P, H = self.st, self.tb, self.rs, self.P, self.H
        a = st.order.reshape(-1).take(g * P + k).astype(np.int64)
        st.actor[g] = a
        st.discount[g] = 0
        st.reveals[g] = 0
        gi = g * P + a
        # 1. tokens from the cards above
        self.gain_tokens(g, a, _sum_cols(tb.tokens[st.above.reshape(-1, H).take(gi, axis=0)]))
        # 2. reveal the cards below: a. Fury symbols
        st.revealed.reshape(-1)[gi] = True
        below = st.below.reshape(-1, H).take(gi, axis=0)
        F = _sum_cols(tb.fury[below])
        f = np.flatnonzero(F > 0)
        if len(f):
            gf, af, Ff = g[f], a[f], F[f]
            self.gain_fury(gf, af, Ff)
            self.end_check(gf)
            live = st.alive.take(gf)
            self.reactions(gf[live], af[live], TRIGGER["other_fury"], Ff[live])
            keep = st.alive.take(g)
            if not keep.all():
                g, a, below = g[keep], a[keep], below[keep]
        # b. effects (reactions only touch other seats' cards, but read again if any ran)
        g, a = self.own_effects(g, a, None if tb.has_reactions else below)
        # 3. buy
        g, a = self.buy(g, a)
        # 4. reserve
        gi = g * P + a
        limit = tb.reserve[st.animal.reshape(-1).take(gi)]
        tf = st.tokens.reshape(-1)
        tokens = tf.take(gi)
        excess = np.maximum(tokens - limit, 0)
        tf[gi] = tokens - excess
        st.supply[g] += excess
        # 5. Pressure under the pawn
        if st.p_space.shape[1]:
            # only pawns on a space that holds a Pressure token in some game can reveal one
            near = self.pressure_spaces()[st.pos.reshape(-1).take(gi)] & (st.reveals.take(g) < rs["pressure_per_turn"])
            if near.any():
                gn, an = g[near], a[near]
                pos = st.pos.reshape(-1).take(gn * P + an)
                here = ((st.p_space.take(gn, axis=0) == pos[:, None]) & (st.p_token.take(gn, axis=0) >= 0)
                        & ~st.p_revealed.take(gn, axis=0))
                hit = _any_cols(here)
                if hit.any():
                    gh, ah = gn[hit], an[hit]
                    self.activate_pressure(gh, ah, here[hit].argmax(axis=1))
                    self.end_check(gh)
        st.actor[g] = -1

    def own_effects(self, g, a, cards):
        """Step 2b: the own-turn effects below (`cards`, (G, H) placement order), in the
        ORDER chosen (section 5.2)."""
        st, tb, H = self.st, self.tb, self.H
        G = len(g)
        if G == 0:
            return g, a
        if cards is None:
            cards = st.below.reshape(-1, H).take(g * self.P + a, axis=0)
        fx = tb.own_fx[cards]
        n_fx = _sum_cols(fx)
        # the effect cards first, in placement order, then -1
        code = _bitmask(fx)
        ext = np.full((G, H + 1), -1, np.int16)
        ext[:, :H] = cards
        E = ext.reshape(-1).take((np.arange(G) * (H + 1))[:, None] + self._effects_first.take(code, axis=0))
        several = np.flatnonzero(n_fx >= 2)
        if len(several):
            gs, as_, ns = g[several], a[several], n_fx[several]
            n_opt = np.array([math.factorial(n) for n in range(H + 1)])[ns]
            pick = self.decide("ORDER", gs, as_, n=n_opt, info={"cards": E[several, :H]})
            turned = pick != 0                # option 0 keeps the placement order
            if turned.any():
                for n in np.unique(ns[turned]).tolist():
                    sel = turned & (ns == n)
                    perm = self.tb.perms[n][pick[sel]]                   # (g_n, n)
                    rows = several[sel]
                    E[rows, :n] = np.take_along_axis(E[rows, :n], perm.astype(np.int64), axis=1)
        for j in range(int(n_fx.max())):
            sel = (j < n_fx) & st.alive.take(g)
            if not sel.any():
                continue
            gj, aj, card = g[sel], a[sel], E[:, j][sel]
            ok = self.cond_holds(gj, aj, tb.cond[card])
            opt = np.flatnonzero(ok & tb.optional[card])
            if len(opt):
                ok[opt] = self.optional(gj[opt], aj[opt], card[opt]) == 1
            if not ok.all():
                gj, aj, card = gj[ok], aj[ok], card[ok]
            self.apply_effect(gj, aj, tb.verb[card], tb.amount[card], tb.target[card],
                              np.zeros(len(gj), np.int16))
            self.discard_symbol(gj, aj, card)
            self.end_check(gj)
        keep = st.alive.take(g)
        if keep.all():
            return g, a
        return g[keep], a[keep]

    def optional(self, g, a, card):
        return self.decide("OPTIONAL", g, a, n=2, info={"card": card})

    def discard_symbol(self, g, a, card):
        """An activated card with the discard symbol leaves the board at once."""
        st, H = self.st, self.H
        d = self.tb.discard_sym[card]
        if not d.any():
            return
        if not d.all():
            g, a, card = g[d], a[d], card[d]
        gi = g * self.P + a
        slot = (st.below.reshape(-1, H).take(gi, axis=0) == card[:, None]).argmax(axis=1)
        st.below.reshape(-1)[gi * H + slot] = -1
        if self.rs["discard_symbol_to"] == "common":
            self.to_common(g, card)
        else:
            self.to_own_discard(g, a, card)

    def buy(self, g, a):
        """Step 3: BUY, pay, the card on top of the deck, the market slides right."""
        st, tb, P, M = self.st, self.tb, self.P, self.M
        G = len(g)
        gi = g * P + a
        market = st.market.take(g, axis=0)                              # (G, M)
        discount = st.discount.take(g)
        tf = st.tokens.reshape(-1)
        tokens = tf.take(gi)
        cost = np.maximum(self.costs[None, :] - discount[:, None], 0)
        valid = np.empty((G, M + 1), bool)
        valid[:, 0] = True
        valid[:, 1:] = (market >= 0) & (cost <= tokens[:, None])
        col = self.decide("BUY", g, a, valid=valid, info={"market": market, "cost": cost, "tokens": tokens})
        b = np.flatnonzero(col > 0)
        if len(b):
            gb, ab, slot = g[b], a[b], col[b] - 1
            gib = gi[b]
            rows = market.take(b, axis=0)                                # (Gb, M)
            card = rows[np.arange(len(b)), slot]
            price = np.maximum(self.costs[slot] - discount[b], 0)
            tf[gib] = tf.take(gib) - price
            st.supply[gb] += price
            ndf = st.n_deck.reshape(-1)
            top = ndf.take(gib)
            st.deck.reshape(-1)[gib * st.deck.shape[2] + top] = card
            ndf[gib] = top + 1
            # slide right: slot j >= the bought slot takes slot j + 1's card, the last is empty
            ext = np.full((len(b), M + 1), -1, np.int16)
            ext[:, :M] = rows
            src = (np.arange(len(b)) * (M + 1))[:, None] + self._slide.take(slot, axis=0)
            _put_rows(st.market, gb, ext.reshape(-1).take(src))
            bf = st.bought.reshape(-1)
            bi = gib * st.bought.shape[2] + tb.row[card]
            bf[bi] = bf.take(bi) + 1
            self.reactions(gb, ab, TRIGGER["other_buy"], np.zeros(len(gb), np.int16))
            self.end_check(gb)
            keep = st.alive.take(g)
            if not keep.all():
                g, a = g[keep], a[keep]
        return g, a

    # ----------------------------------------------------------------- phase 4

    def phase_market(self, g):
        """Phase 4: played cards to own discards, market to the common discards, refill."""
        st, P, H = self.st, self.P, self.H
        G = len(g)
        if G:
            # each seat's cards above, then below, in placement order, onto its discard pile:
            # each row packed (its cards first, then -1) and written whole at the pile's end
            # (the discard piles have H spare columns for the -1 tail)
            W = st.discard.shape[2]
            rows = ((g * P)[:, None] + np.arange(P)).reshape(-1)                 # (G*P,) seat rows
            n_disc = st.n_discard.take(g, axis=0).reshape(-1).astype(np.int64)
            end = rows * W + n_disc
            ext = np.full((G * P, H + 1), -1, np.int16)
            base = (np.arange(G * P) * (H + 1))[:, None]
            df = st.discard.reshape(-1)
            for pile in (st.above, st.below):
                cards = pile.take(g, axis=0).reshape(G * P, H)
                code = _bitmask(cards >= 0)
                count = self._popcount.take(code)
                k = int(count.max())                       # columns worth writing
                ext[:, :H] = cards
                cols = self._effects_first[:, :k].take(code, axis=0)
                df[end[:, None] + np.arange(k)] = ext.reshape(-1).take(base + cols)
                end += count
            _put_rows(st.n_discard, g, (end - rows * W).reshape(G, P))
            _fill_rows(st.above, g, -1)
            _fill_rows(st.below, g, -1)
            _fill_rows(st.revealed, g, False)
            # the market's cards onto the common discards
            market = st.market.take(g, axis=0)
            there = market >= 0
            if there.any():
                n_common = st.n_common.take(g).astype(np.int64)
                rank = np.cumsum(there, axis=1) - 1
                dest = (g * st.common.shape[1] + n_common)[:, None] + rank
                st.common.reshape(-1)[dest[there]] = market[there]
                st.n_common[g] = n_common + rank[:, -1] + 1
            _fill_rows(st.market, g, -1)
        self.refill_market(g)
        if self.rnd == self.rs["max_rounds"]:
            st.alive[g] = False
            st.end_reason[g] = 1
            st.rounds[g] = self.rnd

    def refill_market(self, g):
        st, M = self.st, self.M
        C = st.evo_deck.shape[1]
        ef, mf = st.evo_deck.reshape(-1), st.market.reshape(-1)
        for i in range(self.m):
            n = st.n_evo.take(g)
            out = (n == 0) & (st.n_common.take(g) > 0)
            if out.any():
                self.reshuffle_evolution(g[out])
                n = st.n_evo.take(g)
            has = n > 0
            gh, top = (g, n - 1) if has.all() else (g[has], n[has] - 1)
            idx = gh * C + top
            mf[gh * M + i] = ef.take(idx)
            ef[idx] = -1
            st.n_evo[gh] = top

    # ----------------------------------------------------------------- stepping

    def step(self):
        """Run the next unit: a whole phase, or one turn of phase 3. Returns its kind."""
        g = self.live()
        if self.phase == "play":
            self.phase_play(g)
            if self.st.alive.any():          # a Power may end the game in phase 1
                self.phase, self.turn = "order", 0
            return "phase"
        if self.phase == "order":
            self.phase_order(g)
            self.phase, self.turn = "actions", 0
            return "phase"
        if self.phase == "actions":
            if self.turn < self.P:
                self.take_turn(g, self.turn)
                if len(self.live()):
                    self.turn += 1
                if self.turn >= self.P:
                    self.phase = "market"
                return "turn"
            self.phase = "market"
            return "phase"
        self.phase_market(g)
        if self.st.alive.any():
            self.rnd += 1
            self.phase, self.turn = "play", 0
            self.st.counter[:] = 0
            self.st.order[:] = np.arange(self.P)
            self.st.order_pos[:] = np.arange(self.P)
            self.order_known = False
        return "round"

    def play_round(self):
        """Phases 1-4 of one round on every live game (the fast path of play_batch)."""
        if self.count_decisions:
            self.st.counter[:] = 0
        self.phase_play(self.live(), fresh=True)
        self.phase_order(self.live())
        for k in range(self.P):
            self.take_turn(self.live(), k)
        self.phase_market(self.live())
        self.rnd += 1
        self.order_known = False


def _place_columns(options: np.ndarray, H: int):
    """Per PLACE option: the hand positions above and below, in hand order, padded with h
    (the column of the empty card after the hand)."""
    n_opt, h = options.shape
    above = np.full((max(n_opt, 1), H), h, np.int64)
    below = np.full((max(n_opt, 1), H), h, np.int64)
    for o in range(n_opt):
        up = np.flatnonzero(options[o])
        down = np.flatnonzero(~options[o])
        above[o, :len(up)] = up
        below[o, :len(down)] = down
    return above, below


# --------------------------------------------------------------------------- setup


def _check_players(rs: Ruleset, players: int, bots) -> None:
    if not isinstance(players, int) or not rs["players_min"] <= players <= rs["players_max"]:
        raise UserError(f"Evolversi Male plays with {rs['players_min']}..{rs['players_max']} animals, "
                        f"got players = {players!r}", key="players")
    if len(bots) != players:
        raise UserError(f"needs one bot per seat ({players}), got {len(bots)}: {list(bots)}", key="bots")
    for s, b in enumerate(bots):
        if not callable(getattr(b, "choose", None)):
            raise TypeError(f"seat {s}: the batch engine needs a policy with choose(decision) "
                            f"(decisions.py), got {b!r}")


def _fixed_animals(rs: Ruleset, tb: Tables, animals) -> list:
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


def _shuffled_rows(run: _Run, uids, kind, *extra) -> np.ndarray:
    """(B, n) the same uid set shuffled for every game, top first (rng.shuffle_order);
    `extra`: scalar address parts."""
    games = run.st.games
    uids = np.asarray(uids, np.int64)
    if len(uids) == 0:
        return np.zeros((len(games), 0), np.int64)
    out = np.empty((len(games), len(uids)), np.int64)
    for a in range(0, len(games), SETUP_BLOCK):          # blocks of games stay in the cache
        keys = rng.key(run.seed, games[a:a + SETUP_BLOCK, None], rng.CHANCE, kind, *extra, uids[None, :])
        out[a:a + SETUP_BLOCK] = uids.take(_stable_argsort_rows(keys))
    return out


def _setup(run: _Run, fixed: list) -> None:
    """Section 3 for every game of the batch."""
    rs, tb, st, P = run.rs, run.tb, run.st, run.P
    B = st.size
    comps = tb.comps
    # 1. Pressure tokens
    S = st.p_space.shape[1]
    if S:
        order = _shuffled_rows(run, range(len(comps.pressure_kind)), KIND_PRESSURE)
        st.p_token[:] = order[:, :S]
        st.p_space[:] = np.array(rs["pressure_spaces"][:S], np.int16)
    # 2. Event and Evolution decks (stacks: top last)
    ev = _shuffled_rows(run, range(len(comps.event_row)), KIND_EVENTS, 0)
    st.event_deck[:, :ev.shape[1]] = ev[:, ::-1]
    st.n_event[:] = ev.shape[1]
    evo = _shuffled_rows(run, comps.evolution, KIND_EVOLUTION, 0)
    st.evo_deck[:, :evo.shape[1]] = evo[:, ::-1]
    st.n_evo[:] = evo.shape[1]
    # 3. Market
    run.refill_market(np.arange(B))
    # 4. Animals, own decks, tokens
    taken = np.zeros((B, len(rs.tables["animals"])), bool)
    for s, a in enumerate(fixed):
        if a is not None:
            st.animal[:, s] = a
            taken[:, a] = True
    if any(a is None for a in fixed):
        eligible = _shuffled_rows(run, comps.eligible_animals, KIND_ANIMALS)
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
                           np.asarray(start, np.uint64)[None, :])
            deck = np.asarray(start, np.int16)[_stable_argsort_rows(keys)]
            st.deck[rows[:, None], s, np.arange(len(start))] = deck[:, ::-1]
            st.n_deck[rows, s] = len(start)
        run.gain_tokens(np.arange(B), np.full(B, s), np.full(B, rs["starting_tokens"]))
    # 5. Totem
    if rs["totem_start"] == "random":
        st.totem[:] = rng.below(rng.key(run.seed, st.games, rng.CHANCE, KIND_TOTEM), P)


# --------------------------------------------------------------------------- public API

OUTCOME_FIELDS = ("position", "winner", "rounds", "end_reason", "animal", "fury", "tokens", "bought",
                  "fourth_round")


def _outcome_arrays(n: int, P: int, R: int) -> dict:
    return {"position": np.zeros((n, P), np.int16), "winner": np.zeros((n, P), bool),
            "rounds": np.zeros(n, np.int16), "end_reason": np.zeros(n, np.int8),
            "animal": np.zeros((n, P), np.int8), "fury": np.zeros((n, P), np.int8),
            "tokens": np.zeros((n, P), np.int16), "bought": np.zeros((n, P, R), np.uint16),
            "fourth_round": np.zeros(n, np.int16)}


def _record(st: State, rows: np.ndarray, out: dict, offset: int) -> None:
    dst = st.out.take(rows) + offset
    for name, field in (("position", st.pos), ("winner", st.winner), ("rounds", st.rounds),
                        ("end_reason", st.end_reason), ("animal", st.animal), ("fury", st.fury),
                        ("tokens", st.tokens), ("bought", st.bought), ("fourth_round", st.fourth_round)):
        _put_rows(out[name], dst, field.take(rows, axis=0))


def play_batch(ruleset: Ruleset, players: int, bots, seed: int, games, animals=None) -> dict:
    """Play the games `games` (int64 game indices) to the end; section 8 outcome arrays.

    `bots`: one batch policy per seat (decisions.py; strategies/evolversi/ builds them);
    `animals`: None, or one animal name
    (or None for a random one) per seat. Game k is the same whatever batch it runs in.
    """
    bots = list(bots)
    _check_players(ruleset, players, bots)
    tb = tables_for(ruleset, players)
    fixed = _fixed_animals(ruleset, tb, animals)
    games = np.asarray(games, dtype=np.int64).reshape(-1)
    out = _outcome_arrays(len(games), players, tb.n_rows)
    for start in range(0, len(games), BATCH_SIZE):
        _play_chunk(ruleset, tb, bots, seed, games[start:start + BATCH_SIZE], fixed, out, start)
    return out


def _play_chunk(rs, tb, bots, seed, games, fixed, out, offset):
    st = empty_state(rs, tb, games)
    run = _Run(rs, tb, st, bots, seed)
    _setup(run, fixed)
    while run.st.alive.any():
        run.play_round()
        alive = run.st.alive
        if alive.mean() < COMPACT_BELOW:
            _record(run.st, np.flatnonzero(~alive), out, offset)
            run.st = run.st.take(np.flatnonzero(alive))
            run.check_layout()
    _record(run.st, np.arange(run.st.size), out, offset)


def run_state(ruleset: Ruleset, state: dict, bots, seed: int, game: int, until: str):
    """Load a game state (section 10), play on until `until` (turn, phase, round, end),
    and return (state with card names, outcome dict or None). `bots`: one batch policy
    per seat (decisions.py); a scenario's scripted choices live in its `script` policies."""
    if until not in ("turn", "phase", "round", "end"):
        raise UserError(f"until must be turn, phase, round or end, got {until!r}", key="until")
    players = len(state.get("seats", []))
    bots = list(bots)
    _check_players(ruleset, players, bots)
    tb = tables_for(ruleset, players)
    s = state_io.resolve(ruleset, tb.comps, state)
    dumped, outcome = run_resolved(ruleset, tb, s, bots, seed, game, until)
    return state_io.to_names(ruleset, tb.comps, dumped), outcome


def run_resolved(rs: Ruleset, tb: Tables, s: dict, bots, seed: int, game: int, until: str):
    """run_state on a state whose cards are uids (state_io.resolve); returns the same form."""
    st = _load_state(rs, tb, s, game)
    run = _Run(rs, tb, st, bots, seed)
    run.rnd, run.phase, run.turn = s["round"], s["phase"], s["turn"]
    run.order_known = run.phase in ("actions", "market")
    if not s.get("ended"):
        _run_until(run, until)
    outcome = None
    if not run.st.alive[0]:
        outcome = _outcome_arrays(1, tb.players, tb.n_rows)
        _record(run.st, np.array([0]), outcome, 0)
        outcome = {k: v[0].tolist() for k, v in outcome.items()}
    return _dump_state(run), outcome


def _run_until(run: _Run, until: str) -> None:
    start_round, start_phase = run.rnd, run.phase
    while run.st.alive[0]:
        done = run.step()
        if until == "turn" and done == "turn":
            return
        if until == "phase" and run.phase != start_phase:
            return
        if until == "round" and (run.rnd != start_round):
            return


def _load_state(rs: Ruleset, tb: Tables, s: dict, game: int) -> State:
    st = empty_state(rs, tb, np.array([game], np.int64))
    P = tb.players
    for i, seat in enumerate(s["seats"]):
        st.animal[0, i] = seat["animal"]
        st.pos[0, i] = seat["position"]
        st.fury[0, i] = seat["fury"]
        st.tokens[0, i] = seat["tokens"]
        st.revealed[0, i] = seat["revealed"]
        st.deck_shuffles[0, i] = seat["shuffles"]
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
        st.end_reason[0] = {"track": 0, "stalled": 1}.get(s.get("end_reason"), 0)
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


def _dump_state(run: _Run) -> dict:
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
            "bought": bought,
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
        "end_reason": None if not ended else ("track" if st.end_reason[0] == 0 else "stalled"),
        "winners": [int(i) for i in np.flatnonzero(st.winner[0])],
    }
