"""`balancelab bench RULESET --bots rollout,...`: what a search bot costs.

A line-up with a search bot is played by the bot's driver (simcore.runner.play), game by
game; the figure that matters is its searched decisions per CPU second per core (each one
is options x K continuations on the batch engine), next to games/s, for the driver on the
batch engine and on the reference engine (its own turns on that engine, continuations
always on the batch engine).
"""
from __future__ import annotations

import time

import numpy as np

from simcore.runner import driver, play


def bench_search(game, rs, spec, games: int, ref_games: int, seed: int) -> dict:
    """Games and searched decisions per CPU second of a line-up with a search bot."""
    bots = list(spec.bots)
    play(game, rs, spec.players, bots, seed, np.arange(1))                 # warm up (compile)
    rates = {}
    for engine, n in (("batch", games), ("reference", ref_games)):
        log: list[str] = []
        t0 = time.process_time()
        for g in range(n):
            play(game, rs, spec.players, bots, seed, [g], engine=engine, log=log)
        cpu = max(time.process_time() - t0, 1e-9)
        searched = sum(1 for line in log if line.startswith("rollout seat"))
        rates[engine] = (n / cpu, searched / cpu, searched, n)
    return {"ruleset": game.name, "players": spec.players, "bots": [b.name for b in bots],
            "search_bot": driver(bots).name, "rates": rates}


def print_search(r: dict) -> None:
    print(f"{r['ruleset']}: {r['players']} players, bots {','.join(r['bots'])} (search: {r['search_bot']})")
    for engine, (g_rate, d_rate, searched, n) in r["rates"].items():
        print(f"  {engine:<9} engine {g_rate:>9,.2f} games/s per core, {d_rate:>9,.1f} searched decisions/s "
              f"per core ({n} games, {searched} searched decisions)")
