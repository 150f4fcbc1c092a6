"""The games balancelab ships. Each is a package under simcore/games/<game>/ with:

    adapter.py    GAME: the one interface the runner and CLI use (data, bots, faction/score
                  labels, entities, play_batch, play_one, run_state) - the same in every game
    data/         params.toml, CSV card tables, variants/*.toml
    rules.py      the vectorised batch engine       state.py   its batch state
    reference.py  the one-game reference engine

Evolversi keeps its table schemas in schema.py and play_batch in rules.py; Evolution keeps
them in ruleset.py and game.py (its rules.py holds the phase functions). New games follow
Evolversi's layout; aligning Evolution's file names is a pending clean-up.
"""
from __future__ import annotations

import importlib

from ..errors import UserError

GAMES = ("evolversi", "evolution", "capybara")


def get_game(name: str):
    """The game adapter (GAME object) for a ruleset name; UserError if unknown."""
    if name not in GAMES:
        raise UserError(f"unknown ruleset {name!r}; known rulesets: {', '.join(GAMES)}", key="ruleset")
    return importlib.import_module(f"simcore.games.{name}.adapter").GAME
