"""Test-session setup: build each game's compiled engine once, before the xdist workers start.

Every xdist worker imports the games and, at its first test of a game, loads its compiled
engine from the cache (simcore/jit.py) or compiles it. On a cold cache both workers reach
the same game at about the same time and both compile it: the same minute of CPU twice.
So the controller builds the engines the shared suite uses most (each game's default bots
and its mixed lineup, tests/games/kit.py) first, one game per core, and the workers load
them. Only a whole-suite run under xdist does this (the README's test command): plain
`pytest`, a run of named paths, the workers themselves and BALANCELAB_TEST_WARMUP=0 skip it.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# one game's builds, in a fresh interpreter (what a worker would otherwise compile itself)
WARM = """
import sys
sys.path.insert(0, {root!r})
from simcore.games import get_game
from tests.games.kit import default_bots, four_or_nearest, mixed_bots
g = get_game({game!r})
rs = g.data.load("default")
players = four_or_nearest({game!r})
for bots in (default_bots({game!r}, players), mixed_bots({game!r}, players)):
    g.warmup(rs, bots)
"""


def _warm(game: str) -> tuple[str, float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", WARM.format(root=str(ROOT), game=game)],
                          capture_output=True, text=True, cwd=ROOT)
    return game, time.perf_counter() - t0, proc.returncode, proc.stderr[-2000:]


def _workers(config) -> int:
    n = getattr(config.option, "numprocesses", None)
    return n if isinstance(n, int) else 0


def pytest_configure(config):
    if hasattr(config, "workerinput") or _workers(config) < 2 or os.environ.get("BALANCELAB_TEST_WARMUP") == "0":
        return
    if config.getoption("collectonly", False) or config.option.file_or_dir:
        return                  # a listing, or a targeted run (named paths): it builds only what it uses
    from simcore.games import GAMES
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=_workers(config)) as pool:
        done = list(pool.map(_warm, GAMES))
    lines = [f"{g} {s:.0f} s" + ("" if rc == 0 else f" (failed, rc {rc}: the tests will build it)")
             for g, s, rc, _ in done]
    print(f"\nwarmup before the workers: {', '.join(lines)}; {time.perf_counter() - t0:.0f} s wall",
          file=sys.__stderr__)


# The shared suite's engine agreements are the run's longest tests (10-40 s each on 2
# cores). Collected in path order they came after most other tests, so the last
# of them could keep one worker busy while the other had nothing left. Collected first,
# they are never the tail: `--dist worksteal` (pyproject.toml) gives each worker half the
# queue and an idle worker takes tests from the end of the other's.
LONGEST_FIRST = ("tests/games/test_engines_agree.py",)


def pytest_collection_modifyitems(config, items):
    first = [it for it in items if it.nodeid.startswith(LONGEST_FIRST)]
    if first:
        rest = [it for it in items if not it.nodeid.startswith(LONGEST_FIRST)]
        items[:] = first + rest


@pytest.fixture(scope="session")
def built_once(tmp_path_factory, worker_id):
    """build(name, make) -> a folder that make(folder) filled once in this test run.

    Fixtures whose tests xdist spreads over both workers (a module's tests, a parametrised
    fixture's) would each build the same run folder; here the first worker to ask builds it
    while holding a lock and the other waits for it and reads it. Outside xdist it is a
    folder of this run's temporary directory."""
    base = tmp_path_factory.getbasetemp()
    root = (base if worker_id == "master" else base.parent) / "built-once"
    root.mkdir(exist_ok=True)

    def build(name: str, make) -> Path:
        folder, done = root / name, root / f"{name}.done"
        with open(root / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                make(folder)
                done.touch()
        return folder
    return build
