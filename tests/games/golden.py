"""Golden digests: sha256 of the per-game rows of games 0..1999 (seed 1, 4 players or the
nearest count, default bots) per ruleset and variant.

A change that alters any game's outcome changes a digest. When that is intended, update
the file and say why in CHANGELOG.md:

    python -m tests.games.golden --update
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from simcore.games import GAMES

from .kit import default_bots, four_or_nearest, rows, rows_digest, variants

FILE = Path(__file__).parent / "golden" / "digests.json"
SEED, GAMES_COUNT = 1, 2000


def digest(game: str, variant: str) -> str:
    players = four_or_nearest(game, variant)
    return rows_digest(rows(game, variant, players, default_bots(game, players), SEED, 0, GAMES_COUNT))


def current() -> dict:
    return {f"{g}/{v}": digest(g, v) for g in GAMES for v in variants(g)}


if __name__ == "__main__":
    if "--update" not in sys.argv:
        sys.exit("usage: python -m tests.games.golden --update   (and a CHANGELOG.md entry saying why)")
    FILE.parent.mkdir(exist_ok=True)
    FILE.write_text(json.dumps(current(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {FILE}")
