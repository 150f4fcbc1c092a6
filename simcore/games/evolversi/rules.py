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

import numpy as np

from strategies.evolversi import batch_bots as bots_mod
from strategies.evolversi.batch_bots import GREEDY, RANDOM

from ... import rng
from ...errors import UserError
from ...ruleset import Ruleset
from . import state_io
from .state import COND, PKIND, TARGET, TRIGGER, VERB, State, Tables, empty_state, tables_for

KIND_ANIMALS, KIND_TOTEM, KIND_PRESSURE, KIND_EVENTS, KIND_EVOLUTION, KIND_OWN_DECK = 1, 2, 3, 4, 5, 6
DECISIONS = ("PLACE", "ORDER", "OPTIONAL", "TARGET", "SWAP_MARKET", "BUY", "IGNORE_EVENT",
             "TOTEM_OR_FURY", "SWAP_ABOVE", "REACT")
BATCH_SIZE = 16384            # games per chunk in play_batch (memory stays flat)
COMPACT_BELOW = 0.8           # compact the batch when fewer than this share of games live
_MAX64 = np.uint64(0xFFFFFFFFFFFFFFFF)

# Verbs applied to each target in turn; the others act on the actor alone.
_PER_TARGET = ("gain_points", "lose_points", "gain_tokens", "lose_tokens", "steal_tokens",
               "gain_fury", "lose_fury", "copy_fury")
_TAKE_TOKENS = {VERB["steal_tokens"], VERB["lose_tokens"]}
_HURT_PAWN = {VERB["lose_points"], VERB["lose_fury"]}
_HURTS = {VERB["lose_points"], VERB["lose_tokens"], VERB["lose_fury"], VERB["steal_tokens"]}


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


# --------------------------------------------------------------------------- the run


class _Run:
    """One batch being played: the state plus the engine's position in the round."""

    def __init__(self, rs: Ruleset, tb: Tables, st: State, bots, seed: int, script=None):
        self.rs, self.tb, self.st, self.seed = rs, tb, st, seed
        self.P = tb.players
        self.L = rs["track_length"]
        self.fury_mod = rs["fury_max"] + 1
        self.H = max(rs["hand_size"], rs["hand_size_fourth"])
        self.M = rs["market_spaces"]
        self.m = min(self.P + rs["market_extra"], self.M)
        self.costs = np.array(rs["market_costs"][:self.M], np.int16)
        self.bot = np.array([bots_mod.BOT_CODES[b] for b in bots], np.int8)
        self.bot_kinds = sorted(set(self.bot.tolist()))
        self.script = script or {}
        self.rnd = 1
        self.phase = "play"
        self.turn = 0
        self.order_known = False       # phase 2 of this round has run
        self.pairs = np.array([(i, j) for i in range(self.M) for j in range(i + 1, self.M)],
                              np.int64).reshape(-1, 2)
        self._place_cols = [_place_columns(o, self.H) for o in tb.place_options]

    # ----------------------------------------------------------------- bookkeeping

    def live(self) -> np.ndarray:
        return np.flatnonzero(self.st.alive)

    def end_check(self, g: np.ndarray) -> np.ndarray:
        """Section 5.1: a pawn on the last space ends the game at once; returns live games."""
        st = self.st
        if len(g) == 0:
            return g
        won = st.pos[g] >= self.L
        ended = won.any(axis=1)
        if ended.any():
            e = g[ended]
            st.alive[e] = False
            st.end_reason[e] = 0
            st.rounds[e] = self.rnd
            st.winner[e] = won[ended]
            return g[~ended]
        return g

    def decide(self, kind: str, g, seat, n=None, valid=None, greedy=None) -> np.ndarray:
        """Ask the seats `seat` (one per game of g) a decision; returns the option chosen.

        Options are either 0..n-1 (n per game) or the True columns of `valid` (G, K), in
        order; then the returned value is a column. `greedy()` gives the greedy bot's answer
        for every game of g. The seat's decision counter advances in every case.
        """
        st = self.st
        d = st.counter[g, seat]
        st.counter[g, seat] = d + 1
        if valid is not None:
            n = valid.sum(axis=1)
        n = np.broadcast_to(np.asarray(n, np.int64), (len(g),))
        kinds = self.bot_kinds if len(self.bot_kinds) == 1 else None
        code = self.bot[seat]
        choice = np.zeros(len(g), np.int64)
        for k in (kinds or sorted(set(code.tolist()))):
            sel = slice(None) if kinds else code == k
            if k == GREEDY:
                choice[sel] = greedy()[sel]
                continue
            if k == RANDOM:
                r = bots_mod.random_choice(self.seed, st.games[g][sel], self.rnd, seat[sel], d[sel], n[sel])
            else:
                r = self._scripted(kind, seat[sel], n[sel])
            choice[sel] = r if valid is None else bots_mod.nth_valid(valid[sel], r)
        return choice

    def _scripted(self, kind, seats, n):
        out = np.zeros(len(seats), np.int64)
        for i, (s, k) in enumerate(zip(seats.tolist(), n.tolist())):
            queue = self.script.get(s, [])
            if not queue:
                raise UserError(f"seat {s} has no scripted choice left for its {kind} decision "
                                f"({k} options)", key=f"choices.{s}")
            c = queue.pop(0)
            if str(c.get("kind", "")).upper() != kind.upper():
                raise UserError(f"seat {s}: the next decision is {kind} ({k} options), the script "
                                f"says {c.get('kind')!r}", key=f"choices.{s}")
            opt = c.get("option")
            if not isinstance(opt, int) or not 0 <= opt < k:
                raise UserError(f"seat {s}: {kind} option must be 0..{k - 1}, got {opt!r}",
                                key=f"choices.{s}")
            out[i] = opt
        return out

    # ----------------------------------------------------------------- piles

    def shuffled(self, g, pile, n, kind, *extra) -> np.ndarray:
        """The first n uids of each row of `pile` (G, W) shuffled at address (kind, *extra):
        a stack with the top (smallest key) last, -1 beyond n."""
        w = int(n.max()) if len(n) else 0
        cards = pile[:, :w]
        inside = np.arange(w) < n[:, None]
        keys = rng.key(self.seed, self.st.games[g][:, None], rng.CHANCE, kind,
                       *[np.asarray(x)[:, None] if np.ndim(x) else x for x in extra],
                       np.maximum(cards, 0))
        keys = np.where(inside, ~keys, _MAX64)
        order = np.argsort(keys, axis=1, kind="stable")
        return np.take_along_axis(cards, order, axis=1)

    def reshuffle_own(self, g, s):
        """Section 4 phase 1: the seat's discard pile becomes its new deck (KIND 6)."""
        st = self.st
        n = st.n_discard[g, s]
        shuffle_no = st.deck_shuffles[g, s] + 1
        new = self.shuffled(g, st.discard[g, s], n, KIND_OWN_DECK, s, shuffle_no)
        w = new.shape[1]
        st.deck[g, s, :w] = new
        st.n_deck[g, s] = n
        st.deck_shuffles[g, s] = shuffle_no
        st.discard[g, s, :w] = -1
        st.n_discard[g, s] = 0

    def reshuffle_evolution(self, g):
        st = self.st
        n = st.n_common[g]
        shuffle_no = st.evo_shuffles[g] + 1
        new = self.shuffled(g, st.common[g], n, KIND_EVOLUTION, shuffle_no)
        w = new.shape[1]
        st.evo_deck[g, :w] = new
        st.n_evo[g] = n
        st.evo_shuffles[g] = shuffle_no
        st.common[g, :w] = -1
        st.n_common[g] = 0

    def reshuffle_events(self, g):
        st = self.st
        n = st.n_event_discard[g]
        shuffle_no = st.event_shuffles[g] + 1
        new = self.shuffled(g, st.event_discard[g], n, KIND_EVENTS, shuffle_no)
        w = new.shape[1]
        st.event_deck[g, :w] = new
        st.n_event[g] = n
        st.event_shuffles[g] = shuffle_no
        st.event_discard[g, :w] = -1
        st.n_event_discard[g] = 0

    def to_own_discard(self, g, s, cards):
        st = self.st
        k = st.n_discard[g, s]
        st.discard[g, s, k] = cards
        st.n_discard[g, s] = k + 1

    def to_common(self, g, cards):
        st = self.st
        k = st.n_common[g]
        st.common[g, k] = cards
        st.n_common[g] = k + 1

    # ----------------------------------------------------------------- pawns, tokens, Fury

    def move_pawns(self, g, t, delta):
        """Pawn t of each game moves by delta, inside 0..track_length; 4th Card check."""
        st = self.st
        old = st.pos[g, t]
        new = np.clip(old + delta, 0, self.L).astype(np.int16)
        st.pos[g, t] = new
        moved = (new != old) & ~st.fourth[g]
        if moved.any():
            gm = g[moved]
            flips = (st.pos[gm] >= self.rs["fourth_card_space"]).any(axis=1)
            st.fourth[gm[flips]] = True
            st.fourth_round[gm[flips]] = self.rnd

    def gain_tokens(self, g, t, n):
        st = self.st
        take = np.minimum(n, st.supply[g])
        st.tokens[g, t] += take
        st.supply[g] -= take

    def gain_fury(self, g, t, n):
        """Section 5.1: Fury wraps past fury_max; each wrap is fury_overflow_points points."""
        st = self.st
        total = st.fury[g, t] + np.asarray(n, np.int16)
        st.fury[g, t] = total % self.fury_mod
        points = (total // self.fury_mod) * self.rs["fury_overflow_points"]
        up = points > 0
        if up.any():
            self.move_pawns(g[up], t[up], points[up])

    def cond_holds(self, g, a, cond) -> np.ndarray:
        st = self.st
        holds = np.ones(len(g), bool)
        if (cond == COND["always"]).all():
            return holds
        totem_here = st.totem[g] == a
        holds[cond == COND["has_totem"]] = totem_here[cond == COND["has_totem"]]
        holds[cond == COND["no_totem"]] = ~totem_here[cond == COND["no_totem"]]
        first = self.order_known & (st.order[g, 0] == a)
        last = self.order_known & (st.order[g, self.P - 1] == a)
        holds[cond == COND["first"]] = first[cond == COND["first"]]
        holds[cond == COND["last"]] = last[cond == COND["last"]]
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
        T = self.targets(g, a, verb, target)
        if event:
            T = self.ignore_event(g, verb, T)
        per_target = _PER_TARGET_VERB[verb]
        for j in range(T.shape[1]):
            t = T[:, j]
            sel = per_target & (t >= 0)
            if j == 0 and sel.all():
                self.apply_to_target(g, a, verb, amount, F, t)
                continue
            i = np.flatnonzero(sel)
            if len(i):
                self.apply_to_target(g[i], a[i], verb[i], amount[i], F[i], t[i])
        if not per_target.all():
            i = np.flatnonzero(~per_target)
            self.actor_only_verbs(g[i], a[i], verb[i], amount[i])

    def apply_to_target(self, g, a, verb, n, F, t):
        """The point, token and Fury verbs on one target per game, as arithmetic masks
        (each family only if some game of g uses it)."""
        st = self.st
        n = n.astype(np.int16)
        used = np.bincount(verb, minlength=len(VERB)).astype(bool)
        points = None
        if (used & _TOKEN_VERBS).any():
            sup = st.supply[g]
            tok_t = st.tokens[g, t]
            gains = _VERB_GAIN_TOKENS[verb]
            loses = _VERB_LOSE_TOKENS[verb]
            steals = _VERB_STEAL[verb]
            got = np.minimum(n, sup) * gains
            lost = np.minimum(n, tok_t) * (loses | steals)
            st.tokens[g, t] = tok_t + got - lost
            st.supply[g] = sup - got + lost * loses
            if used[VERB["steal_tokens"]]:
                st.tokens[g, a] += lost * steals
        if (used & _FURY_VERBS).any():
            fury_t = st.fury[g, t].astype(np.int16)
            gain = np.where(verb == VERB["copy_fury"], F, n) * _VERB_GAIN_FURY[verb]
            total = fury_t + gain
            wrapped = total % self.fury_mod
            if used[VERB["lose_fury"]]:
                wrapped = np.where(_VERB_LOSE_FURY[verb], np.maximum(fury_t - n, 0), wrapped)
            st.fury[g, t] = wrapped
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

    def actor_only_verbs(self, g, a, verb, amount):
        st = self.st
        counts = np.bincount(verb, minlength=len(VERB))
        for name in ("swap_market", "discount", "reveal_pressure", "draw_event", "take_totem"):
            if counts[VERB[name]] == 0:
                continue
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
        T[is_self, 0] = a[is_self]
        if counts[TARGET["other"]] or counts[TARGET["self_and_other"]]:
            c = np.flatnonzero((target == TARGET["other"]) | (target == TARGET["self_and_other"]))
            other = self.choose_target(g[c], a[c], verb[c])
            pair = target[c] == TARGET["self_and_other"]
            T[c, 0] = np.where(pair, a[c], other)
            T[c[pair], 1] = other[pair]
        for name, start, count in (("all", 0, P), ("all_others", 1, P - 1)):
            if counts[TARGET[name]]:
                sel = target == TARGET[name]
                for j in range(count):
                    T[sel, j] = (a[sel] + start + j) % P
        for name in ("before", "after"):
            if counts[TARGET[name]]:
                sel = np.flatnonzero(target == TARGET[name])
                where = st.order_pos[g[sel], a[sel]].astype(np.int64)
                order = st.order[g[sel]]
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
        return (a[:, None] + 1 + np.arange(self.P - 1)) % self.P

    def choose_target(self, g, a, verb) -> np.ndarray:
        st = self.st
        opts = self.others(a)

        def greedy():
            kind = np.where(np.isin(verb, list(_TAKE_TOKENS)), 0, np.where(np.isin(verb, list(_HURT_PAWN)), 1, 2))
            return bots_mod.greedy_target(kind, st.tokens[g[:, None], opts], st.pos[g[:, None], opts])

        pick = self.decide("TARGET", g, a, n=self.P - 1, greedy=greedy)
        return opts[np.arange(len(g)), pick]

    def ignore_event(self, g, verb, T) -> np.ndarray:
        """Section 5.3: the Totem holder among the targets may ignore the Event."""
        st = self.st
        holder = st.totem[g].astype(np.int64)
        hit = (T == holder[:, None]).any(axis=1)
        if hit.any():
            h = np.flatnonzero(hit)
            hurts = np.isin(verb[h], list(_HURTS))
            ignore = self.decide("IGNORE_EVENT", g[h], holder[h], n=2,
                                 greedy=lambda: bots_mod.greedy_ignore_event(hurts)) == 1
            rows = h[ignore]
            T[rows] = np.where(T[rows] == holder[rows, None], -1, T[rows])
        return T

    def market_pairs(self, g):
        occupied = self.st.market[g] >= 0
        valid = occupied[:, self.pairs[:, 0]] & occupied[:, self.pairs[:, 1]]
        return valid, self.tb.v_buy[self.st.market[g]]

    def swap_market(self, g, a):
        st = self.st
        valid, buy = self.market_pairs(g)
        can = valid.any(axis=1)
        if not can.any():
            return
        g, a, valid, buy = g[can], a[can], valid[can], buy[can]
        col = self.decide("SWAP_MARKET", g, a, valid=valid,
                          greedy=lambda: bots_mod.greedy_swap_market(buy, self.pairs, valid))
        i, j = self.pairs[col, 0], self.pairs[col, 1]
        ci, cj = st.market[g, i], st.market[g, j]
        st.market[g, i] = cj
        st.market[g, j] = ci

    def draw_event(self, g, a):
        """draw_event: the top Event (reshuffle the Event discards if needed), resolve, discard."""
        st, tb = self.st, self.tb
        empty = (st.n_event[g] == 0) & (st.n_event_discard[g] > 0)
        if empty.any():
            self.reshuffle_events(g[empty])
        has = st.n_event[g] > 0
        g, a = g[has], a[has]
        if len(g) == 0:
            return
        k = st.n_event[g] - 1
        ev = st.event_deck[g, k]
        st.event_deck[g, k] = -1
        st.n_event[g] = k
        self.resolve(g, a, tb.ev_verb[ev], tb.ev_amount[ev], tb.ev_target[ev], tb.ev_cond[ev],
                     np.zeros(len(g), np.int16), event=True)
        k = st.n_event_discard[g]
        st.event_discard[g, k] = ev
        st.n_event_discard[g] = k + 1

    def reveal_pressure(self, g, a):
        """reveal_pressure: own turn only, within pressure_per_turn; lowest space >= pawn,
        else the lowest face-down token."""
        st = self.st
        own = (st.actor[g] == a) & (st.reveals[g] < self.rs["pressure_per_turn"])
        g, a = g[own], a[own]
        if len(g) == 0 or st.p_space.shape[1] == 0:   # no Pressure tokens in this game
            return
        space = st.p_space[g].astype(np.int64)
        face_down = (st.p_token[g] >= 0) & ~st.p_revealed[g]
        ahead = space >= st.pos[g, a][:, None]
        big = 1 << 20
        rank = np.where(face_down, np.where(ahead, space, space + big), 4 * big)
        slot = rank.argmin(axis=1)
        found = face_down[np.arange(len(g)), slot]
        if found.any():
            self.activate_pressure(g[found], a[found], slot[found])

    def activate_pressure(self, g, a, slot):
        """Section 5.3: reveal the token (it stays face up) and do what it says."""
        st, tb = self.st, self.tb
        st.p_revealed[g, slot] = True
        st.reveals[g] += 1
        kind = tb.pressure_kind[st.p_token[g, slot]]
        meteor = kind == PKIND["meteor"]
        if meteor.any():
            self.draw_event(g[meteor], a[meteor])
        tof = np.flatnonzero(kind == PKIND["totem_or_fury"])
        if len(tof):
            gt, at = g[tof], a[tof]
            holds = st.totem[gt] == at
            fury = self.decide("TOTEM_OR_FURY", gt, at, n=2,
                               greedy=lambda: bots_mod.greedy_totem_or_fury(holds)) == 1
            st.totem[gt[~fury]] = at[~fury]
            if fury.any():
                self.gain_fury(gt[fury], at[fury], np.ones(int(fury.sum()), np.int16))
        swap = kind == PKIND["swap_above"]
        if swap.any():
            self.swap_above(g[swap], a[swap])

    def swap_above(self, g, a):
        """SWAP_ABOVE: (own above index, other seat, its above index), lexicographic."""
        st, H, P = self.st, self.H, self.P
        others = self.others(a)
        own = st.above[g, a]                                        # (G, H)
        theirs = st.above[g[:, None], others]                       # (G, P-1, H)
        own_b = np.broadcast_to(own[:, :, None, None], (len(g), H, P - 1, H))
        their_b = np.broadcast_to(theirs[:, None, :, :], (len(g), H, P - 1, H))
        valid = ((own_b >= 0) & (their_b >= 0)).reshape(len(g), -1)
        can = valid.any(axis=1)
        if not can.any():
            return
        g, a, others, valid = g[can], a[can], others[can], valid[can]
        own_v = self.tb.v_above[own_b[can]].reshape(len(g), -1)
        their_v = self.tb.v_above[their_b[can]].reshape(len(g), -1)
        col = self.decide("SWAP_ABOVE", g, a, valid=valid,
                          greedy=lambda: bots_mod.greedy_swap_above(own_v, their_v, valid))
        q, k, r = col // ((P - 1) * H), (col // H) % (P - 1), col % H
        o = others[np.arange(len(g)), k]
        mine, their = st.above[g, a, q], st.above[g, o, r]
        st.above[g, a, q] = their
        st.above[g, o, r] = mine

    def reactions(self, g, x, trigger, F):
        """Section 5.4: the other seats' reaction cards, clockwise from x + 1."""
        if not self.tb.has_reactions or len(g) == 0:
            return
        st, tb = self.st, self.tb
        after_own = self.rs["reactions_after_own_turn"]
        for k in range(1, self.P):
            s = (x + k) % self.P
            for q in range(self.H):
                card = st.below[g, s, q]
                can = (tb.trigger[card] == trigger) & st.alive[g]
                if not after_own:
                    can &= ~st.revealed[g, s]
                if not can.any():
                    continue
                c = np.flatnonzero(can)
                gc, sc, cc, Fc = g[c], s[c], card[c], F[c]
                fire = ~tb.optional[cc]
                opt = np.flatnonzero(tb.optional[cc])
                if len(opt):
                    yes = self.decide("REACT", gc[opt], sc[opt], n=2,
                                      greedy=lambda: bots_mod.greedy_constant(len(opt), 1)) == 1
                    fire[opt] = yes
                gc, sc, cc, Fc = gc[fire], sc[fire], cc[fire], Fc[fire]
                if len(gc) == 0:
                    continue
                self.resolve(gc, sc, tb.verb[cc], tb.amount[cc], tb.target[cc], tb.cond[cc], Fc)
                st.below[gc, sc, q] = -1
                self.to_own_discard(gc, sc, cc)
                self.end_check(gc)

    # ----------------------------------------------------------------- phase 1

    def phase_play(self, g):
        """Phase 1: every seat draws (seat order), then every seat places (seat order)."""
        st = self.st
        self.order_known = False
        for s in range(self.P):
            g = g[st.alive[g]]
            nothing_yet = (st.n_hand[g, s] == 0) & (st.above[g, s] < 0).all(axis=1) & (st.below[g, s] < 0).all(axis=1)
            self.draw(g[nothing_yet], s)
        g = g[st.alive[g]]
        for s in range(self.P):
            placed = (st.above[g, s] >= 0).any(axis=1) | (st.below[g, s] >= 0).any(axis=1)
            self.place(g[~placed], s)

    def draw(self, g, s):
        """Draw h cards; when the deck runs out, reshuffle the discards once, then the Power."""
        st, rs = self.st, self.rs
        if len(g) == 0:
            return
        # the 4th Card counts from the round after it flipped (a Power may flip it now)
        flipped_before = st.fourth[g] & (st.fourth_round[g] < self.rnd)
        h = np.where(flipped_before, rs["hand_size_fourth"], rs["hand_size"])
        enough = st.n_deck[g, s] >= h
        if enough.all():
            self.draw_from_deck(g, s, h)
            return
        if enough.any():
            self.draw_from_deck(g[enough], s, h[enough])
            g, h = g[~enough], h[~enough]
        powered = np.zeros(len(g), bool)
        for j in range(self.H):
            want = j < h
            if not want.any():
                break
            out = want & (st.n_deck[g, s] == 0) & (st.n_discard[g, s] > 0)
            if out.any():
                self.reshuffle_own(g[out], s)
                powered |= out
            can = want & (st.n_deck[g, s] > 0)
            gc = g[can]
            top = st.n_deck[gc, s] - 1
            st.hand[gc, s, j] = st.deck[gc, s, top]
            st.deck[gc, s, top] = -1
            st.n_deck[gc, s] = top
            st.n_hand[gc, s] = j + 1
        if powered.any():
            self.power(g[powered], s)

    def draw_from_deck(self, g, s, h):
        """The common case: the whole hand comes off the top of the deck."""
        st = self.st
        n = st.n_deck[g, s]
        h_lo, h_hi = int(h.min()), int(h.max())
        for j in range(h_hi):
            rows = g if j < h_lo else g[j < h]
            top = (n if j < h_lo else n[j < h]) - 1 - j
            st.hand[rows, s, j] = st.deck[rows, s, top]
            st.deck[rows, s, top] = -1
        st.n_deck[g, s] = n - h
        st.n_hand[g, s] = h

    def power(self, g, s):
        """The animal's Power (no OPTIONAL decision), then the end check."""
        st, tb = self.st, self.tb
        animal = st.animal[g, s]
        a = np.full(len(g), s, np.int64)
        self.apply_effect(g, a, tb.power_verb[animal], tb.power_amount[animal], tb.power_target[animal],
                          np.zeros(len(g), np.int16))
        self.end_check(g)

    def place(self, g, s):
        """PLACE: choose which hand positions go above (contract section 6)."""
        st, tb = self.st, self.tb
        n_hand = st.n_hand[g, s]
        for h in np.unique(n_hand).tolist():
            gh = g[n_hand == h]
            options = tb.place_options[h]
            hand = st.hand[gh, s, :h]
            seat = np.full(len(gh), s, np.int64)
            pick = self.decide("PLACE", gh, seat, n=len(options),
                               greedy=lambda: bots_mod.greedy_place(tb.v_above[hand], tb.v_below[hand], options))
            above_cols, below_cols = self._place_cols[h]
            for target, cols in ((st.above, above_cols), (st.below, below_cols)):
                c = cols[pick]                                       # (G, H) hand positions, -1 pad
                target[gh, s] = np.where(c >= 0, np.take_along_axis(hand, np.maximum(c, 0), axis=1)
                                         if h else -1, -1)
            st.hand[gh, s] = -1
            st.n_hand[gh, s] = 0

    # ----------------------------------------------------------------- phase 2

    def phase_order(self, g):
        """Phase 2: Strength descending, ties from the Totem holder clockwise."""
        st, P = self.st, self.P
        strength = self.tb.strength[st.above[g]].sum(axis=2).astype(np.int64)     # (G, P)
        seat = np.arange(P)
        key = -strength * P + (seat - st.totem[g][:, None].astype(np.int64)) % P
        order = np.argsort(key, axis=1, kind="stable")
        st.order[g] = order
        st.order_pos[g[:, None], order] = seat
        self.order_known = True

    # ----------------------------------------------------------------- phase 3

    def take_turn(self, g, k):
        """Phase 3 for the k-th seat of the turn order in every game of g."""
        st, tb, rs = self.st, self.tb, self.rs
        a = st.order[g, k].astype(np.int64)
        st.actor[g] = a
        st.discount[g] = 0
        st.reveals[g] = 0
        # 1. tokens from the cards above
        self.gain_tokens(g, a, tb.tokens[st.above[g, a]].sum(axis=1))
        # 2. reveal the cards below: a. Fury symbols
        st.revealed[g, a] = True
        F = tb.fury[st.below[g, a]].sum(axis=1)
        f = np.flatnonzero(F > 0)
        if len(f):
            gf, af, Ff = g[f], a[f], F[f]
            self.gain_fury(gf, af, Ff)
            self.end_check(gf)
            live = st.alive[gf]
            self.reactions(gf[live], af[live], TRIGGER["other_fury"], Ff[live])
            keep = st.alive[g]
            g, a = g[keep], a[keep]
        # b. effects
        g, a = self.own_effects(g, a)
        # 3. buy
        g, a = self.buy(g, a)
        # 4. reserve
        limit = tb.reserve[st.animal[g, a]]
        excess = np.maximum(st.tokens[g, a] - limit, 0)
        st.tokens[g, a] -= excess
        st.supply[g] += excess
        # 5. Pressure under the pawn
        can = st.reveals[g] < rs["pressure_per_turn"]
        here = (st.p_space[g] == st.pos[g, a][:, None]) & (st.p_token[g] >= 0) & ~st.p_revealed[g]
        hit = can & here.any(axis=1)
        if hit.any():
            gh, ah = g[hit], a[hit]
            self.activate_pressure(gh, ah, here[hit].argmax(axis=1))
            self.end_check(gh)
        st.actor[g] = -1

    def own_effects(self, g, a):
        """Step 2b: the own-turn effects below, in the ORDER chosen (section 5.2)."""
        st, tb, H = self.st, self.tb, self.H
        cards = st.below[g, a]                                       # (G, H) placement order
        fx = tb.own_fx[cards]
        n_fx = fx.sum(axis=1)
        # the effect cards first, in placement order (stable sort keeps it)
        E = np.take_along_axis(cards, np.argsort(~fx, axis=1, kind="stable"), axis=1)
        E = np.where(np.arange(H) < n_fx[:, None], E, -1)
        several = np.flatnonzero(n_fx >= 2)
        if len(several):
            gs, as_, ns = g[several], a[several], n_fx[several]
            n_opt = np.array([math.factorial(n) for n in range(H + 1)])[ns]
            pick = self.decide("ORDER", gs, as_, n=n_opt, greedy=lambda: bots_mod.greedy_constant(len(gs), 0))
            for n in np.unique(ns).tolist():
                sel = ns == n
                perm = self.tb.perms[n][pick[sel]]                   # (g_n, n)
                rows = several[sel]
                E[rows, :n] = np.take_along_axis(E[rows, :n], perm.astype(np.int64), axis=1)
        for j in range(int(n_fx.max()) if len(g) else 0):
            sel = (j < n_fx) & st.alive[g]
            if not sel.any():
                continue
            gj, aj, card = g[sel], a[sel], E[sel, j]
            ok = self.cond_holds(gj, aj, tb.cond[card])
            opt = np.flatnonzero(ok & tb.optional[card])
            if len(opt):
                ok[opt] = self.optional(gj[opt], aj[opt], card[opt]) == 1
            gj, aj, card = gj[ok], aj[ok], card[ok]
            self.apply_effect(gj, aj, tb.verb[card], tb.amount[card], tb.target[card],
                              np.zeros(len(gj), np.int16))
            self.discard_symbol(gj, aj, card)
            self.end_check(gj)
        keep = st.alive[g]
        return g[keep], a[keep]

    def optional(self, g, a, card):
        tb = self.tb
        is_swap = tb.verb[card] == VERB["swap_market"]

        def greedy():
            valid, buy = self.market_pairs(g)
            gain = bots_mod.best_swap_gain(buy, self.pairs, valid)
            return bots_mod.greedy_optional(is_swap, gain, tb.v_effect[card])

        return self.decide("OPTIONAL", g, a, n=2, greedy=greedy)

    def discard_symbol(self, g, a, card):
        """An activated card with the discard symbol leaves the board at once."""
        st = self.st
        d = self.tb.discard_sym[card]
        if not d.any():
            return
        g, a, card = g[d], a[d], card[d]
        slot = (st.below[g, a] == card[:, None]).argmax(axis=1)
        st.below[g, a, slot] = -1
        if self.rs["discard_symbol_to"] == "common":
            self.to_common(g, card)
        else:
            self.to_own_discard(g, a, card)

    def buy(self, g, a):
        """Step 3: BUY, pay, the card on top of the deck, the market slides right."""
        st, tb = self.st, self.tb
        market = st.market[g]
        cost = np.maximum(self.costs[None, :] - st.discount[g][:, None], 0)
        affordable = (market >= 0) & (cost <= st.tokens[g, a][:, None])
        valid = np.concatenate([np.ones((len(g), 1), bool), affordable], axis=1)
        col = self.decide("BUY", g, a, valid=valid,
                          greedy=lambda: bots_mod.greedy_buy(tb.v_buy[market], cost, valid))
        b = np.flatnonzero(col > 0)
        if len(b):
            gb, ab, slot = g[b], a[b], col[b] - 1
            card = market[b, slot]
            price = cost[b, slot]
            st.tokens[gb, ab] -= price
            st.supply[gb] += price
            top = st.n_deck[gb, ab]
            st.deck[gb, ab, top] = card
            st.n_deck[gb, ab] = top + 1
            for j in range(self.M - 1):
                moves = j >= slot
                st.market[gb, j] = np.where(moves, st.market[gb, j + 1], st.market[gb, j])
            st.market[gb, self.M - 1] = -1
            st.bought[gb, ab, tb.row[card]] += 1
            self.reactions(gb, ab, TRIGGER["other_buy"], np.zeros(len(gb), np.int16))
            self.end_check(gb)
            keep = st.alive[g]
            g, a = g[keep], a[keep]
        return g, a

    # ----------------------------------------------------------------- phase 4

    def phase_market(self, g):
        """Phase 4: played cards to own discards, market to the common discards, refill."""
        st = self.st
        for s in range(self.P):
            for pile in (st.above, st.below):
                for q in range(self.H):
                    card = pile[g, s, q]
                    there = card >= 0
                    if there.any():
                        self.to_own_discard(g[there], s, card[there])
                pile[g, s] = -1
            st.revealed[g, s] = False
        for i in range(self.M):
            card = st.market[g, i]
            there = card >= 0
            if there.any():
                self.to_common(g[there], card[there])
        st.market[g] = -1
        self.refill_market(g)
        if self.rnd == self.rs["max_rounds"]:
            st.alive[g] = False
            st.end_reason[g] = 1
            st.rounds[g] = self.rnd

    def refill_market(self, g):
        st = self.st
        for i in range(self.m):
            out = (st.n_evo[g] == 0) & (st.n_common[g] > 0)
            if out.any():
                self.reshuffle_evolution(g[out])
            has = st.n_evo[g] > 0
            gh = g[has]
            top = st.n_evo[gh] - 1
            st.market[gh, i] = st.evo_deck[gh, top]
            st.evo_deck[gh, top] = -1
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
        self.st.counter[:] = 0
        self.phase_play(self.live())
        self.phase_order(self.live())
        for k in range(self.P):
            self.take_turn(self.live(), k)
        self.phase_market(self.live())
        self.rnd += 1
        self.order_known = False


def _place_columns(options: np.ndarray, H: int):
    """Per PLACE option: the hand positions above and below, in hand order, -1 padded."""
    n_opt, h = options.shape
    above = np.full((max(n_opt, 1), H), -1, np.int64)
    below = np.full((max(n_opt, 1), H), -1, np.int64)
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
    for b in bots:
        if b not in bots_mod.BOT_CODES:
            raise UserError(f"unknown Evolversi bot {b!r}; known bots: {', '.join(bots_mod.BOT_CODES)}",
                            key="bots")


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
    """(B, n) the same uid set shuffled for every game, top first (rng.shuffle_order)."""
    games = run.st.games
    uids = np.asarray(uids, np.int64)
    if len(uids) == 0:
        return np.zeros((len(games), 0), np.int64)
    keys = rng.key(run.seed, games[:, None], rng.CHANCE, kind,
                   *[np.asarray(x)[:, None] if np.ndim(x) else x for x in extra], uids[None, :])
    return uids[np.argsort(keys, axis=1, kind="stable")]


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
            deck = np.asarray(start, np.int16)[np.argsort(keys, axis=1, kind="stable")]
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
    dst = st.out[rows] + offset
    out["position"][dst] = st.pos[rows]
    out["winner"][dst] = st.winner[rows]
    out["rounds"][dst] = st.rounds[rows]
    out["end_reason"][dst] = st.end_reason[rows]
    out["animal"][dst] = st.animal[rows]
    out["fury"][dst] = st.fury[rows]
    out["tokens"][dst] = st.tokens[rows]
    out["bought"][dst] = st.bought[rows]
    out["fourth_round"][dst] = st.fourth_round[rows]


def play_batch(ruleset: Ruleset, players: int, bots, seed: int, games, animals=None) -> dict:
    """Play the games `games` (int64 game indices) to the end; section 8 outcome arrays.

    `bots`: one name per seat (`random` or `greedy`); `animals`: None, or one animal name
    (or None for a random one) per seat. Game k is the same whatever batch it runs in.
    """
    bots = list(bots)
    _check_players(ruleset, players, bots)
    if "script" in bots:
        raise UserError("the script bot needs scripted choices: use run_state", key="bots")
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
    _record(run.st, np.arange(run.st.size), out, offset)


def run_state(ruleset: Ruleset, state: dict, bots, seed: int, game: int, until: str, choices=None):
    """Load a game state (section 10), play on until `until` (turn, phase, round, end),
    and return (state with card names, outcome dict or None)."""
    if until not in ("turn", "phase", "round", "end"):
        raise UserError(f"until must be turn, phase, round or end, got {until!r}", key="until")
    players = len(state.get("seats", []))
    bots = list(bots) if bots is not None else ["script"] * players
    _check_players(ruleset, players, bots)
    tb = tables_for(ruleset, players)
    s = state_io.resolve(ruleset, tb.comps, state)
    script = {int(k): v for k, v in (choices or {}).items()}     # popped in place
    dumped, outcome = run_resolved(ruleset, tb, s, bots, seed, game, until, script)
    return state_io.to_names(ruleset, tb.comps, dumped), outcome


def run_resolved(rs: Ruleset, tb: Tables, s: dict, bots, seed: int, game: int, until: str, script=None):
    """run_state on a state whose cards are uids (state_io.resolve); returns the same form."""
    st = _load_state(rs, tb, s, game)
    run = _Run(rs, tb, st, bots, seed, script)
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
