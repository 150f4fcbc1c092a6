"""Static card values for the greedy Evolversi bot (integers, so both engines agree exactly).

These are a bot's heuristic, not rules: how much a card is worth above the board
(Strength and tokens) and below it (its effect and Fury symbols), from the actor's
point of view. The weights are data (weights/default.toml, or the file of
`greedy:weights=FILE`: strategies/weights.py); both engines' greedy bots read the same
tables built here from them; everything that depends on the live game state (targets,
swaps, purchases) each engine computes itself.
"""
from __future__ import annotations

from ..weights import Weights

# Effects whose amount counts as at least 1 (they happen once, whatever the printed amount).
_ONCE = ("copy_fury", "swap_market", "reveal_pressure", "take_totem", "draw_event", "none")


def unit(w: Weights, effect: str) -> int:
    """Worth of one unit of an effect verb to the actor ("none" is worth nothing)."""
    return 0 if effect == "none" else w[effect]


def effect_value(w: Weights, effect: str, amount: int, target: str, condition: str) -> int:
    """Worth of one effect to its actor."""
    amount = max(amount, 1) if effect in _ONCE else amount
    u = unit(w, effect)
    if effect == "steal_tokens" or target in ("self", "self_and_other"):
        value = u * amount
    elif target == "all":
        value = u * amount - (u * amount) // 2
    else:  # other, all_others, before, after: it happens to the others
        value = -((u * amount) // 2)
    if condition != "always":
        value = value // 2
    return value


def card_effect_value(w: Weights, card: dict) -> int:
    """A card's effect, counting the optional `more` it offers (the greedy bot takes it)."""
    return effect_value(w, card["effect"], card["amount"] + card.get("more", 0), card["target"], card["condition"])


def above_value(w: Weights, card: dict) -> int:
    return w["strength"] * card["strength"] + w["tokens"] * card["tokens"]


def below_value(w: Weights, card: dict) -> int:
    value = card_effect_value(w, card)
    if card["trigger"] != "own_turn":
        value = value // 2
    return value + w["fury_symbol"] * card["fury"]


def buy_value(w: Weights, card: dict) -> int:
    return max(above_value(w, card), below_value(w, card))


def tables(card_rows, w: Weights) -> dict[str, list[int]]:
    """Per card design (row of cards.csv): above, below, buy and effect values."""
    return {
        "above": [above_value(w, c) for c in card_rows],
        "below": [below_value(w, c) for c in card_rows],
        "buy": [buy_value(w, c) for c in card_rows],
        "effect": [card_effect_value(w, c) for c in card_rows],
    }
