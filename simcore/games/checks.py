"""Checks every game's adapter makes on what a user hands `run_state` (one definition)."""
from __future__ import annotations

from ..errors import UserError


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
