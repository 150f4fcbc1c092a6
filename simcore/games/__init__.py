"""The games balancelab ships. Each is a package under simcore/games/<game>/ with:

    adapter.py    GAME: the one interface the runner and CLI use (simcore/games/protocol.py:
                  data, faction/score labels, entities, knockouts, play_batch, play_one,
                  run_state, board) - the same in every game
    data/         params.toml, CSV tables (every row with its `source`), variants/*.toml
    schema.py     GAME_DATA: the table schemas and rule parameters
    rules.py      the batch engine (numpy, or numba-compiled)   state.py   its batch state
    reference.py  the one-game reference engine                 state_io   the JSON game state

checks.py holds the input checks every adapter shares.
"""
from __future__ import annotations

import importlib

from ..errors import UserError

GAMES = ("evolversi", "evolution", "capybara", "evo")


def get_game(name: str):
    """The game adapter (GAME object) for a ruleset name; UserError if unknown."""
    if name not in GAMES:
        import difflib
        close = difflib.get_close_matches(str(name), list(GAMES), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UserError(f"unknown ruleset {name!r}; known rulesets: {', '.join(GAMES)}{hint}", key="ruleset")
    return importlib.import_module(f"simcore.games.{name}.adapter").GAME
