"""Bot names -> bot objects -> a RunSpec: where the experiments layer meets the bot registry.

simcore never resolves a bot name (it sits below strategies/); every entry point that
takes names from a user (CLI, configs, the notebook API) comes through here.
"""
from __future__ import annotations

from simcore.games import get_game
from simcore.runner import RunSpec, check_spec
from strategies.registry import bot_names, make_bots


def run_spec(rs, bots, players: int, factions=None, seed: int = 0, trajectories: bool = False) -> RunSpec:
    """check_spec with bots given by name ("greedy", "a,b,c", a list, or None = default)."""
    game = get_game(rs.game)
    lo, hi = game.player_range(rs)
    if isinstance(players, int) and not isinstance(players, bool) and lo <= players <= hi:
        bots = make_bots(rs.game, bots if bots is not None else game.default_bot, players, rs)
        if factions is not None and game.has_factions:
            # Names first: "--animals Pandaa" is an unknown animal (with a did-you-mean), not a count mistake.
            game.resolve_factions(rs, [f for f in factions], players)
    else:
        bots = ()        # check_spec reports the player count
    return check_spec(rs, bots, players, factions, seed, trajectories)


__all__ = ["run_spec", "bot_names", "make_bots"]
