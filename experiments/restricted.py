"""Restricted play: the line-ups a config's [restricted] table expands to.

For each player count: first the reference line-up (the plain bot in every seat), then for
every entity, modifier and seat, the same line-up with that one seat playing
`bot+modifier:entity`. Every point plays the same game indices of the same seed (common
random numbers), so the modified seat's result at each game is paired with the plain
bot's at the same seat of the same game (reports/measures/restricted.py).
"""
from __future__ import annotations

import difflib

from simcore.errors import UserError


def entity_names(game, rs) -> list[str]:
    """The game's entities, each name once (rows sharing a name are one entity)."""
    return list(dict.fromkeys(str(n) for n in game.entities(rs)))


def restricted_lineups(cfg, game, rs, players: int) -> list[tuple[str, ...]]:
    r = cfg.restricted
    names = entity_names(game, rs)
    folded = {n.casefold(): n for n in names}
    entities = []
    for i, e in enumerate(r.entities or names):
        if e.casefold() not in folded:
            close = difflib.get_close_matches(e, names, 1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; {game.entity_kind}s: {', '.join(names)}"
            raise UserError(f"unknown {game.entity_kind} {e!r} of {cfg.ruleset}{hint}", file=cfg.file,
                            key=f"restricted.entities[{i}]")
        entities.append(folded[e.casefold()])
    for i, s in enumerate(r.seats):
        if s >= players:
            raise UserError(f"seat {s} does not exist with {players} players (seats 0..{players - 1})",
                            file=cfg.file, key=f"restricted.seats[{i}]")
    seats = r.seats or tuple(range(players))
    out = [(r.bot,) * players]
    for e in entities:
        for mod in r.modifiers:
            for s in seats:
                lineup = [r.bot] * players
                lineup[s] = f"{r.bot}+{mod}:{e}"
                out.append(tuple(lineup))
    return out
