"""How the batch engine's compiled kernels are built and cached (simcore/jit.py).

The engine is numpy (the bots are numpy policies, decisions.py); every step that asks no
decision and loops per game (the draws and reshuffles, placement, turn order, the effects'
verbs, targets and conditions, the purchase, Events, SWAP_ABOVE, phase 4) is a numba
kernel (kernels.py; docs/games/evolversi.md section 14). Their cache folder is keyed by
every source file of this package, as Capybara's and Evo's.
"""
from __future__ import annotations

from pathlib import Path

from ...jit import GameBuild, python_files

BUILD = GameBuild("evolversi", python_files(Path(__file__).resolve().parent),
                  "evolversi: compiling the batch engine's kernels (once per source version, about 6 s of CPU)")
CACHE_DIR = BUILD.folder
kernel = BUILD.kernel

__all__ = ["BUILD", "CACHE_DIR", "kernel"]
