"""Static card values for the greedy Evolversi bot (integers, so both engines agree exactly).

These are a bot's heuristic, not rules: how much a card is worth above the board
(Strength and tokens) and below it (its effect and Fury symbols), from the actor's
point of view. Both engines' greedy bots read the same tables; everything that depends on
the live game state (targets, swaps, purchases) each engine computes itself.
"""
from __future__ import annotations

# Worth of one unit of each effect verb to the actor (even numbers: halves stay whole).
UNIT = {"gain_points": 6, "lose_points": -6, "gain_tokens": 2, "lose_tokens": -2,
        "steal_tokens": 3, "gain_fury": 2, "lose_fury": -2, "copy_fury": 2,
        "swap_market": 2, "discount": 2, "reveal_pressure": 2, "draw_event": 0,
        "take_totem": 2, "none": 0}
STRENGTH_WEIGHT = 3
TOKEN_WEIGHT = 2
FURY_SYMBOL_WEIGHT = 2
COST_WEIGHT = 2


def effect_value(effect: str, amount: int, target: str, condition: str) -> int:
    """Worth of one effect to its actor."""
    amount = max(amount, 1) if effect in ("copy_fury", "swap_market", "reveal_pressure",
                                          "take_totem", "draw_event", "none") else amount
    unit = UNIT[effect]
    if effect == "steal_tokens" or target in ("self", "self_and_other"):
        value = unit * amount
    elif target == "all":
        value = unit * amount - (unit * amount) // 2
    else:  # other, all_others, before, after: it happens to the others
        value = -((unit * amount) // 2)
    if condition != "always":
        value = value // 2
    return value


def card_effect_value(card: dict) -> int:
    """A card's effect, counting the optional `more` it offers (the greedy bot takes it)."""
    return effect_value(card["effect"], card["amount"] + card.get("more", 0), card["target"], card["condition"])


def above_value(card: dict) -> int:
    return STRENGTH_WEIGHT * card["strength"] + TOKEN_WEIGHT * card["tokens"]


def below_value(card: dict) -> int:
    value = card_effect_value(card)
    if card["trigger"] != "own_turn":
        value = value // 2
    return value + FURY_SYMBOL_WEIGHT * card["fury"]


def buy_value(card: dict) -> int:
    return max(above_value(card), below_value(card))


def tables(card_rows) -> dict[str, list[int]]:
    """Per card design (row of cards.csv): above, below, buy and effect values."""
    return {
        "above": [above_value(c) for c in card_rows],
        "below": [below_value(c) for c in card_rows],
        "buy": [buy_value(c) for c in card_rows],
        "effect": [card_effect_value(c) for c in card_rows],
    }
