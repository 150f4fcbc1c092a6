"""The cs4500 course's "silly" player, exactly as the conformance README describes it.

Cards: sort the hand by (trait name, food value); card 0 is the food card, cards 1 and 2
make a new board at the right end (pay, trait), then card 3 grows its population, card 4
its body, card 5 replaces its trait 0 (one of each at most).
Feeding: fat-tissue species with the largest need first; else hungry vegetarians, largest
first by (population, food, body), ties by index; else carnivores in the same order,
attacking the largest attackable species of the other players (first found wins ties,
players in turn order after this one); never its own species.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.traits import TRAITS


def sorted_hand(g, hand) -> list:
    """The hand in silly order: (trait name, food value), stable."""
    return sorted(hand, key=lambda c: (TRAITS[g.kind(c)], int(g.cards.food[c])))


def card_actions(rest, n_species) -> list:
    """Card actions from the sorted hand without its food card (rest[0] = old card 1)."""
    acts = []
    if len(rest) >= 2:
        acts += [("new", rest[0], 0), ("trait", rest[1], n_species, -1)]
    if len(rest) >= 3:
        acts.append(("pop", rest[2], n_species))
    if len(rest) >= 4:
        acts.append(("body", rest[3], n_species))
    if len(rest) >= 5:
        acts.append(("trait", rest[4], n_species, 0))
    return acts


def choose_actions(g, hand, n_species) -> tuple:
    """(food card, card actions) for a hand of card ids and a player with n_species boards."""
    cards = sorted_hand(g, hand)
    if not cards:
        return None, []
    return cards[0], card_actions(cards[1:], n_species)


def _largest_key(sp, index):
    return (-sp.pop, -sp.food, -sp.body, index)


def feeding_choice(g, seat, opts) -> tuple:
    """The silly choice among the legal feeding options `opts` (reference engine form)."""
    species = g.players[seat].species
    stores = [o[1] for o in opts if o[0] == "store"]
    if stores:
        s = min(stores, key=lambda i: (-(species[i].body - species[i].fat),)
                + _largest_key(species[i], i))
        return ("store", s)
    vegs = [o[1] for o in opts if o[0] == "veg"]
    if vegs:
        return ("veg", min(vegs, key=lambda i: _largest_key(species[i], i)))
    n = len(g.players)
    attacks = [o for o in opts if o[0] == "attack" and o[4] < 0 and o[2] != seat]
    if attacks:
        a = min({o[1] for o in attacks}, key=lambda i: _largest_key(species[i], i))

        def target_key(o):
            sp = g.players[o[2]].species[o[3]]
            return (-sp.pop, -sp.food, -sp.body, (o[2] - seat - 1) % n, o[3])
        return min((o for o in attacks if o[1] == a), key=target_key)
    return opts[0]


class Silly:
    """Reference-engine form: the methods `reference.play_round` calls."""

    name = "silly"

    def choose_food_card(self, g, seat):
        return choose_actions(g, g.players[seat].hand, len(g.players[seat].species))[0]

    def play_cards(self, g, seat):
        p = g.players[seat]
        return card_actions(sorted_hand(g, p.hand), len(p.species))

    def choose_feeding(self, g, seat, opts, turn):
        return feeding_choice(g, seat, opts)

    def batch_food_card(self, E, st, g, c):
        return batch_food_card(st, g, c)

    def batch_play(self, E, st, g, c):
        return batch_card_actions(st, g, c)

    def batch_feed(self, E, st, g, c, opts, turn):
        return batch_feed(E, st, g, c, opts)


# ---------------------------------------------------------------- batch form

_K = 32   # radix for composite sort keys (every count is below 32)


def _size_key(st, g, c):
    """(n, S) int64: larger = earlier in (population, food, body) desc, then index asc."""
    S = st.S
    from simcore.games.evolution.rules import seat_rows
    return (((seat_rows(st, "pop", g, c).astype(np.int64) * _K + seat_rows(st, "food", g, c)) * _K
             + seat_rows(st, "body", g, c)) * _K
            + (S - 1 - np.arange(S))[None, :])


def batch_feed(E, st, g, c, opts):
    """The silly choice for each game (batch form of `feeding_choice`)."""
    from simcore.games.evolution import rules as R
    n, P, S = len(g), st.P, st.S
    size = _size_key(st, g, c)
    ch = R.Choice.forgo(n)
    decided = np.zeros(n, bool)

    stores = np.flatnonzero(R.any_last(opts.store))
    if len(stores):
        gs, cs = g[stores], c[stores]
        need = st.body[gs, cs].astype(np.int64) - st.fat[gs, cs]
        key = np.where(opts.store[stores], need * _K ** 4 + size[stores], -1)
        ch.kind[stores], ch.s[stores] = R.STORE, np.argmax(key, axis=1)
        decided[stores] = True
    vegs = np.flatnonzero(R.any_last(opts.veg) & ~decided)
    if len(vegs):
        ch.kind[vegs] = R.VEG
        ch.s[vegs] = np.argmax(np.where(opts.veg[vegs], size[vegs], -1), axis=1)
        decided[vegs] = True

    m = len(opts.arows)
    if m:
        others = np.arange(P)[None, :] != c[opts.arows][:, None]
        att = opts.att & others[:, None, :, None]
        attackers = R.any_last(att.reshape(att.shape[:2] + (-1,)))     # (m, S)
        go = np.flatnonzero(R.any_last(attackers) & ~decided[opts.arows])
        if len(go):
            rows = opts.arows[go]
            gg, cc = g[rows], c[rows]
            a = np.argmax(np.where(attackers[go], size[rows], -1), axis=1)
            targets = att[go, a]                                      # (k, P, S)
            tkey = ((st.pop[gg].astype(np.int64) * _K + st.food[gg]) * _K + st.body[gg])
            rel = (np.arange(P)[None, :] - cc[:, None] - 1) % P       # turn order after c
            order = rel[:, :, None] * S + np.arange(S)[None, None, :]
            key = tkey * (P * S) + (P * S - 1 - order)
            t = np.argmax(np.where(targets, key, -1).reshape(len(go), -1), axis=1)
            ch.kind[rows], ch.s[rows] = R.ATTACK, a
            ch.q[rows], ch.d[rows] = t // S, t % S
            decided[rows] = True
    fallback = np.flatnonzero(~decided & ~opts.forgo)
    if len(fallback):
        ch.put(fallback, opts.subset(fallback).pick(np.zeros(len(fallback), np.int64)))
    return ch


def batch_food_card(st, g, c):
    """Lowest card id in hand (ids are in silly order), -1 for an empty hand."""
    return np.where(st.hand_n[g, c] > 0, st.hand[g, c, 0], -1).astype(np.int64)


def batch_card_actions(st, g, c):
    """Card actions as (kind, card, species, slot) arrays, from the hand without food card."""
    from simcore.games.evolution import rules as R
    n = len(g)
    count = st.hand_n[g, c].astype(np.int64)
    first = np.full((n, 5), -1, np.int64)
    k = min(5, st.hand.shape[2])
    first[:, :k] = st.hand[g, c, :k]                                   # the hand is sorted
    rest = [first[:, k] for k in range(5)]
    new_slot = st.n_species[g, c].astype(np.int64)
    zero = np.zeros(n, np.int64)

    def act(k_needed, kind, card, s, slot):
        return (np.where(count >= k_needed, kind, R.NONE), card, s, slot)

    return [act(2, R.NEW, rest[0], zero, zero),
            act(2, R.TRAIT, rest[1], new_slot, zero - 1),
            act(3, R.POP, rest[2], new_slot, zero),
            act(4, R.BODY, rest[3], new_slot, zero),
            act(5, R.TRAIT, rest[4], new_slot, zero)]
