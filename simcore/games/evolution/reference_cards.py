"""Cards in the reference engine: draws (a reshuffle of the discards where the rules allow
it), extinction and the cards it draws, and the card plays (a new species, a trait, a
population or body step).
"""
from __future__ import annotations

from . import addresses as A
from .reference_state import Game, Player, Species
from .reference_text import card_list, round_label, trait_names
from .traits import FAT_TISSUE


def set_final_round(g: Game, final: int, reason: int) -> None:
    if final < g.final_round:
        g.final_round = final
        g.end_reason = reason


def draw(g: Game, n: int) -> list:
    """Draw n cards from the top; an empty deck reshuffles the discards if the rules say so
    (and makes the next round the last)."""
    out = []
    for _ in range(n):
        if not g.deck and g.rules.reshuffle_discards and g.discard:
            reshuffle(g)
        if not g.deck:
            break
        out.append(g.deck.pop(0))
    return out


def reshuffle(g: Game) -> None:
    g.deck = g.shuffle(g.discard)
    g.discard = []
    set_final_round(g, g.round + 1, A.END_RESHUFFLE)
    if g.log is not None:
        g.say(f"{round_label(g)} · Deck empty: the discards ({len(g.deck)} cards) are reshuffled "
              f"into a new deck; the next round is the last")


def go_extinct(g: Game, player: Player, sp: Species) -> None:
    """Remove an extinct species: traits to the discards, food back to the bank, draw cards."""
    r = g.rules
    idx = next(k for k, s in enumerate(player.species) if s is sp)
    del player.species[idx]
    traits = trait_names(g, sp) if g.log is not None else ""
    g.discard.extend(sp.traits)
    g.bank_out -= sp.food + sp.fat
    n = r.extinction_cards_flat + r.extinction_cards_per_trait * len(sp.traits)
    drawn = draw(g, n)
    player.hand[:0] = drawn           # drawn cards go in front (the cs4500 cases' order)
    if g.log is not None:
        lost = f" ({traits} to the discards)" if traits else ""
        got = f"draws {card_list(g, drawn)}" if drawn else "draws nothing"
        short = f" (deck short: {len(drawn)} of {n})" if len(drawn) < n else ""
        g.say(f"{round_label(g)} · Extinction: P{player.pid}'s species {idx} dies out{lost}; "
              f"P{player.pid} {got}{short}")


def lose_population(g: Game, player: Player, sp: Species) -> bool:
    """One population lost; True if the species went extinct."""
    sp.pop -= 1
    if sp.food > sp.pop:
        g.bank_out -= sp.food - sp.pop
        sp.food = sp.pop
    if sp.pop <= 0:
        go_extinct(g, player, sp)
        return True
    return False


def new_species(g: Game) -> Species:
    r = g.rules
    return Species(food=0, body=r.new_species_body, pop=r.new_species_population)


def play_action(g: Game, p: Player, act: tuple) -> bool:
    """Apply one card action; an illegal one is skipped (card stays in hand). True if applied.

    ("new", card, side)  side 0 = right end, 1 = left end
    ("trait", card, species, slot)  slot -1 adds, else replaces that trait
    ("pop", card, species) / ("body", card, species)
    """
    r = g.rules
    kind, card = act[0], act[1]
    if card not in p.hand:
        return False
    if kind == "new":
        side = act[2]
        if len(p.species) >= r.species_slots or (side == 1 and r.new_species_sides != "both"):
            return False
        if side == 1:
            p.species.insert(0, new_species(g))
        else:
            p.species.append(new_species(g))
    elif kind == "trait":
        s, slot = act[2], act[3]
        if not 0 <= s < len(p.species):
            return False
        sp = p.species[s]
        others = [c for k, c in enumerate(sp.traits) if k != slot]
        if any(g.kind(c) == g.kind(card) for c in others):
            return False
        if slot < 0:
            if len(sp.traits) >= r.max_traits:
                return False
            sp.traits.append(card)
        else:
            if slot >= len(sp.traits):
                return False
            old = sp.traits[slot]
            sp.traits[slot] = card
            g.discard.append(old)
            if g.kind(old) == FAT_TISSUE and g.kind(card) != FAT_TISSUE:
                g.bank_out -= sp.fat
                sp.fat = 0
        p.played[g.kind(card)] += 1
        p.hand.remove(card)
        return True
    elif kind in ("pop", "body"):
        s = act[2]
        if not 0 <= s < len(p.species):
            return False
        sp = p.species[s]
        at_cap = sp.pop >= r.max_population if kind == "pop" else sp.body >= r.max_body
        if at_cap:                  # "A species cannot go beyond Size 7 or Population 7": not a play
            return False
        if kind == "pop":
            sp.pop += 1
        else:
            sp.body += 1
    else:
        return False
    p.hand.remove(card)
    g.discard.append(card)
    return True
