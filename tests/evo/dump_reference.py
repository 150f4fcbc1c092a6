"""Print one JSON line per game of the Evo reference engine, keys sorted (the engines'
comparison format, docs: /work/briefs/evo-engines-common.md "Comparing outputs").

    python -m tests.evo.dump_reference --players 4 --bots greedy,random,greedy,random --seed 1 --games 20
"""
from __future__ import annotations

import argparse
import json

from simcore.games.evo import reference
from simcore.games.evo.schema import GAME_DATA
from strategies.registry import make_bots

KEYS = ("score", "winner", "rounds", "end_reason", "won", "dinosaurs", "sector", "attacks", "kills", "births",
        "climate_deaths", "events")


def row(out: dict) -> dict:
    r = {k: out[k] for k in KEYS}
    r["winner"] = [bool(w) for w in out["winner"]]
    r["standing"] = [list(x) for x in out["standing"][:out["rounds"]]]
    return r


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--bots", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--variant", default="default")
    a = ap.parse_args(argv)
    rs = GAME_DATA.load(a.variant)
    bots = make_bots("evo", a.bots, a.players)
    for k in range(a.start, a.start + a.games):
        policies = [b.reference_policy(rs, s) for s, b in enumerate(bots)]
        out = reference.play_one(rs, a.players, policies, a.seed, k, trajectories=True)
        print(json.dumps(row(out), sort_keys=True))


if __name__ == "__main__":
    main()
