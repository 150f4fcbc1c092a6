"""How the batch engine's compiled code is built and cached (simcore/jit.py).

The engine is numpy (the bots are numpy policies, decisions.py); every step that asks no
decision and loops per game (the draws and reshuffles, placement, turn order, the effects'
verbs, targets and conditions, the purchase, Events, SWAP_ABOVE, phase 4) is a numba
kernel (kernels.py; docs/games/evolversi.md section 14). For the bots with a compiled form
(strategies/evolversi/compiled.py: C-callable policies of jit.DECIDE_PTR_SIG, `policy` here)
whole games are compiled, decisions included: rounds.py plays phases 1, 2 and 4 around
turn.py's phase 3.

Two builds share one set of sources (this package and the compiled bot files of
strategies/evolversi/ with what they import, read as files): `kernel` (kernels.py, with numba's reference counting: they allocate scratch) and
`fast` / `policy` (rounds.py, turn.py and the compiled bots, without it, `nrt=False`: they pass the
state's arrays through many small calls and allocate nothing). Each has its own folder.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import DECIDE_PTR_SIG, DECIDE_SIG, TREE, GameBuild, bot_sources, python_files

# the package and the bot files that can add compiled code (jit.bot_sources): a plain-Python
# bot file added to strategies/evolversi/ recompiles nothing
SOURCES = (python_files(Path(__file__).resolve().parent)
           + bot_sources(TREE / "strategies" / "evolversi", "strategies.evolversi", (__name__,)))
# one line on stderr for both folders, said by whichever compiles first (the compiled bots'
# phase 3, in a run with a shipped bot; the kernels alone with a script bot)
BUILD = GameBuild("evolversi", SOURCES,
                  "evolversi: compiling the batch engine: its kernels, phase 3 and bots "
                  "(once per source version, about {seconds} s in all)")
TURN_BUILD = GameBuild("evolversiturn", SOURCES, nrt=False, policy_sig=DECIDE_PTR_SIG, line_of=BUILD)
CACHE_DIR = BUILD.folder
kernel = BUILD.kernel
fast, policy = TURN_BUILD.kernel, TURN_BUILD.policy

__all__ = ["BUILD", "CACHE_DIR", "DECIDE_SIG", "TURN_BUILD", "fast", "kernel", "policy"]
