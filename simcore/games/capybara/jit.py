"""How the compiled batch engine and the compiled bots are built and cached (simcore/jit.py).

Every numba function of the engine (and of strategies/capybara's compiled bots) is
decorated with `kernel` / `policy` from here; their cache folder is keyed by every source
file they compile (simcore/games/capybara/*.py, and the files of strategies/capybara/ that
import this build or numba, with what those import: `bot_sources`; read as files, nothing
is imported from strategies/). A plain-Python bot file added there recompiles nothing.

The policy interface is `DECIDE_SIG` (see decisions.py): a C-callable function per seat,
handed to the engine as a tuple of first-class functions, cached like the rest.

No reference counting (`nrt=False`): the engine and the bots pass `g` and `rk` through many
small calls, each of which cost an atomic incref/decref pair per array with it (half of
the greedy games' CPU); nothing here allocates.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import TREE, DECIDE_SIG, GameBuild, bot_sources, python_files

BUILD = GameBuild("capybara", python_files(Path(__file__).resolve().parent)
                  + bot_sources(TREE / "strategies" / "capybara", "strategies.capybara", (__name__,)),
                  "capybara: compiling the batch engine and bots (once per source version, about {seconds} s)",
                  nrt=False)
CACHE_DIR = BUILD.folder
kernel, policy = BUILD.kernel, BUILD.policy

__all__ = ["BUILD", "CACHE_DIR", "DECIDE_SIG", "kernel", "policy"]
