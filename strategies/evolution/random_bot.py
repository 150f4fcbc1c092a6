"""The `random` Evolution bot: uniform choices from the BOT stream (both engine forms).

Food card: a uniform card of the hand. Card play: one action, its kind uniform among
new species / trait / grow population / grow body, with uniform card, species and trait
slot (an illegal pick is simply skipped by the engine). Feeding: uniform among the legal
options (the canonical order both engines share).
Draw addresses: (BOT_FOOD_CARD, round, seat), (BOT_PLAY, round, seat, k), (BOT_FEED,
round, seat, turn).
"""
from __future__ import annotations

import numpy as np

from simcore import rng
from simcore.games.evolution import addresses as A


def _below(seed, game, n, *address):
    return int(rng.below(rng.key(seed, game, rng.BOT, *address), max(n, 1)))


class RandomBot:
    name = "random"

    # ---- reference form
    def choose_food_card(self, g, seat):
        hand = sorted(g.players[seat].hand)
        return hand[_below(g.seed, g.game_index, len(hand), A.BOT_FOOD_CARD, g.round, seat)]

    def play_cards(self, g, seat):
        p = g.players[seat]
        hand = sorted(p.hand)
        if not hand:
            return []

        def pick(k, n):
            return _below(g.seed, g.game_index, n, A.BOT_PLAY, g.round, seat, k)
        kind = pick(0, 4)
        card = hand[pick(1, len(hand))]
        s = pick(2, len(p.species))
        if kind == 0:
            return [("new", card, 0)]
        if kind == 1:
            n_tr = len(p.species[s].traits) if s < len(p.species) else 0
            slot = -1 if n_tr < g.rules.max_traits else pick(3, n_tr)
            return [("trait", card, s, slot)]
        return [("pop" if kind == 2 else "body", card, s)]

    def choose_feeding(self, g, seat, opts, turn):
        return opts[_below(g.seed, g.game_index, len(opts), A.BOT_FEED, g.round, seat, turn)]

    # ---- batch form
    def _below(self, st, g, n, *address):
        return rng.below(rng.key(st.seed, st.games[g], rng.BOT, *address), np.maximum(n, 1))

    def batch_food_card(self, E, st, g, c):
        count = st.hand_n[g, c].astype(np.int64)
        k = self._below(st, g, count, A.BOT_FOOD_CARD, st.round[g], c)
        return np.where(count > 0, st.hand[g, c, np.minimum(k, st.hand.shape[2] - 1)], -1)

    def batch_play(self, E, st, g, c):
        from simcore.games.evolution import rules as R
        count = st.hand_n[g, c].astype(np.int64)                        # the hand is sorted
        rnd = st.round[g]
        kind = self._below(st, g, 4, A.BOT_PLAY, rnd, c, 0)
        k = self._below(st, g, count, A.BOT_PLAY, rnd, c, 1)
        card = st.hand[g, c, np.minimum(k, st.hand.shape[2] - 1)].astype(np.int64)
        n_sp = st.n_species[g, c].astype(np.int64)
        s = self._below(st, g, n_sp, A.BOT_PLAY, rnd, c, 2)
        n_tr = np.where(s < n_sp, st.n_traits[g, c, np.minimum(s, st.S - 1)], 0).astype(np.int64)
        slot = np.where(n_tr < E.rules.max_traits, -1,
                        self._below(st, g, n_tr, A.BOT_PLAY, rnd, c, 3))
        code = np.array([R.NEW, R.TRAIT, R.POP, R.BODY])[kind]
        code = np.where(count > 0, code, R.NONE)
        slot = np.where(kind == 0, 0, slot)
        return [(code, card, s, slot)]

    def batch_feed(self, E, st, g, c, opts, turn):
        k = self._below(st, g, opts.forgo + opts.n_acts(), A.BOT_FEED, st.round[g], c, turn)
        return opts.pick(k)
