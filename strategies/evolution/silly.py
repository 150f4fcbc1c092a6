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
    """Reference form (the methods `reference.play_round` calls); the batch engine plays
    the compiled form (compiled.silly_*), which makes the same choices."""

    name = "silly"

    def choose_food_card(self, g, seat):
        return choose_actions(g, g.players[seat].hand, len(g.players[seat].species))[0]

    def play_cards(self, g, seat):
        p = g.players[seat]
        return card_actions(sorted_hand(g, p.hand), len(p.species))

    def choose_feeding(self, g, seat, opts, turn):
        return feeding_choice(g, seat, opts)
