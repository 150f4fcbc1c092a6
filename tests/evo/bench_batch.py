"""Games per second per core of the batch engine (4 players by default), after a warm-up;
CPU time of this process (one thread), so other load on the machine counts little.

    python -m tests.evo.bench_batch --players 4 --games 4000
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from simcore.games.evo import rules
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.batch_bots import batch_policy


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4000)
    a = ap.parse_args(argv)
    rs = GAME_DATA.load()
    t0, c0 = time.perf_counter(), time.process_time()
    for bot in ("random", "greedy"):
        rules.warmup(rs, a.players, [batch_policy(bot, rs)] * a.players)
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f} s wall, "
          f"{time.process_time() - c0:.1f} s CPU")
    for bot in ("random", "greedy"):
        pols = [batch_policy(bot, rs)] * a.players
        c0 = time.process_time()
        rules.play_batch(rs, a.players, pols, 1, np.arange(a.games))
        cpu = time.process_time() - c0
        print(f"{bot:7s} P={a.players}: {a.games / cpu:8.0f} games/s per core ({a.games} games, {cpu:.2f} s CPU)")


if __name__ == "__main__":
    main()
