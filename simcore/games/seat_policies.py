"""How the engines that ask one compiled function per seat (Capybara, Evo: simcore/jit.py's
DECIDE_SIG) take their seats' policies: the bot count checked, scripted choices written
into the packed game, and the policy errors the engine reports turned into user errors.

A batch policy is an object with `decide` (the compiled function) and `script` (None, or
[kind code, option] rows: a scenario's choices, or a bot's own data) (strategies/<game>/).
"""
from __future__ import annotations

import numpy as np

from ..errors import UserError


def check_players(game: str, rs, players, policies) -> None:
    lo, hi = rs["players_min"], rs["players_max"]
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not lo <= players <= hi:
        raise UserError(f"{game} plays with {lo} to {hi} players, got {players}", key="players")
    if len(policies) != players:
        raise UserError(f"needs one bot per seat ({players}), got {len(policies)}", key="bots")


def write_scripts(g, policies, at: int, count_at: int, row_len: int, most: int) -> None:
    """Each scripted seat s's rows into g: row k at at + (s * row_len + k) * 2, its length
    at count_at + s (at most `most` rows a seat)."""
    for s, p in enumerate(policies):
        script = getattr(p, "script", None)
        if script is None:
            continue
        if len(script) > most:
            raise UserError(f"at most {most} scripted choices per seat, seat {s} has {len(script)}",
                            key="choices")
        for k, (kind, option) in enumerate(script):
            row = at + (s * row_len + k) * 2
            g[row], g[row + 1] = kind, option
        g[count_at + s] = len(script)


def check_choice_error(err: int, game: int, decisions, empty: int, wrong_kind: int, out_of_range: int) -> None:
    """The user errors a policy can stop a game with (the game's error codes): a script that
    ran out, a scripted choice of the wrong kind, a choice out of range."""
    if err == empty:
        raise UserError(f"game {game}: the scripted choices ran out before the game reached `until`",
                        key="choices")
    if err == wrong_kind:
        raise UserError(f"game {game}: a scripted choice names the wrong decision kind (kinds: "
                        f"{', '.join(decisions)})", key="choices")
    if err == out_of_range:
        raise UserError(f"game {game}: a choice is out of the range of its options", key="choices")
