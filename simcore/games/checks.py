"""Checks every game's adapter makes on what a user hands `run_state` (one definition)."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError


@dataclass(frozen=True)
class Removal:
    """A component the rulebook's setup returns to the box at a player count (a game's
    `setup_removals`): a state holding it cannot arise, and its loader refuses it."""

    kind: str        # the game's word for where it lies ("animal", "card", "event", "colour", ...)
    component: str   # its name, as a state writes it
    rule: str        # the rule that removes it, with its parameters


def check_state_bots(game: str, state, bots, choices=None) -> list:
    """The state's seats, after checking that `state` has a list of seats and that `bots`
    gives one bot per seat. Scripted choices travel inside `script` bots, so `choices`
    must be None (a programming error, not a user's)."""
    if choices:
        raise ValueError(f"{game} takes scripted choices inside its script bots, not as choices")
    seats = state.get("seats") if isinstance(state, dict) else None
    if not isinstance(seats, list):
        raise UserError("a game state needs a list of seats", key="state.seats")
    if bots is None or len(bots) != len(seats):
        raise UserError(f"needs one bot per seat ({len(seats)}), got {0 if bots is None else len(bots)}",
                        key="bots")
    return seats
