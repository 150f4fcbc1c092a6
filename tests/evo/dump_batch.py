"""One JSON line per game (keys sorted) of the batch engine's common outcome keys, to diff
against tests.evo.dump_reference (docs/games/evo.md; /work/briefs: "Comparing outputs").

    python -m tests.evo.dump_batch --players 4 --bots greedy,random,greedy,random --seed 1 --games 20

One bot name is used for every seat. Calls the engine directly with the batch policies.
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from simcore.games.evo import rules
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.batch_bots import batch_policy

KEYS = ("score", "winner", "rounds", "end_reason", "won", "dinosaurs", "sector", "attacks", "kills", "births",
        "climate_deaths", "events")


def rows(players: int, bots: list[str], seed: int, games: int, variant: str = "default", start: int = 0) -> list[dict]:
    rs = GAME_DATA.load(variant)
    if len(bots) == 1:
        bots = bots * players
    out = rules.play_batch(rs, players, [batch_policy(b, rs) for b in bots], seed, np.arange(start, start + games),
                           trajectories=True)
    lines = []
    for b in range(games):
        row = {k: out[k][b].tolist() for k in KEYS}
        row["standing"] = out["standing"][b, :row["rounds"]].tolist()
        lines.append(row)
    return lines


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--bots", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--start", type=int, default=0, help="first game index")
    ap.add_argument("--variant", default="default")
    a = ap.parse_args(argv)
    for row in rows(a.players, a.bots.split(","), a.seed, a.games, a.variant, a.start):
        print(json.dumps(row, sort_keys=True))


if __name__ == "__main__":
    main()
