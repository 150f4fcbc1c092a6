"""Golden playthroughs: the reference engine's readable log of a few seeded games per game and
variant (seed 1, 4 players or the nearest count, default bots), one text file each.

Beside the digests (golden.py), which say only that some outcome moved, a playthrough shows the
first draw or decision that changed. When a change is intended, regenerate the files, read the
diff, and say why in CHANGELOG.md:

    python -m tests.games.playthroughs --update
"""
from __future__ import annotations

import sys
from pathlib import Path

from simcore.games import GAMES, get_game

from .kit import default_bots, four_or_nearest, variants

FOLDER = Path(__file__).parent / "golden" / "playthroughs"
SEED, GAME_INDICES = 1, (0, 1)


def path(game: str, variant: str) -> Path:
    return FOLDER / f"{game}--{variant}.txt"


def playthrough(game: str, variant: str) -> list[str]:
    """The log lines of GAME_INDICES, each game under a header naming how to replay it."""
    g = get_game(game)
    rs = g.data.load(variant)
    players = four_or_nearest(game, variant)
    bots = default_bots(game, players)
    lines: list[str] = []
    for k in GAME_INDICES:
        lines.append(f"== balancelab replay {game} --variant {variant} --players {players} "
                     f"--bots {g.default_bot} --seed {SEED} --game {k}")
        g.play_one(rs, players, bots, SEED, k, log=lines)
    return lines


def first_difference(pinned: list[str], now: list[str]) -> str | None:
    """'line N: pinned ... / now ...' at the first line that differs, or None."""
    for n, (a, b) in enumerate(zip(pinned, now), start=1):
        if a != b:
            return f"line {n}:\n  pinned: {a}\n  now:    {b}"
    if len(pinned) != len(now):
        n = min(len(pinned), len(now)) + 1
        return f"line {n}: the pinned log has {len(pinned)} lines, the game now logs {len(now)}"
    return None


if __name__ == "__main__":
    if "--update" not in sys.argv:
        sys.exit("usage: python -m tests.games.playthroughs --update   (and a CHANGELOG.md entry saying why)")
    FOLDER.mkdir(parents=True, exist_ok=True)
    for g in GAMES:
        for v in variants(g):
            path(g, v).write_text("\n".join(playthrough(g, v)) + "\n")
            print(f"wrote {path(g, v)}")
