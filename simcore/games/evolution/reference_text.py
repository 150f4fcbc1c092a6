"""The pieces of the reference engine's game log (reference.py's `log`): card, species and
board names, the food each species gained, and the readable line of a card play. Only
called under `if g.log is not None`: none of this runs when no log is requested.
"""
from __future__ import annotations

from . import addresses as A
from .reference_state import Game, Player, Species, index_of
from .traits import TRAITS

END_TEXT = {
    A.END_DECK_EMPTY: "the deck ran out while dealing, so that round was the last",
    A.END_RESHUFFLE: "extinction draws emptied the deck: the discards were reshuffled "
                     "for one last round",
    A.END_MAX_ROUNDS: "the round limit (max_rounds) was reached",
    A.END_DECK_SHORT: "the deck could not deal a whole round",
}


def trait_name(trait: int) -> str:
    """"fat-tissue" -> "Fat Tissue"."""
    return TRAITS[trait].replace("-", " ").title()


def card_name(g: Game, card: int) -> str:
    """A card as printed: its trait and food value, e.g. "Carnivore (3)"."""
    return f"{trait_name(g.kind(card))} ({int(g.cards.food[card])})"


def card_list(g: Game, cards) -> str:
    return ", ".join(card_name(g, c) for c in cards) or "no cards"


def round_label(g: Game) -> str:
    return f"Round {g.round + 1}"


def trait_names(g: Game, sp: Species) -> str:
    return ", ".join(trait_name(g.kind(c)) for c in sp.traits)


def species_text(g: Game, sp: Species) -> str:
    """"body 2, population 1, food 0: Horns, Climbing"."""
    text = f"body {sp.body}, population {sp.pop}, food {sp.food}"
    if sp.fat:
        text += f", fat {sp.fat}"
    names = trait_names(g, sp)
    return f"{text}: {names}" if names else text


def board_text(g: Game, p: Player) -> str:
    if not p.species:
        return f"P{p.pid}: no species"
    return f"P{p.pid}: " + " | ".join(f"species {i} ({species_text(g, sp)})"
                                      for i, sp in enumerate(p.species))


def food_snapshot(g: Game) -> list:
    """(player, species, food + fat) for every species on the table."""
    return [(p, sp, sp.food + sp.fat) for p in g.players for sp in p.species]


def gains(before: list, skip=None) -> list:
    """"P1's species 1 +1"-style texts for species that gained food since `before`."""
    out = []
    for p, sp, had in before:
        if sp is skip or not any(s is sp for s in p.species):
            continue
        if sp.food + sp.fat > had:
            out.append(f"P{p.pid}'s species {index_of(p, sp)} +{sp.food + sp.fat - had}")
    return out


def gain_of(before: list, sp: Species) -> int:
    for _, s, had in before:
        if s is sp:
            return sp.food + sp.fat - had
    return 0


def play_text_before(g: Game, p: Player, act: tuple) -> str:
    """The part of a card play's line known before it is applied."""
    kind = act[0]
    if kind == "trait" and 0 <= act[2] < len(p.species) and 0 <= act[3] < len(p.species[act[2]].traits):
        return trait_name(g.kind(p.species[act[2]].traits[act[3]]))
    return ""


def play_text_after(g: Game, p: Player, act: tuple, done: bool, old: str) -> str:
    """The readable line of one card play (`old`: the trait a replacement removes)."""
    kind, card = act[0], act[1]
    me = f"P{p.pid}"
    if not done:
        if card not in p.hand:
            return f"{me} cannot play card {card}: not in hand (skipped)"
        if kind == "new":
            what = f"create a new species at the {'left' if act[2] == 1 else 'right'}"
        elif kind == "trait":
            what = (f"add {trait_name(g.kind(card))} to species {act[2]}" if act[3] < 0 else
                    f"put {trait_name(g.kind(card))} on species {act[2]} (trait slot {act[3]})")
        elif kind in ("pop", "body"):
            what = f"grow species {act[2]}'s {'population' if kind == 'pop' else 'body'}"
        else:
            what = f"play it as {kind!s}"
        return (f"{me} tries to {what} with {card_name(g, card)}: not allowed by the rules "
                f"(the card stays in hand)")
    if kind == "new":
        where = "left" if act[2] == 1 else "right"
        return (f"{me} creates a new species at the {where} (pays {card_name(g, card)}); "
                f"{len(p.species)} species")
    s = act[2]
    if kind == "trait":
        name = trait_name(g.kind(card))
        if act[3] < 0:
            return f"{me} adds {name} to species {s} (card {card_name(g, card)})"
        return (f"{me} replaces {old} with {name} on species {s} (card {card_name(g, card)}; "
                f"{old} to the discards)")
    sp = p.species[s]
    if kind == "pop":
        return f"{me} grows species {s}'s population to {sp.pop} (pays {card_name(g, card)})"
    return f"{me} grows species {s}'s body to {sp.body} (pays {card_name(g, card)})"
