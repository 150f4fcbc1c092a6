"""The games balancelab ships. Each is a package with the same module names:

    schema.py     GAME_DATA (data folder, table schemas, checks)
    rules.py      play_batch(...), run_state(...)      - the vectorised batch engine
    reference.py  play_one(...),   run_state(...)      - the one-game reference engine
    adapter.py    GAME: what the runner needs (bots, faction/score labels, entities, outcome mapping)
"""
from __future__ import annotations

import importlib

from ..errors import UserError

GAMES = ("evolversi", "evolution")


def get_game(name: str):
    """The game adapter (GAME object) for a ruleset name; UserError if unknown."""
    if name not in GAMES:
        raise UserError(f"unknown ruleset {name!r}; known rulesets: {', '.join(GAMES)}", key="ruleset")
    return importlib.import_module(f"simcore.games.{name}.adapter").GAME
