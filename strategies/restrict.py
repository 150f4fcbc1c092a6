"""Restricted play, the rule every game's `+favor` / `+avoid` bot follows.

At a decision where some options acquire, play or use the entity ("hit" it):
- favor: choose among the options that hit it (the bot's usual choice among those);
- avoid: choose among the options that do not, unless every option hits it.
Elsewhere the bot plays as usual. `allowed` is that rule for one decision's option list,
`allowed_mask` for a batch of decisions ((G, K) arrays).
"""
from __future__ import annotations

import numpy as np


def allowed(uses, mode: str) -> list[bool]:
    """Which options a `mode` ("favor" | "avoid") bot may choose, given which hit the entity."""
    uses = [bool(u) for u in uses]
    if mode == "favor" and any(uses):
        return uses
    if mode == "avoid" and not all(uses):
        return [not u for u in uses]
    return [True] * len(uses)


def allowed_mask(valid: np.ndarray, uses: np.ndarray, mode: str) -> np.ndarray:
    """`allowed` for G decisions at once: valid (G, K) legal options, uses (G, K) hits."""
    hit = valid & uses
    keep = hit if mode == "favor" else valid & ~uses
    return np.where(keep.any(axis=1)[:, None], keep, valid)


def best_allowed(scores, ok) -> int:
    """Index of the highest score among the allowed options; the lowest index among equals."""
    best = None
    for i, (s, o) in enumerate(zip(scores, ok)):
        if o and (best is None or s > scores[best]):
            best = i
    return best
