"""How the compiled batch engine and the compiled bots are built and cached (simcore/jit.py).

Every numba function of the engine (and of the compiled bots) is decorated with `kernel` /
`policy` from here; the engine's cache folder is keyed by every source file of this
package, a bot's by those and its own files (the bot's file and the files of its package
that import this build or numba, with what those import: GameBuild.sources_of, learned
from the bot's function, read as files). A plain-Python bot file recompiles nothing.

The policy interface is `DECIDE_SIG` (see decisions.py): a C-callable function per seat,
handed to the engine as a tuple of first-class functions, cached like the rest.

No reference counting (`nrt=False`): the engine and the bots pass `g` and `rk` through many
small calls, each of which cost an atomic incref/decref pair per array with it (half of
the greedy games' CPU); nothing here allocates.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import DECIDE_SIG, GameBuild, python_files

BUILD = GameBuild("capybara", python_files(Path(__file__).resolve().parent),
                  "capybara: compiling the batch engine and bots (once per source version, about {seconds} s)",
                  nrt=False, modules=(__name__,))
CACHE_DIR = BUILD.folder
kernel, policy = BUILD.kernel, BUILD.policy

__all__ = ["BUILD", "CACHE_DIR", "DECIDE_SIG", "kernel", "policy"]
