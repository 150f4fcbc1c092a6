"""How the batch engine's compiled code is built and cached (simcore/jit.py).

The engine is numpy (the bots are numpy policies, decisions.py); every step that asks no
decision and loops per game (the draws and reshuffles, placement, turn order, the effects'
verbs, targets and conditions, the purchase, Events, SWAP_ABOVE, phase 4) is a numba
kernel (kernels.py; docs/games/evolversi.md section 14). For the bots with a compiled form
(strategies/evolversi/compiled.py: C-callable policies of jit.DECIDE_PTR_SIG, `policy` here)
whole games are compiled, decisions included: rounds.py plays phases 1, 2 and 4 around
turn.py's phase 3.

Two builds share one set of sources (this package; a compiled bot's folder is keyed by
those and its own files, GameBuild.sources_of, learned from the bot's function): `kernel` (kernels.py, with numba's reference counting: they allocate scratch) and
`fast` / `policy` (rounds.py, turn.py and the compiled bots, without it, `nrt=False`: they pass the
state's arrays through many small calls and allocate nothing). Each has its own folder.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import DECIDE_PTR_SIG, DECIDE_SIG, GameBuild, python_files

# the package; a bot's compiled code is keyed by its own files too (a plain-Python bot
# file recompiles nothing)
SOURCES = tuple(python_files(Path(__file__).resolve().parent))
# one line on stderr for both folders, said by whichever compiles first (the compiled bots'
# phase 3, in a run with a shipped bot; the kernels alone with a script bot)
BUILD = GameBuild("evolversi", SOURCES,
                  "evolversi: compiling the batch engine: its kernels, phase 3 and bots "
                  "(once per source version, about {seconds} s in all)", modules=(__name__,))
TURN_BUILD = GameBuild("evolversiturn", SOURCES, nrt=False, policy_sig=DECIDE_PTR_SIG, line_of=BUILD,
                       modules=(__name__,))
CACHE_DIR = BUILD.folder
kernel = BUILD.kernel
fast, policy = TURN_BUILD.kernel, TURN_BUILD.policy

__all__ = ["BUILD", "CACHE_DIR", "DECIDE_SIG", "TURN_BUILD", "fast", "kernel", "policy"]
