"""The `random` Evolution bot: uniform choices from the BOT stream (reference form here; compiled form in compiled.py).

Food card: a uniform card of the hand. Card play: one action, its kind uniform among
new species / trait / grow population / grow body, with uniform card, species and trait
slot (an illegal pick is simply skipped by the engine). Feeding: uniform among the legal
options (the canonical order both engines share).
Draw addresses: (BOT_FOOD_CARD, round, seat), (BOT_PLAY, round, seat, k), (BOT_FEED,
round, seat, turn).
"""
from __future__ import annotations



from simcore import rng
from simcore.games.evolution import addresses as A


def _below(seed, game, n, *address):
    return rng.randint(seed, game, rng.BOT, max(n, 1), *address)


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
