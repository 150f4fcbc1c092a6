"""The `greedy` Evolution bot: a sensible, deterministic player (no random draws).

Context (for seat c): `carn_out` - another player has a carnivore; `prey` - species of the
other players that are not carnivores; `want_carn` - prey >= number of players and c has
no carnivore yet ("becomes a carnivore when prey is plentiful").

Card value: a score per trait that depends on the context (`score_table`, from the weights
of weights/default.toml or `greedy:weights=FILE`): defensive traits
are worth most when carnivores are out, Carnivore only when c wants to become one.

Food card: the least valuable card (lowest score, then highest food value, then lowest
id), so the cards that help it stay in hand.

Card play, from the hand without the food card:
1. Becoming a carnivore (want_carn, a Carnivore card, room for a species, 2+ cards): a new
   species at the right end paid with the cheapest card (lowest score, food, id), the
   lowest-id Carnivore card on it, and the next cheapest card grows its body.
2. Otherwise: a new species (right end) with the cheapest card if it has at most one
   species and 3+ cards; then the best-scoring card (score > 0, not a trait the species
   already has, not Carnivore) onto the leftmost non-carnivore species with a free trait
   slot (or onto the new species); then, keeping at least one card in hand, the cheapest
   card grows the body of the smallest non-carnivore species if carnivores are out, else
   the population of the least populous one (ties: leftmost).
Feeding: the hungriest species (population - food, ties leftmost) among those that can
eat plant food and the carnivores that can attack another player (plant food on ties);
a carnivore attacks the target without Horns first, then the largest body, then in turn
order after its own seat, leftmost. Then Fat Tissue storing (most room), then
Intelligence (hungriest), else forgo (or the first legal option when forgoing is illegal).
Never attacks its own species; never spends a card on an Intelligence attack.

Restricted play (`restriction` = (mode, trait id), compiled.PLAIN/FAVOR/AVOID): the trait's
score becomes compiled.FAVOR_SCORE (favor: kept as food and payment, played as the trait
wherever it may go) or -1 (avoid: spent first, never played); for Carnivore, becoming a
carnivore happens whenever possible (favor) or never (avoid). Feeding chooses among the
options compiled.feed_ok allows (those using the trait, or those not using it).
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.traits import CARNIVORE, FAT_TISSUE, HORNS, INTELLIGENCE, TRAITS
from strategies.evolution import compiled


_TABLES: dict = {}       # memory row bytes -> its score table


def score_table(mem) -> np.ndarray:
    """(2 carn_out, 2 want_carn, 17 traits): how much the bot wants to keep / play a trait,
    from a greedy memory row (compiled.greedy_memory): the one definition,
    compiled.greedy_score, serves both forms of the bot."""
    key = np.asarray(mem, np.int64).tobytes()
    if key not in _TABLES:
        _TABLES[key] = np.array([[[compiled.greedy_score(mem, k, out, want) for k in range(len(TRAITS))]
                                  for want in (0, 1)] for out in (0, 1)], np.int64)
    return _TABLES[key]


def _keep_key(score, food, card):
    """Smaller = given away first as the food card: low score, high food, low id."""
    return (int(score) << 20) + ((32 - int(food)) << 10) + int(card)


def _pay_key(score, food, card):
    """Smaller = spent first to pay for growth: low score, low food, low id."""
    return (int(score) << 20) + ((32 + int(food)) << 10) + int(card)


# ---------------------------------------------------------------- reference form

def _context(g, seat, mem=None):
    carn_out, prey = False, 0
    for q, p in enumerate(g.players):
        if q == seat:
            continue
        for sp in p.species:
            if g.has(sp, CARNIVORE):
                carn_out = True
            else:
                prey += 1
    has_carn = any(g.has(sp, CARNIVORE) for sp in g.players[seat].species)
    margin = (compiled.GREEDY.memory if mem is None else mem)[compiled.W_PREY]
    want = prey >= len(g.players) + margin and not has_carn
    return int(carn_out), int(want)


def _scores(g, seat, restriction, mem):
    out, want = _context(g, seat, mem)
    score = score_table(mem)[out, want]
    if restriction is not None:
        mode, e = restriction
        score = score.copy()
        score[e] = compiled.FAVOR_SCORE if mode == compiled.FAVOR else -1
        if e == CARNIVORE:
            want = int(mode == compiled.FAVOR)
    return score, bool(out), bool(want)


def plan(g, seat, restriction=None, mem=None) -> list:
    """The greedy card actions of `seat` (reference form; `mem`: compiled.greedy_memory,
    None for the default weights)."""
    mem = compiled.GREEDY.memory if mem is None else mem
    r = g.rules
    p = g.players[seat]
    score, carn_out, want = _scores(g, seat, restriction, mem)
    food = g.cards.food
    hand = sorted(p.hand)
    n_sp = len(p.species)
    room = n_sp < r.species_slots

    def cheapest(used):
        left = [c for c in hand if c not in used]
        if not left:
            return None
        return min(left, key=lambda c: _pay_key(score[g.kind(c)], food[c], c))

    carn_cards = [c for c in hand if g.kind(c) == CARNIVORE]
    if want and carn_cards and room and len(hand) >= 2:
        cc = carn_cards[0]
        pay = cheapest({cc})
        acts = [("new", pay, 0), ("trait", cc, n_sp, -1)]
        grow = cheapest({cc, pay})
        if grow is not None:
            acts.append(("body", grow, n_sp))
        return acts
    acts, used = [], set()
    new = n_sp <= mem[compiled.W_NEW_MAX] and len(hand) >= mem[compiled.W_NEW_HAND] and room
    if new:
        pay = cheapest(used)
        acts.append(("new", pay, 0))
        used.add(pay)
    target = next((i for i, sp in enumerate(p.species)
                   if not g.has(sp, CARNIVORE) and len(sp.traits) < r.max_traits), None)
    if target is None and new:
        target = n_sp
    if target is not None:
        kinds = {g.kind(c) for c in p.species[target].traits} if target < n_sp else set()
        best, best_score = None, 0
        for c in hand:
            k = g.kind(c)
            if c in used or k in kinds or k == CARNIVORE or score[k] <= best_score:
                continue
            best, best_score = c, score[k]
        if best is not None:
            acts.append(("trait", best, target, -1))
            used.add(best)
    if len(hand) - len(used) >= mem[compiled.W_GROW_KEEP]:
        grow = cheapest(used)
        herb = [i for i, sp in enumerate(p.species) if not g.has(sp, CARNIVORE)]
        if carn_out:
            herb = [i for i in herb if p.species[i].body < r.max_body]
            if herb:
                acts.append(("body", grow, min(herb, key=lambda i: (p.species[i].body, i))))
        else:
            herb = [i for i in herb if p.species[i].pop < r.max_population]
            if herb:
                acts.append(("pop", grow, min(herb, key=lambda i: (p.species[i].pop, i))))
    return acts


def food_card(g, seat, restriction=None, mem=None):
    mem = compiled.GREEDY.memory if mem is None else mem
    score, _, _ = _scores(g, seat, restriction, mem)
    hand = g.players[seat].hand
    return min(hand, key=lambda c: _keep_key(score[g.kind(c)], g.cards.food[c], c))


def uses_trait(option, seat, e) -> bool:
    """compiled.feed_uses: whether a feeding option uses trait e."""
    if e == CARNIVORE:
        return option[0] == "attack" and option[4] < 0 and option[2] != seat
    return option[0] == {FAT_TISSUE: "store", INTELLIGENCE: "intel"}.get(e)


def allowed(opts, seat, restriction):
    """compiled.feed_ok: the options a restricted bot may choose among (in their order)."""
    if restriction is None:
        return list(opts)
    mode, e = restriction
    uses = [uses_trait(o, seat, e) for o in opts]
    if not any(uses) or (mode == compiled.AVOID and all(uses)):
        return list(opts)
    want = mode == compiled.FAVOR
    return [o for o, u in zip(opts, uses) if u == want]


def feeding_choice(g, seat, opts, restriction=None) -> tuple:
    """The greedy choice among the legal feeding options `opts` (reference form)."""
    opts = allowed(opts, seat, restriction)
    n = len(g.players)
    species = g.players[seat].species

    def hunger(i):
        return species[i].pop - species[i].food

    vegs = [o[1] for o in opts if o[0] == "veg"]
    attacks = [o for o in opts if o[0] == "attack" and o[4] < 0 and o[2] != seat]
    veg = min(vegs, key=lambda i: (-hunger(i), i)) if vegs else None
    att = min({o[1] for o in attacks}, key=lambda i: (-hunger(i), i)) if attacks else None
    if veg is not None and (att is None or hunger(veg) >= hunger(att)):
        return ("veg", veg)
    if att is not None:
        def target_key(o):
            sp = g.players[o[2]].species[o[3]]
            return (g.has(sp, HORNS), -sp.body, (o[2] - seat - 1) % n, o[3])
        return min((o for o in attacks if o[1] == att), key=target_key)
    stores = [o[1] for o in opts if o[0] == "store"]
    if stores:
        return ("store", min(stores, key=lambda i: (-(species[i].body - species[i].fat), i)))
    intel = [o[1] for o in opts if o[0] == "intel"]
    if intel:
        return ("intel", min(intel, key=lambda i: (-hunger(i), i)))
    return opts[0]


class Greedy:
    """Reference form; the batch engine plays the compiled form (compiled.greedy_*), which
    makes the same choices (tests/evolution/test_compiled_bots.py)."""

    name = "greedy"

    def __init__(self, restriction=None, weights=None):
        self.restriction = restriction        # None, or (compiled.FAVOR | AVOID, trait id)
        # the weights as the compiled form reads them (its memory row; None: the defaults)
        self.mem = None if weights is None else compiled.greedy_memory(weights)

    def choose_food_card(self, g, seat):
        return food_card(g, seat, self.restriction, self.mem)

    def play_cards(self, g, seat):
        return plan(g, seat, self.restriction, self.mem)

    def choose_feeding(self, g, seat, opts, turn):
        return feeding_choice(g, seat, opts, self.restriction)
